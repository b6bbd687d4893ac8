import Foundation
import Testing

/// MyAppCLI's `listen` against control endpoints that misbehave (a server written here, in Python), and against
/// endpoints it cannot use: what the Host library does and says on stderr.
@Suite struct HostChannelEndToEndTests {
    /// A one-file endpoint: answers the first poll with the bytes of argv[1] (hex), every later one with 204, for
    /// 5 s; writes its port to `port` and each request line to `requests`.
    private static let server = #"""
        import socket, sys, time
        first = bytes.fromhex(sys.argv[1])
        s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8); s.settimeout(0.2)
        log = open('requests', 'w'); n = 0; end = time.time() + 5
        open('port.tmp', 'w').write(str(s.getsockname()[1])); __import__('os').rename('port.tmp', 'port')
        while time.time() < end:
            try: c, _ = s.accept()
            except socket.timeout: continue
            c.settimeout(2); d = b''
            try:
                while b'\r\n\r\n' not in d:
                    b = c.recv(4096)
                    if not b: break
                    d += b
            except Exception: pass
            log.write(d.split(b'\r\n')[0].decode() + '\n'); log.flush(); n += 1
            c.sendall(first if n == 1 else b'HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n'); c.close()
        """#

    /// MyAppCLI `listen` for 3 s against the server above answering `first`; its output and the requests it sent.
    /// `launch` are the words before MyAppCLI's own (`$P` the server's port).
    private static func listen(
        answeringFirst first: String, launch: String = #"SUT_UNDER_TEST=1 SUT_CONTROL_URL="http://127.0.0.1:$P/""#,
        arguments: String = "listen"
    ) throws -> (output: String, requests: String) {
        let directory = try CLI.temporaryDirectory()
        try server.write(to: directory.appendingPathComponent("server.py"), atomically: true, encoding: .utf8)
        let hex = Array(first.utf8).map { String(format: "%02x", $0) }.joined()
        let script = #"""
            python3 server.py "$1" & i=0
            while [ ! -f port ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            P=$(cat port)
            """# + "\n\(launch) timeout -s KILL 3 \"$0\" \(arguments) </dev/null 2>&1\nwait\n"
        let output = try CLI.output(of: HostLibraryRunEndToEndTests.unset + ["sh", "-c", script, CLI.myApp, hex], in: directory)
        let requests = (try? String(contentsOf: directory.appendingPathComponent("requests"), encoding: .utf8)) ?? ""
        return (output, requests)
    }

    /// R8C-1: a body cut short by the server closing (21 of 100 bytes) was delivered as a whole message, acted on
    /// (`greeting is now pwn`) and acknowledged; a chunked body was delivered as its framing. Both are refused now:
    /// one line naming why (control characters in the server's words escaped), nothing acted on, no acknowledgement.
    @Test func aMessageCutShortOrFramedUnreadablyIsNeitherActedOnNorAcknowledged() throws {
        let short = try Self.listen(
            answeringFirst: "HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: 100\r\n\r\nflag set greeting=pwn")
        #expect(short.output.contains("ControlChannel: refused an answer from the control channel at http://127.0.0.1:"), "\(short)")
        #expect(short.output.contains("its body is 21 bytes where Content-Length gives 100"), "\(short)")
        #expect(!short.output.contains("greeting is now"), "\(short)")
        #expect(!short.requests.contains("/ack"), "\(short)")
        #expect(short.requests.contains("GET /__sut/control?"), "\(short)")

        let chunked = try Self.listen(
            answeringFirst:
                "HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nTransfer-Encoding: \u{1B}]0;PWN\u{07}chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        #expect(chunked.output.contains(#"Transfer-Encoding: \u{1B}]0;PWN\u{7}chunked, which the channel does not read"#), "\(chunked)")
        #expect(!chunked.output.contains("\u{1B}"), "\(chunked)")
        #expect(!chunked.output.contains("control: "), "\(chunked)")
        #expect(!chunked.requests.contains("/ack"), "\(chunked)")
    }

    /// R9C-2: a program run by hand (no SUT_UNDER_TEST), or in the seed layout, opened the control channel from an
    /// exported SUT_CONTROL_URL or SUT_MOCK_SERVER_URL and applied `flag set greeting=pwn` from it (and acknowledged).
    /// The environment's endpoints count only with the launcher's SUT_UNDER_TEST=1: no request, one line.
    @Test func anEndpointLeftInTheEnvironmentIsNotReadWithoutTheLaunchersMark() throws {
        let message = "HTTP/1.1 200 OK\r\nX-Sut-Message-Id: 1\r\nContent-Length: 21\r\n\r\nflag set greeting=pwn"
        for (launch, arguments) in [
            (#"SUT_CONTROL_URL="http://127.0.0.1:$P/""#, "listen"), (#"SUT_MOCK_SERVER_URL="http://127.0.0.1:$P""#, "listen"),
            (#"SUT_CONTROL_URL="http://127.0.0.1:$P/""#, "UI_TEST_MODE listen"),
        ] {
            let run = try Self.listen(answeringFirst: message, launch: launch, arguments: arguments)
            #expect(!run.output.contains("greeting is now") && run.requests.isEmpty, "\(launch) \(arguments): \(run)")
            #expect(run.output.contains("ControlChannel: ignoring SUT_"), "\(launch) \(arguments): \(run)")
        }
        // The launcher's mark still opens it (the test above this one speaks to it the same way).
        let marked = try Self.listen(answeringFirst: message)
        #expect(marked.output.contains("greeting is now pwn"), "\(marked)")
    }

    /// R8C-4, R8C-10: `localhost` (a name: ::1 first on some machines, anything by /etc/hosts), ports `-1`, `+1`, `01`
    /// and `http://[::1:1/` (no URL at all) gave no channel, or a channel to a name, with no line; each is now one
    /// "cannot use" line and no channel. The line shows an ESC in the URL escaped.
    @Test func everyEndpointTheChannelCannotUseIsSaidOnce() throws {
        for url in ["http://localhost:1/", "http://127.0.0.1:-1/", "http://127.0.0.1:+1/", "http://127.0.0.1:01/", "http://[::1:1/"] {
            let output = try HostLibraryRunEndToEndTests.direct(["listen"], environment: ["SUT_UNDER_TEST=1", "SUT_CONTROL_URL=\(url)"])
            let lines = output.split(separator: "\n").filter { $0.hasPrefix("ControlChannel: cannot use ") }
            #expect(lines.count == 1 && output.contains("no control channel"), "\(url): \(output)")
        }
        let escape = try HostLibraryRunEndToEndTests.direct(
            ["listen"], environment: ["SUT_UNDER_TEST=1", "SUT_CONTROL_URL=https://\u{1B}]0;PWN\u{07}/"])
        #expect(escape.contains(#"ControlChannel: cannot use https://\u{1B}]0;PWN\u{7}/"#) && !escape.contains("\u{1B}"), "\(escape)")
    }

    /// R8C-10: the bridge's own problem lines printed a flag value's ESC/OSC bytes raw (a title set, the screen cleared).
    @Test func theBridgesProblemLinesEscapeControlCharacters() throws {
        let argument = try HostLibraryRunEndToEndTests.direct([
            "UI_TEST_MODE", "EPHEMERAL_{\"a\":\"\u{1B}]0;PWN\u{07}\u{1B}[2J\"}", "flags",
        ])
        #expect(argument.contains("AutomationBridge: ignoring launch argument EPHEMERAL_"), "\(argument)")
        #expect(!argument.contains("\u{1B}") && argument.contains(#"\u{1B}[2J"#), "\(argument)")
        let variable = try HostLibraryRunEndToEndTests.direct(
            ["flags"], environment: ["SUT_UNDER_TEST=1", "SUT_AUTOMATION={\"a\":1}\u{1B}[2J"])
        #expect(variable.contains("environment variable SUT_AUTOMATION") && !variable.contains("\u{1B}"), "\(variable)")
    }

    /// R8C-3: without SUT_UNDER_TEST, a launch in the seed layout (`UI_TEST_MODE …`) took flags from SUT_EPHEMERAL and
    /// SUT_AUTOMATION left in the environment (one kind from each source; `simulateUserAlreadyLoggedIn` logged in).
    /// The environment's flags count only when the launcher set SUT_UNDER_TEST=1.
    @Test func theSeedLayoutAloneTakesNoFlagsFromTheEnvironment() throws {
        let stale = ["SUT_EPHEMERAL={\"stale\":1}", "SUT_AUTOMATION={\"entryPoint\":\"stale\",\"simulateUserAlreadyLoggedIn\":true}"]
        let alone = try HostLibraryRunEndToEndTests.direct(["UI_TEST_MODE", "flags"], environment: stale)
        #expect(alone.contains("under test: yes") && alone.contains("feature flags: {}"), "\(alone)")
        #expect(!alone.contains("stale"), "\(alone)")
        let mixed = try HostLibraryRunEndToEndTests.direct(["UI_TEST_MODE", #"EPHEMERAL_{"b":2}"#, "flags"], environment: stale)
        #expect(mixed.contains(#"feature flags: {"b":2}"#) && !mixed.contains("stale"), "\(mixed)")
        let login = try HostLibraryRunEndToEndTests.direct(["UI_TEST_MODE", #"EPHEMERAL_{"b":2}"#, "login"], environment: stale)
        #expect(!login.contains("already logged in"), "\(login)")
    }

    /// R8C-2: a `-e`, `--env-file` or flags-file `SUT_CONTROL_URL` replaced the run's own (the program polled another
    /// endpoint, and no message sent to the run's server arrived), while SUT_EPHEMERAL and SUT_MOCK_SERVER_URL given so
    /// were the run's. The run's control URL wins as every SUT_* it sets does.
    @Test func theRunsControlURLWinsOverTheUsers() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stub = try CLI.write(#"{"routes":[]}"#, "st.json", in: directory)
        let envFile = try CLI.write("SUT_CONTROL_URL=http://127.0.0.1:8/\n", "c.env", in: directory)
        let flagsFile = try CLI.write(#"{"env":{"SUT_CONTROL_URL":"http://127.0.0.1:7/"}}"#, "cf.json", in: directory)
        for given in [["-e", "SUT_CONTROL_URL=http://127.0.0.1:9/"], ["--env-file", envFile], ["--flags-file", flagsFile]] {
            let result = try CLI.run(["-q", "--port", "0", "--stub", stub] + given + [CLI.argvDump])
            #expect(result.status == 0, "\(given): \(result.stderr)")
            let env = try Dump(result.stdout).env
            let server = try #require(env["SUT_MOCK_SERVER_URL"])
            #expect(env["SUT_CONTROL_URL"]?.hasPrefix("\(server)/__sut/control?channel=") == true, "\(given): \(env)")
        }
    }

    /// R8C-13: under `--flags-in env` the program's own `UI_TEST_MODE EPHEMERAL_{"a":1}`, equal to the block `both`
    /// would make, was dropped from `arguments`. The run says `SUT_FLAGS_IN=env`, and argv stays the program's.
    @Test func underFlagsInEnvTheProgramsOwnArgumentsStayEvenWhenTheyEqualTheBlock() throws {
        // MyAppCLI's command is its first argument: the program's own UI_TEST_MODE, kept (it ran `flags` without it).
        let own = try CLI.run(["-q", "--flags-in", "env", "-f", "a=1", CLI.myApp, "UI_TEST_MODE", #"EPHEMERAL_{"a":1}"#, "flags"])
        #expect(own.status == 64 && own.stdout.contains("unknown command UI_TEST_MODE"), "\(own.stdout)\(own.stderr)")
        let both = try CLI.run(["-q", "--flags-in", "both", "-f", "a=1", CLI.myApp, "flags"])
        #expect(both.stdout.contains("arguments: flags\n") && both.stdout.contains(#"feature flags: {"a":1}"#), "\(both.stdout)")
    }

    /// R9C-8: against an endpoint whose accept queue is full (an overloaded or stopped server: its SYNs are dropped),
    /// the library's blocking connect waited for the kernel's retries, ~133 s, with no line, and
    /// `receive(timeoutMs: 10_000)` did not return. The connection now has its own deadline (5 s): the "cannot reach"
    /// line comes well before the 25 s this run is given.
    @Test func anEndpointThatNeverAcceptsIsSaidWithinTheDeadline() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let blackhole = """
            import os, socket, time
            s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(0); port = s.getsockname()[1]
            held = []
            for _ in range(3):
                c = socket.socket(); c.setblocking(False)
                try: c.connect(('127.0.0.1', port))
                except BlockingIOError: pass
                held.append(c)
            open('port.tmp', 'w').write(str(port)); os.rename('port.tmp', 'port')
            time.sleep(40)
            """
        try blackhole.write(to: directory.appendingPathComponent("blackhole.py"), atomically: true, encoding: .utf8)
        let script = #"""
            python3 blackhole.py & B=$!; i=0
            while [ ! -f port ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i+1)); done
            SUT_UNDER_TEST=1 SUT_CONTROL_URL="http://127.0.0.1:$(cat port)/" timeout -s KILL 25 "$0" listen </dev/null 2>&1
            kill $B
            """#
        let output = try CLI.output(of: HostLibraryRunEndToEndTests.unset + ["sh", "-c", script, CLI.myApp], in: directory)
        #expect(output.contains("ControlChannel: cannot reach the control channel at http://127.0.0.1:"), "\(output)")
        #expect(output.contains("the connection was not accepted within 5 s"), "\(output)")
        let said = output.components(separatedBy: "ControlChannel: cannot reach").count - 1
        #expect(said == 1, "said once: \(output)")
    }
}
