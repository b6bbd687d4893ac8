import Foundation
import Testing

/// Attack r6a findings 4, 7, 9, 11, 12 and 13, replayed with the built sut-launch and MyAppCLI (which links the Host
/// library): marshalled entries only at their wire positions, a deep flag refused by the CLI rather than emptying the
/// kind in the program, the control channel under `--https`, `--host ::1` and a `--host` of this machine's own
/// address, a channel that cannot be reached said on stderr, and near misses of the built-in commands refused.
@Suite struct HostLibraryRunEndToEndTests {
    static let unset = ["env", "-u", "SUT_UNDER_TEST", "-u", "SUT_EPHEMERAL", "-u", "SUT_AUTOMATION", "-u", "SUT_CONTROL_URL"]

    /// MyAppCLI run directly by a user (no SUT_* variables), stdin empty; stdout and stderr together.
    static func direct(_ arguments: [String], environment: [String] = []) throws -> String {
        try CLI.output(of: unset + environment + ["sh", "-c", #"exec "$0" "$@" </dev/null 2>&1"#, CLI.myApp] + arguments)
    }

    /// r6a-4: outside a run, `AUTOMATION_…` anywhere in argv logged in as admin without a prompt.
    @Test func outsideARunNoArgumentBecomesFlagsOrTestMode() throws {
        let login = try Self.direct(["login", #"AUTOMATION_{"simulateUserAlreadyLoggedIn":true,"userName":"admin"}"#])
        #expect(login.contains("under test: no") && login.contains("login cancelled"), "\(login)")
        #expect(!login.contains("already logged in"), "\(login)")
        let flags = try Self.direct(["flags", "x", "y", #"EPHEMERAL_{"a":2}"#])
        #expect(flags.contains("feature flags: {}") && flags.contains(#"arguments: flags x y EPHEMERAL_{"a":2}"#), "\(flags)")
        let file = try Self.direct(["flags", "EPHEMERAL_notes.txt"])
        #expect(!file.contains("AutomationBridge") && file.contains("arguments: flags EPHEMERAL_notes.txt"), "\(file)")
        let mode = try Self.direct(["flags", "UI_TEST_MODE"])
        #expect(mode.contains("under test: no") && mode.contains("arguments: flags UI_TEST_MODE"), "\(mode)")
        // Under sut-launch with no flags (--flags-in env), the program's own argv[1] block is data as well, its
        // UI_TEST_MODE included (it was dropped, and AUTOMATION_… read as the command).
        let run = try CLI.run(["-q", CLI.myApp, "UI_TEST_MODE", #"AUTOMATION_{"simulateUserAlreadyLoggedIn":true}"#, "login"])
        #expect(run.stdout.contains("unknown command UI_TEST_MODE") && !run.stdout.contains("already logged in"), "\(run.stdout)")
        // By hand, argv[1] UI_TEST_MODE alone is the seed toolkit's marker (test mode, no flags); under sut-launch with
        // no flags, a lone UI_TEST_MODE of the program's own stays its argument.
        let lone = try Self.direct(["UI_TEST_MODE"])
        #expect(lone.contains("under test: yes") && !lone.contains("unknown command UI_TEST_MODE"), "\(lone)")
        let loneRun = try CLI.run(["-q", CLI.myApp, "UI_TEST_MODE"])
        #expect(loneRun.stdout.contains("under test: yes") && loneRun.stdout.contains("unknown command UI_TEST_MODE"), "\(loneRun.stdout)")
        // sut-launch's own lone marker (--flags-in both with no flags) is still the wire's and left out.
        let both = try CLI.run(["-q", "--flags-in", "both", CLI.myApp, "flags", "x"])
        #expect(both.stdout.contains("under test: yes") && both.stdout.contains("arguments: flags x\n"), "\(both.stdout)")
        // The wire block itself still works: sut-launch's own flags reach the program.
        let flagged = try CLI.run(["-q", "-a", "simulateUserAlreadyLoggedIn=true", "-a", "userName=ada", CLI.myApp, "login"])
        #expect(flagged.stdout.contains("already logged in as ada"), "\(flagged.stdout)")
    }

    /// r6a-7: `-f k:=` nested 128 deep was accepted, and the program got `{}` (every flag lost) with exit 0.
    @Test func aFlagTheCLIAcceptsReachesTheProgramAndOneTooDeepIsRefused() throws {
        func nested(_ depth: Int) -> String { String(repeating: "[", count: depth) + String(repeating: "]", count: depth) }
        let deep = try CLI.run(["-q", "-f", "a=1", "-f", "k:=\(nested(128))", CLI.myApp, "flags"])
        #expect(deep.status == 2, "\(deep.stderr)")
        #expect(deep.stderr.contains("nesting deeper than 127 levels"), "\(deep.stderr)")
        #expect(!deep.stdout.contains("feature flags"), "the program must not run: \(deep.stdout)")
        for channel in ["args", "env"] {
            let edge = try CLI.run(["-q", "--flags-in", channel, "-f", "a=1", "-f", "k:=\(nested(127))", CLI.myApp, "flags"])
            #expect(edge.status == 0, "\(channel): \(edge.stderr)")
            #expect(!edge.stderr.contains("AutomationBridge"), "\(channel): \(edge.stderr)")
            #expect(edge.stdout.contains(#"feature flags: {"a":1,"k":[[["#), "\(channel): \(edge.stdout.prefix(200))")
        }
    }

    /// R10C-4: a value 127 deep with a scalar in its innermost array or object was accepted by the CLI, and the Host
    /// library (which counted the scalar as a level) dropped the whole kind: `a=1` lost, `-a` state not set.
    @Test func aFlagWithAScalarAtTheDeepestLevelTheCLIAcceptsReachesTheProgram() throws {
        let arrays = String(repeating: "[", count: 127) + "1" + String(repeating: "]", count: 127)
        let objects = String(repeating: #"{"a":"#, count: 127) + "1" + String(repeating: "}", count: 127)
        for (value, start) in [(arrays, #""k":[[[["#), (objects, #""k":{"a":{"a":"#)] {
            for channel in ["args", "env", "both"] {
                let run = try CLI.run(["-q", "--flags-in", channel, "-f", "a=1", "-f", "k:=\(value)", CLI.myApp, "flags"])
                #expect(run.status == 0 && !run.stderr.contains("AutomationBridge"), "\(channel): \(run.stderr)")
                #expect(run.stdout.contains(#"feature flags: {"a":1,"# + start), "\(channel): \(run.stdout.prefix(200))")
            }
        }
        let login = try CLI.run(["-q", "-a", "k:=\(objects)", "-a", "simulateUserAlreadyLoggedIn=true", CLI.myApp, "login"])
        #expect(login.status == 0 && login.stdout.contains("already logged in"), "\(login.stdout) \(login.stderr)")
        let deeper = "[" + arrays + "]"
        let refused = try CLI.run(["-q", "-f", "k:=\(deeper)", CLI.myApp, "flags"])
        #expect(refused.status == 2 && refused.stderr.contains("nesting deeper than 127 levels"), "\(refused.stderr)")
        // A flags file's value (two levels below the file's top) at its 126, a scalar inside, arrives as well.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inFile = String(repeating: "[", count: 126) + "1" + String(repeating: "]", count: 126)
        let file = try CLI.write(#"{"featureFlags": {"a": 1, "k": "# + inFile + "}}", "flags.json", in: directory)
        let fromFile = try CLI.run(["-q", "--flags-in", "args", "--flags-file", file, CLI.myApp, "flags"])
        #expect(fromFile.status == 0 && !fromFile.stderr.contains("AutomationBridge"), "\(fromFile.stderr)")
        #expect(fromFile.stdout.contains(#"feature flags: {"a":1,"k":[[["#), "\(fromFile.stdout.prefix(200))")
    }

    /// Sends `bodies` in order to MyAppCLI `listen` run with `options`, through `url` (the run's server as the test
    /// reaches it, `PORT` replaced); returns the replies and the run's stderr.
    static func replies(to bodies: [String], options: [String], url: String) throws -> (replies: [String], stderr: String) {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(HostControlCommandEndToEndTests.stubs, "ok.json", in: directory)
        let port = try CLI.freePort()
        let base = url.replacingOccurrences(of: "PORT", with: String(port))
        var replies: [String] = []
        let run = try CLI.run(options + ["--port", String(port), "--stub", stubs, CLI.myApp, "listen"]) { process, _ in
            _ = CLI.eventually(20) {
                (try? CLI.output(of: ["curl", "-gks", "-o", "/dev/null", "-w", "%{http_code}", "\(base)/ok"])) == "200"
            }
            for body in bodies {
                replies.append(
                    try CLI.output(of: [
                        "curl", "-gks", "-m", "20", "-H", "Content-Type: application/octet-stream", "--data-binary", body,
                        "\(base)/__sut/control?waitForAckMs=15000",
                    ]))
            }
            if !CLI.eventually(20, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        return (replies, run.stderr)
    }

    /// r6a-12: under `--https` the Host library sent plain HTTP to the https:// URL: nothing delivered, every poll unexpected.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theControlChannelWorksUnderHTTPS() throws {
        let (replies, stderr) = try Self.replies(to: ["hs", "quit"], options: ["--https"], url: "https://127.0.0.1:PORT")
        #expect(replies == ["ok", "ok"], "\(replies) \(stderr)")
        #expect(!stderr.contains("unexpected: GET /__sut/control"), "\(stderr)")
        #expect(!stderr.contains("ControlChannel:"), "\(stderr)")
    }

    /// r6a-11: `--host ::1`: the control channel never connected.
    @Test(.enabled(if: CLI.hasCommand("curl") && Self.hasIPv6Loopback(), "needs curl and ::1"))
    func theControlChannelWorksOnIPv6Loopback() throws {
        let (replies, stderr) = try Self.replies(to: ["hi6", "quit"], options: ["--host", "::1"], url: "http://[::1]:PORT")
        #expect(replies == ["ok", "ok"], "\(replies) \(stderr)")
    }

    /// r6a-9: a `--host` naming this machine's own non-loopback address refused the program under test itself.
    @Test(.enabled(if: CLI.hasCommand("curl") && Self.ownAddress() != nil, "needs curl and a non-loopback IPv4 address"))
    func theControlChannelAnswersThisMachineOnItsOwnAddress() throws {
        let address = try #require(Self.ownAddress())
        let (replies, stderr) = try Self.replies(to: ["mine", "quit"], options: ["--host", address], url: "http://\(address):PORT")
        #expect(replies == ["ok", "ok"], "\(replies) \(stderr)")
        #expect(!stderr.contains("refused 403"), "\(stderr)")
        let https = try Self.replies(to: ["mine", "quit"], options: ["--https", "--host", address], url: "https://\(address):PORT")
        #expect(https.replies == ["ok", "ok"], "\(https)")
    }

    /// r6a-13: near misses of the built-ins were answered `ok`; `flag set greeting:=5` read back the lower layer's value.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func nearMissesAreRefusedAndARuntimeValueIsNotHiddenByALowerLayer() throws {
        let bodies = ["entrypoint search", "FLAG SET greeting=z", "flagset greeting=z", "flag", "flag SET greeting=z"]
        let (replies, stderr) = try Self.replies(
            to: bodies + ["flag set greeting:=5", "flag clear greeting", "entryPoint search", "quit"], options: ["-f", "greeting=hi"],
            url: "http://127.0.0.1:PORT")
        try #require(replies.count == bodies.count + 4, "\(replies) \(stderr)")
        for (body, reply) in zip(bodies, replies) { #expect(reply.hasPrefix("error: '\(body)'"), "\(body): \(reply)") }
        #expect(replies[5] == "hello", "the runtime 5 is not a string: the default, not the launch's hi: \(replies[5])")
        #expect(replies[6] == "hi", "\(replies[6])")
        #expect(replies[7] == "on search", "\(replies[7])")
    }

    /// A library that cannot reach its channel says so once on stderr (it failed in silence); an https:// endpoint
    /// it cannot speak to is named at once.
    @Test func anUnreachableChannelIsSaidOnceOnStderr() throws {
        // Held closed for the whole test: a free port could go to another test's server, whose messages this
        // listener would then take (SUTApplicationTests waited 300 s for a message stolen so).
        let (port, holder) = try CLI.closedPort()
        defer { close(holder) }
        let closed = try CLI.output(
            of: Self.unset + [
                "SUT_UNDER_TEST=1", "SUT_CONTROL_URL=http://127.0.0.1:\(port)", "timeout", "-s", "KILL", "3", "sh", "-c",
                #"exec "$0" listen 2>&1"#, CLI.myApp,
            ])
        let lines = closed.split(separator: "\n").filter { $0.hasPrefix("ControlChannel: cannot reach the control channel") }
        #expect(lines.count == 1, "\(closed)")
        let https = try Self.direct(["listen"], environment: ["SUT_UNDER_TEST=1", "SUT_CONTROL_URL=https://127.0.0.1:\(port)"])
        #expect(https.contains("ControlChannel: cannot use https://127.0.0.1:\(port)"), "\(https)")
        #expect(https.contains("no control channel"), "\(https)")
    }

    /// A program left running by an earlier run keeps polling its old port: when a later run's server is given that
    /// port, the leftover names its old channel and takes none of the new run's messages (the suite's own flake: a
    /// leftover took another test's "refresh", and that test waited 300 s). The run's program gets "quit" and ends.
    @Test func aLeftoverProgramOnAReusedPortTakesNoneOfTheRunsMessages() throws {
        let directory = try CLI.temporaryDirectory()
        let stub = try CLI.write(#"{"routes":[]}"#, "empty.json", in: directory)
        let script = #"""
            case "$SUT_CONTROL_URL" in "$SUT_MOCK_SERVER_URL/__sut/control?channel="*) ;; *) echo "bad url $SUT_CONTROL_URL"; exit 9 ;; esac
            SUT_CONTROL_URL="${SUT_CONTROL_URL%channel=*}channel=0123456789abcdef0123456789abcdef" \
                timeout -s KILL 6 "$0" listen > leftover.txt 2>&1 &
            sleep 1
            curl -s -o /dev/null -H 'Content-Type: application/octet-stream' --data-binary quit "$SUT_MOCK_SERVER_URL/__sut/control"
            exec "$0" listen
            """#
        let run = try CLI.run(["-q", "--timeout", "30", "--stub", stub, "sh", "-c", script, CLI.myApp], cwd: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("control: quit"), "\(run.stdout)")
        let leftover = try String(contentsOf: directory.appendingPathComponent("leftover.txt"), encoding: .utf8)
        #expect(leftover.contains("ControlChannel: cannot reach the control channel") && leftover.contains("410"), "\(leftover)")
        #expect(!leftover.contains("control: quit"), "\(leftover)")
    }

    static func hasIPv6Loopback() -> Bool {
        (try? CLI.output(of: ["python3", "-c", "import socket; s=socket.socket(socket.AF_INET6); s.bind(('::1',0)); print('ok')"]))
            == "ok\n"
    }

    /// This machine's first non-loopback IPv4 address (`hostname -I`), if it has one.
    static func ownAddress() -> String? {
        guard CLI.hasCommand("hostname"), let text = try? CLI.output(of: ["hostname", "-I"]) else { return nil }
        return text.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.first {
            $0.split(separator: ".").count == 4 && !$0.hasPrefix("127.")
        }
    }
}
