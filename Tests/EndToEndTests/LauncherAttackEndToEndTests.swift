import Foundation
import Testing

/// What an outside attacker found in the launcher, the flags and the control channel, each replayed against the
/// built binary as they ran it: a closed stdout under the Foundation launcher, a report moved out of its directory by
/// the program, malformed control commands acknowledged `ok`, options that silently did nothing, trust directories
/// left behind by SIGKILL, flag values rewritten, and messages that named the wrong thing.
@Suite struct LauncherAttackEndToEndTests {
    static let stubs = #"{"routes":[{"path":"/ok","body":"ok"}]}"#

    /// `>&-` at start: both launchers turn the 0 into 74 (the program's output is lost), never 0.
    @Test(arguments: ["spawn", "foundation"])
    func aStandardOutputClosedAtStartIsExit74WithEitherLauncher(launcher: String) throws {
        let status = try CLI.output(of: [
            "sh", "-c", "\"$0\" --launcher \"$1\" -q sh -c 'echo hi' >&- 2>/dev/null; echo $?", CLI.sutLaunch, launcher,
        ])
        #expect(status == "74\n", "\(launcher)")
    }

    /// R10C-13: `--report /dev/stdout` (`/dev/stderr`, `/dev/fd/1`, `--journal /dev/stdout`) with that
    /// descriptor closed at start wrote into the /dev/null put there: exit 0, the report nowhere. Now a usage error
    /// before anything launches; `/dev/null` itself is still fine.
    @Test(arguments: ["spawn", "foundation"])
    func aReportOnADescriptorClosedAtStartIsRefused(launcher: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let cases = [
            ("--report", "/dev/stdout", ">&-"), ("--report", "/dev/fd/1", ">&-"), ("--report", "/proc/self/fd/1", ">&-"),
            ("--journal", "/dev/stdout", ">&-"), ("--report", "/dev/stderr", "2>&-"),
            // fd 0 likewise (it held the /dev/null put there: exit 0, the report nowhere).
            ("--report", "/dev/stdin", "<&-"), ("--journal", "/dev/fd/0", "<&-"),
        ]
        for (option, path, closed) in cases {
            let ran = directory.appendingPathComponent("ran").path
            let script = "\"$0\" --launcher \"$1\" -q --port 0 --stub \"$2\" \(option) \(path) touch \"$3\" 2>\"$3.err\" \(closed); echo $?"
            let status = try CLI.output(of: ["sh", "-c", script, CLI.sutLaunch, launcher, stubs, ran])
            #expect(status == "2\n", "\(option) \(path) \(closed): \(status)")
            #expect(!FileManager.default.fileExists(atPath: ran), "\(option) \(path): the program ran")
            let error = (try? String(contentsOfFile: ran + ".err", encoding: .utf8)) ?? ""
            #expect(closed == "2>&-" || error.contains("was closed when sut-launch started"), "\(error)")
        }
        let null = try CLI.output(of: [
            "sh", "-c", "\"$0\" --launcher \"$1\" -q --report /dev/null true >&-; echo $?", CLI.sutLaunch, launcher,
        ])
        #expect(null == "0\n", "\(null)")
        // A closed stdin: the program reads the /dev/null put there, never a file sut-launch opened since (a stub, the
        // journal's directory, a report's placeholder).
        let script =
            "\"$0\" --launcher \"$1\" -q --port 0 --stub \"$2\" --journal \"$3/j.json\" --report \"$3/r.json\" "
            + "sh -c 'readlink /proc/$$/fd/0' <&-"
        let stdin = try CLI.output(of: ["sh", "-c", script, CLI.sutLaunch, launcher, stubs, directory.path])
        #expect(stdin == "/dev/null\n", "\(stdin)")
    }

    /// R10C-11: sut-launch's own lines continued the program's unterminated last line (`partialsut-launch: error: …
    /// timed out`, `::warning::xsut-launch: mock server: …`), so a search for `^sut-launch: error:` missed the verdict.
    /// Now a newline comes first, on the same stream or on stdout and stderr led to one pipe; none is added otherwise.
    @Test(arguments: ["spawn", "foundation"])
    func ownLinesStartOnALineOfTheirOwn(launcher: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let timedOut = try CLI.run(["--launcher", launcher, "-t", "300ms", "sh", "-c", "printf partial >&2; sleep 5"])
        #expect(timedOut.status == 124 && timedOut.stderr.hasPrefix("partial\nsut-launch: error: sh timed out"), "\(timedOut.stderr)")
        let summary = try CLI.run(["--launcher", launcher, "--port", "0", "--stub", stubs, "sh", "-c", "printf ::warning::x >&2"])
        #expect(summary.stderr.hasPrefix("::warning::x\nsut-launch: mock server: 0 requests, 0 unexpected\n"), "\(summary.stderr)")
        // A line the program ended, or one on the other stream (another file): nothing added.
        let ended = try CLI.run(["--launcher", launcher, "-t", "300ms", "sh", "-c", "printf 'partial\\n' >&2; printf out; sleep 5"])
        #expect(ended.stderr.hasPrefix("partial\nsut-launch: error: sh timed out") && ended.stdout == "out", "\(ended.stderr)")
        // stdout and stderr on one pipe: the program's stdout line is closed before sut-launch's stderr line.
        let shared = try CLI.output(of: [
            "sh", "-c", "\"$0\" --launcher \"$1\" -t 300ms sh -c 'printf partial; sleep 5' 2>&1", CLI.sutLaunch, launcher,
        ])
        #expect(shared.hasPrefix("partial\nsut-launch: error: sh timed out"), "\(shared)")
    }

