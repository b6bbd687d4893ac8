import Foundation
import Testing

/// The outside attack on the network surfaces, replayed with the built binary: a recording or proxy aimed at the
/// server's own address (F11), a loop through another proxy, `--into` that cannot be written (F1, F2), and a webhook
/// address the sender cannot read (F3). Each is refused before anything launches, or fails the run by name.
@Suite struct NetworkFindingsEndToEndTests {
    /// `record`, `serve --proxy-all` and a run's `--record-from` aimed at their own `--port`: exit 2 naming the option
    /// (it forwarded to itself 1,024 deep and recorded its own 503, exit 0). Nothing is created, nothing launched.
    @Test func aTargetThatIsTheServersOwnAddressIsRefusedByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = String(try CLI.freePort())
        let root = directory.appendingPathComponent("rec").path
        let marker = directory.appendingPathComponent("launched").path
        let cases: [([String], String)] = [
            (["record", "--port", port, "--target", "http://127.0.0.1:\(port)", "--into", root], "--target"),
            (["record", "-p", port, "--target", "http://localhost:\(port)/v1", "--into", root], "--target"),
            (["serve", "--port", port, "--proxy-all", "http://[::1]:\(port)", "--record-mappings", "--root-dir", root], "--proxy-all"),
            (["--port", port, "--record-from", "http://127.0.0.1:\(port)", "--into", root, "touch", marker], "--record-from"),
            (["--port", port, "--proxy-unmatched", "http://localhost:\(port)", "--stub", root, "touch", marker], "--proxy-unmatched"),
        ]
        for (arguments, option) in cases {
            let result = try CLI.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("error: \(option) "), "\(result.stderr)")
            #expect(result.stderr.contains("is the mock server's own address (--port \(port))"), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: root) && !FileManager.default.fileExists(atPath: marker))
        }
    }

    /// R9D-7: a backend port with a sign or leading zeros was read when short (`+8080` as 8080, `00080` as 80) and
    /// refused as "must be 1-65535" when longer (18911 is in range); other spellings of the own address (`127.1`, `0`,
    /// `2130706433`, `[::ffff:127.0.0.1]`) passed the start check. One number rule, and every spelling is refused.
    @Test func aBackendPortIsOneNumberAndEverySpellingOfTheOwnAddressIsRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("rec").path
        for (port, said) in [("+8080", "digits only"), ("00080", "leading zero"), ("018911", "leading zero"), ("-1", "digits only")] {
            let result = try CLI.run(["record", "--port", "0", "--target", "http://127.0.0.1:\(port)", "--into", root])
            #expect(result.status == 2 && result.stderr.contains(said), "\(port): \(result.stderr)")
        }
        let port = String(try CLI.freePort())
        for host in ["127.1", "0", "2130706433", "0x7f.0.0.1", "[::ffff:127.0.0.1]", "[::]"] {
            let result = try CLI.run(["record", "--port", port, "--target", "http://\(host):\(port)", "--into", root])
            #expect(result.status == 2, "\(host): \(result.stderr)")
            #expect(result.stderr.contains("is the mock server's own address (--port \(port))"), "\(host): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: root))
    }

    /// A loop through another proxy (a `serve --proxy-all` that forwards back to the recording run): the request comes
    /// back with the run's own `Via` token, is answered 508, and the run fails with nothing recorded (exit 4).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func aLoopThroughAnotherProxyFailsTheRecordingByName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let runPort = try CLI.freePort()
        let otherPort = try CLI.freePort()
        let root = directory.appendingPathComponent("rec").path
        var recorded: CLI.Result?
        _ = try CLI.run(["serve", "-q", "--port", String(otherPort), "--proxy-all", "http://127.0.0.1:\(runPort)"]) { process, _ in
            defer { kill(process.processIdentifier, SIGKILL) }
            _ = CLI.eventually(20) { CLI.loopbackSocket(otherPort).map { close($0) } != nil }
            recorded = try CLI.run([
                "--port", String(runPort), "--record-from", "http://127.0.0.1:\(otherPort)", "--into", root,
                "sh", "-c", #"curl -s -o /dev/null -w '%{http_code}' "$SUT_MOCK_SERVER_URL/loop""#,
            ])
        }
        let result = try #require(recorded)
        #expect(result.status == 4, "\(result.stderr)")
        #expect(result.stdout == "508")
        #expect(result.stderr.contains("loop detected: GET /loop came back to this server"), "\(result.stderr)")
        let mappings = (try? FileManager.default.contentsOfDirectory(atPath: root + "/mappings")) ?? []
        #expect(mappings.isEmpty, "\(mappings)")
    }

    /// `--into` empty (it wrote into the working directory), a file, or a link to nothing: exit 2 naming it, before the
    /// program launches or the backend is asked (it was exit 4 after both).
    @Test func anIntoThatCannotBeWrittenIsRefusedBeforeLaunch() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write("hi", "afile", in: directory)
        let dangling = directory.appendingPathComponent("dangling").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: directory.appendingPathComponent("nowhere").path)
        let marker = directory.appendingPathComponent("launched").path
        let backend = "http://127.0.0.1:\(try CLI.freePort())"
        for (into, said) in [("", "--into is empty"), (file, "is not a directory"), (dangling, "symbolic link to nothing")] {
            for arguments in [
                ["--port", "0", "--record-from", backend, "--into", into, "touch", marker],
                ["record", "--port", "0", "--target", backend, "--into", into],
            ] {
                let result = try CLI.run(arguments, cwd: directory)
                #expect(result.status == 2, "\(arguments): \(result.stderr)")
                #expect(result.stderr.contains("--into") && result.stderr.contains(said), "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: marker))
            }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(left == ["afile", "dangling"], "\(left)") // no mappings/ or __files/ in the working directory
    }

    /// A webhook to `127.000.000.001` passed the load check and failed at send time naming inet_pton: refused at load
    /// (exit 3, naming the file) as `127.1` is.
    @Test func aWebhookAddressWithLeadingZerosIsRefusedAtLoad() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(
            #"{"request":{"url":"/a"},"response":{"status":200},"postServeActions":[{"name":"webhook","parameters":{"method":"POST","url":"http://127.000.000.001:9/wh-a","body":"x"}}]}"#,
            "wh1.json", in: directory)
        let marker = directory.appendingPathComponent("launched").path
        let result = try CLI.run(["--port", "0", "--stub", stub, "touch", marker])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("wh1.json") && result.stderr.contains("leading zero"), "\(result.stderr)")
        #expect(!result.stderr.contains("inet_pton"))
        #expect(!FileManager.default.fileExists(atPath: marker))
    }

    /// A gzip body kept as sent (for a proxy to forward) counts in the journal's budget and its per-body bound: 12
    /// requests of 15 MiB (stored gzip blocks: decoded, the journal cut each body to 64 KiB, but kept the coded bytes
    /// whole, uncounted) once held 180 MiB in `serve`. The server's resident memory, read from /proc, now grows by far
    /// less than one such body per request, and every request is journaled.
    @Test(.enabled(if: CLI.hasCommand("curl") && CLI.hasCommand("python3"), "needs curl and python3"))
    func codedBodiesCountInTheJournalsBudget() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes": [{"method": "POST", "path": "/x", "body": "ok"}]}"#, "s.json", in: directory)
        let coded = directory.appendingPathComponent("body.gz").path
        _ = try CLI.output(of: [
            "python3", "-c", "import gzip, os, sys; open(sys.argv[1], 'wb').write(gzip.compress(os.urandom(15 * 2**20), compresslevel=0))",
            coded,
        ])
        func residentKiB(_ pid: Int32) -> Int {
            let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        }
        _ = try CLI.run(["serve", "-q", "--port", "0", stubs]) { process, out in
            defer { kill(process.processIdentifier, SIGKILL) }
            #expect(CLI.eventually { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let url = try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            let before = residentKiB(process.processIdentifier)
            for _ in 1...12 {
                let answer = try ServerTrustEndToEndTests.curl(["-H", "Content-Encoding: gzip", "--data-binary", "@\(coded)", "\(url)/x"])
                #expect(answer == "ok 200", "\(answer)")
            }
            let grown = (residentKiB(process.processIdentifier) - before) >> 10
            #expect(grown < 60, "serve grew by \(grown) MiB for 12 bodies the journal cuts to 64 KiB")
            let journal = try ServerTrustEndToEndTests.curl(["\(url)/__admin/requests"])
            #expect(journal.components(separatedBy: "\"method\":\"POST\"").count - 1 == 12, "\(journal.prefix(300))")
        }
    }
}