    /// The program swaps the outputs' directory for a link to another: the journal and the report still land in the
    /// directory checked at start, nothing outside.
    @Test func aDirectorySwappedForALinkDuringTheRunDoesNotMoveTheOutputs() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("jd"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("outside"), withIntermediateDirectories: true)
        let result = try CLI.run(
            [
                "-q", "--port", "0", "--stub", stubs, "--journal", "jd/j.json", "--report", "jd/r.json",
                "sh", "-c", "mv jd jd_real; ln -s outside jd; curl -s \"$SUT_MOCK_SERVER_URL/ok\" >/dev/null",
            ], cwd: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let outside = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("outside").path)
        #expect(outside.isEmpty, "written outside: \(outside)")
        let pinned = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("jd_real").path)
        #expect(Set(pinned) == ["j.json", "r.json"])
        // Written where it was, and said: the path no longer leads there.
        #expect(result.stderr.contains("warning: --journal jd/j.json: jd no longer leads"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: --report jd/r.json: jd no longer leads"), "\(result.stderr)")
    }

    /// `serve`'s journal likewise: its directory swapped for a link while serving, the journal lands where it was.
    @Test func serveWritesItsJournalIntoTheDirectoryPinnedAtStart() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("jd"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.appendingPathComponent("outside"), withIntermediateDirectories: true)
        let result = try CLI.run(["serve", "-q", "--port", "0", "--journal", "jd/j.json", stubs], cwd: directory) { _, stdout in
            _ = CLI.eventually { ((try? String(contentsOf: stdout, encoding: .utf8)) ?? "").hasSuffix("\n") }
            let url = try String(contentsOf: stdout, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            try manager.moveItem(at: directory.appendingPathComponent("jd"), to: directory.appendingPathComponent("jd_real"))
            try manager.createSymbolicLink(atPath: directory.appendingPathComponent("jd").path, withDestinationPath: "outside")
            _ = try CLI.output(of: ["curl", "-s", "-X", "POST", "\(url)/__admin/shutdown"])
        }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try manager.contentsOfDirectory(atPath: directory.appendingPathComponent("outside").path).isEmpty)
        #expect(manager.fileExists(atPath: directory.appendingPathComponent("jd_real/j.json").path))
    }

    /// The directory removed during the run: one line naming it and exit 74, never a report written elsewhere.
    @Test func aDirectoryRemovedDuringTheRunIsNamedNotReplaced() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("rd"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("other"), withIntermediateDirectories: true)
        // rm -r: the run's placeholder stands in rd from the start.
        let result = try CLI.run(["-q", "--report", "rd/r.json", "sh", "-c", "rm -r rd; ln -s other rd"], cwd: directory)
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("rd was removed during the run"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("other").path).isEmpty)
    }

    /// `flag set` that does not parse gets an error reply naming the problem, not `ok` with nothing done.
    @Test func aMalformedBuiltInControlCommandIsRepliedToAsAnError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let port = try CLI.freePort()
        var replies: [String] = []
        _ = try CLI.run(["-q", "--port", String(port), "--stub", stubs, CLI.myApp, "listen"]) { process, _ in
            // The server listens a moment after start: a message sent before got no answer at all.
            _ = CLI.eventually(20) {
                (try? CLI.output(of: ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/ok"])) == "200"
            }
            for body in [#"flag set greeting:={"a":"#, "flag set greeting:=1e400", "flag set =x", "flag set greeting=ciao", "quit"] {
                replies.append(
                    try CLI.output(of: [
                        "curl", "-s", "-m", "20", "-H", "Content-Type: application/octet-stream", "--data-binary", body,
                        "http://127.0.0.1:\(port)/__sut/control?waitForAckMs=15000",
                    ]))
            }
            if !CLI.eventually(20, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        #expect(replies.count == 5)
        for reply in replies.prefix(3) { #expect(reply.hasPrefix("error: '"), "\(reply)") }
        #expect(replies.first?.contains("not a JSON value") == true, "\(replies)")
        #expect(replies.dropFirst(2).first?.contains("write flag set KEY=VALUE") == true, "\(replies)")
        #expect(replies.dropFirst(3).first == "ciao")
    }

    /// Each of the mock server's options without a mock server is a usage error naming it, as `--journal` is.
    @Test(arguments: [
        ["--strict"], ["--no-admin"], ["--journal-limit", "5"], ["--lenient-stubs"], ["--global-response-templating"],
        ["--journal-secrets"], ["--port", "0"], ["-p", "0"], ["--host", "::1"],
    ])
    func aMockServerOptionWithoutAMockServerIsRefused(option: [String]) throws {
        let result = try CLI.run(option + ["true"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("error: \(option[0]) needs a mock server: add --stub FILE"), "\(result.stderr)")
    }

    /// A run killed with SIGKILL leaves its trust directory; the next `--https` run removes it (its pid is dead), and
    /// leaves alone one of a live process and a link planted at such a name.
    @Test func trustDirectoriesOfKilledRunsAreSweptAtTheNextStart() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let temporary = directory.appendingPathComponent("tmp")
        let target = directory.appendingPathComponent("target")
        for made in [temporary, target, temporary.appendingPathComponent("sut-https-1-live")] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(
            atPath: temporary.appendingPathComponent("sut-https-999999999-link").path, withDestinationPath: target.path)
        _ = try CLI.write("keep", "keep.pem", in: target)
        var environment = CLI.localEnvironment
        environment["TMPDIR"] = temporary.path
        func trustDirectories() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []).filter {
                $0.hasPrefix("sut-https-") && $0 != "sut-https-1-live" && !$0.hasSuffix("-link")
            }
        }
        // Killed once its directory is whole (lock and both files): a directory caught between mkdtemp and its lock
        // has no lock to test and is kept for `unlockedGraceSeconds` (CI flake: killed in that window, not swept).
        func whole() -> Bool {
            guard let made = trustDirectories().first else { return false }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.appendingPathComponent(made).path)) ?? []
            return Set(names).isSuperset(of: [".sut-lock", "ca.pem", "bundle.pem"])
        }
        _ = try CLI.run(["-q", "--https", "--port", "0", "--stub", stubs, "sleep", "30"], environment: environment) { process, _ in
            _ = CLI.eventually(20, whole)
            kill(process.processIdentifier, SIGKILL)
        }
        #expect(whole(), "\(trustDirectories())")
        let left = trustDirectories()
        #expect(left.count == 1, "\(left)")
        // The attack's F5: directories at such names (dead pids) that hold what sut-launch never wrote are left as they
        // are: other files, a subdirectory, or the right names in a directory not made 0700.
        let foreign = ["sut-https-999999997-abcdef", "sut-https-999999998-abcdef", "sut-https-999999996-abcdef"]
        for name in foreign {
            try FileManager.default.createDirectory(
                at: temporary.appendingPathComponent(name + "/subdir"), withIntermediateDirectories: true)
        }
        _ = try CLI.write("mine", "important.txt", in: temporary.appendingPathComponent(foreign[0]))
        try FileManager.default.removeItem(at: temporary.appendingPathComponent(foreign[1] + "/subdir"))
        _ = try CLI.write("mine", "ca.pem", in: temporary.appendingPathComponent(foreign[1])) // our name, but mode 0755
        try FileManager.default.removeItem(at: temporary.appendingPathComponent(foreign[2] + "/subdir"))
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: temporary.appendingPathComponent(foreign[2]).path)
        _ = try CLI.write("mine", "ca.pem", in: temporary.appendingPathComponent(foreign[2]))
        _ = try CLI.write("mine", "notes.txt", in: temporary.appendingPathComponent(foreign[2]))
        let result = try CLI.run(["-q", "--https", "--port", "0", "--stub", stubs, "true"], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(trustDirectories().sorted() == foreign.sorted(), "\(trustDirectories())")
        #expect(FileManager.default.fileExists(atPath: temporary.appendingPathComponent(foreign[0] + "/important.txt").path))
        #expect(!result.stderr.contains(foreign[0]), "\(result.stderr)") // left silently
        #expect(FileManager.default.fileExists(atPath: temporary.appendingPathComponent("sut-https-1-live").path))
        #expect(FileManager.default.fileExists(atPath: target.appendingPathComponent("keep.pem").path))
    }

    /// Numbers keep their JSON type on the wire: a Double with no fraction stays a Double (`1.0`, `-0.0`).
    @Test func flagDoublesStayDoublesInArgumentsAndEnvironment() throws {
        let result = try CLI.run(["-q", "-f", "n=1.0", "-f", "z:=-0.0", "-f", "e:=1e2", "-f", "i=1", CLI.argvDump])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"EPHEMERAL_{\"e\":100.0,\"i\":1,\"n\":1.0,\"z\":-0.0}"#), "\(result.stdout)")
    }

    /// A flag value that is not UTF-8 is a usage error naming the flag and the byte, not a silent U+FFFD; also in a
    /// bundle of short options (`-fk=\xff`, `-qfk=\xff`), where it reached the program as U+FFFD.
    @Test func aFlagValueThatIsNotUTF8IsRefusedByName() throws {
        let output = try CLI.output(of: ["sh", "-c", "\"$0\" -q -f \"$(printf 'k=\\377')\" true 2>&1; echo \"rc=$?\"", CLI.sutLaunch])
        #expect(output.contains(#"error: -f 'k=\xff' is not UTF-8"#), "\(output)")
        #expect(output.hasSuffix("rc=2\n"), "\(output)")
        for bundle in ["-fk=", "-qfk="] {
            let script = "\"$0\" \"$(printf '%s\\377' '\(bundle)')\" \"$1\" 2>&1; echo \"rc=$?\""
            let bundled = try CLI.output(of: ["sh", "-c", script, CLI.sutLaunch, CLI.argvDump])
            #expect(bundled.contains(#"error: -f '\#(bundle)\xff' is not UTF-8"#), "\(bundled)")
            #expect(bundled.hasSuffix("rc=2\n") && !bundled.contains("EPHEMERAL"), "\(bundled)")
        }
    }

    /// A number is never changed in silence on its way to the program: one with more digits than a Double keeps
    /// (`1.0000000000000000001` would arrive as 1.0, `1e-400` as 0.0) is a usage error naming the flag, with `=` and
    /// `:=`, and in a flags file (exit 3, file:line); the same value written another way (`1e2`, `1.50`) is sent as
    /// its Double, as the manual says (`100.0`, `1.5`).
    @Test func aNumberADoubleCannotHoldIsRefusedNotRounded() throws {
        for flag in ["n=1.0000000000000000001", "n:=1.0000000000000000001", "n:=1e-400", "n:=[1, 0.30000000000000001]"] {
            let result = try CLI.run(["-q", "-f", flag, CLI.argvDump])
            #expect(result.status == 2, "\(flag): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("error: -f '") && result.stderr.contains("more digits than a double keeps"), "\(result.stderr)")
            #expect(!result.stdout.contains("EPHEMERAL"), "\(flag) launched: \(result.stdout)")
        }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write("{\"featureFlags\": {\n  \"n\": 1.0000000000000000001\n}}\n", "flags.json", in: directory)
        let fromFile = try CLI.run(["-q", "--flags-file", file, CLI.argvDump])
        #expect(fromFile.status == 3 && fromFile.stderr.contains("flags.json:2:"), "\(fromFile.stderr)")
        let same = try CLI.run(["-q", "-f", "a:=1e2", "-f", "b=1.50", "-f", "c:=1.50", CLI.argvDump])
        #expect(same.status == 0 && same.stdout.contains(#"EPHEMERAL_{\"a\":100.0,\"b\":1.5,\"c\":1.5}"#), "\(same.stdout)\(same.stderr)")
    }

    /// `-C FILE` says what is wrong with it.
    @Test func aWorkingDirectoryThatIsAFileIsNamedAsNotADirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(Self.stubs, "ok.json", in: directory)
        let result = try CLI.run(["-C", file, "true"])
        #expect(result.status == 125)
        #expect(result.stderr.contains("cannot use working directory \(file): not a directory"), "\(result.stderr)")
    }

    /// `serve --record-mappings` alone names what was typed and WireMock's option to add.
    @Test func serveRecordMappingsWithoutProxyAllNamesTheOptionsOfServe() throws {
        let result = try CLI.run(["serve", "--port", "0", "--record-mappings"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--record-mappings records what --proxy-all URL forwards: add --proxy-all URL"), "\(result.stderr)")
        #expect(!result.stderr.contains("--proxy-unmatched") && !result.stderr.contains("--record-missing"))
    }

    /// Past 20 unexpected requests the summary points to the journal only when one was written.
    @Test(arguments: [false, true])
    func theSummarySendsToTheJournalOnlyWhenOneIsWritten(journal: Bool) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let script = "for i in $(seq 23); do curl -s -o /dev/null \"$SUT_MOCK_SERVER_URL/n$i\"; done"
        let result = try CLI.run(
            ["--port", "0", "--stub", stubs] + (journal ? ["--journal", "j.json"] : []) + ["sh", "-c", script], cwd: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let expected =
            journal
            ? "3 more unexpected requests (see the journal j.json)" : "3 more unexpected requests (add --journal FILE to keep them all)"
        #expect(result.stdout.contains(expected) || result.stderr.contains(expected), "\(result.stdout)\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("(see the journal)"))
    }
}
