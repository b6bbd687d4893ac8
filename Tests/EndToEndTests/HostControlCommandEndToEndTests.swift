import Foundation
import Testing

/// R4a-9 with the built binary and the Host library inside MyAppCLI: `flag set KEY:=JSON` reads the value as one JSON
/// value with the CLI's rules (it was pasted into `{"v":…}`, so `"real","v":1` set "real"), a key is one word, and a
/// launch argument with duplicate keys or bytes that are not UTF-8 is reported, as sut-launch would refuse it.
@Suite struct HostControlCommandEndToEndTests {
    static let stubs = #"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#

    /// Sends each of `bodies` to MyAppCLI `listen` under a run's mock server, in order, and returns its replies.
    static func replies(to bodies: [String]) throws -> [String] {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.stubs, "ok.json", in: directory)
        let port = try CLI.freePort()
        var replies: [String] = []
        _ = try CLI.run(["-q", "--port", String(port), "--stub", stubs, CLI.myApp, "listen"]) { process, _ in
            _ = CLI.eventually(20) {
                (try? CLI.output(of: ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/ok"])) == "200"
            }
            for body in bodies {
                replies.append(
                    try CLI.output(of: [
                        "curl", "-s", "-m", "20", "-H", "Content-Type: application/octet-stream", "--data-binary", body,
                        "http://127.0.0.1:\(port)/__sut/control?waitForAckMs=15000",
                    ]))
            }
            if !CLI.eventually(20, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        }
        return replies
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func builtInCommandsReadOneJSONValueWithTheCLIsRules() throws {
        let bodies = [
            #"flag set greeting:="real","v":1"#, #"flag set greeting:=1,"w":2"#, #"flag set greeting:={"a":1,"a":2}"#,
            "flag set greeting:=9223372036854775808", #"flag set greeting:="\ud800""#, "flag clear greeting extra",
            "flag set greeting =x", "flag set greeting:=\"ciao\"", "quit",
        ]
        let replies = try Self.replies(to: bodies)
        try #require(replies.count == bodies.count)
        for reply in replies.prefix(7) { #expect(reply.hasPrefix("error: '"), "\(reply)") }
        #expect(replies[0].contains("unexpected text after the value"), "\(replies[0])")
        #expect(replies[2].contains("duplicate key \"a\""), "\(replies[2])")
        #expect(replies[3].contains("does not fit in 64 bits"), "\(replies[3])")
        #expect(replies[4].contains("lone surrogate"), "\(replies[4])")
        #expect(replies[5].contains("flag clear KEY (one word"), "\(replies[5])")
        #expect(replies[6].contains("a KEY is one word"), "\(replies[6])")
        #expect(replies[7] == "ciao", "\(replies[7])")
        for reply in replies { #expect(!reply.contains("{\"v\":") && !reply.contains("DecodingError"), "\(reply)") }
    }

    /// R9C-5: a ZERO WIDTH SPACE, WORD JOINER, SOFT HYPHEN or LRM before or inside the command word was acknowledged
    /// `ok` with nothing done (the greeting unchanged); each is refused by name now, the invisible character shown
    /// (`\u{200B}`), and a control character of the message is shown escaped in the reply, never raw.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aCommandWithAnInvisibleCharacterIsRefusedByName() throws {
        let bodies = [
            "\u{200B}flag set greeting=zwsp", "\u{2060}flag set greeting=wj", "\u{AD}flag set greeting=shy",
            "flag\u{200B} set greeting=zw2", "\u{200E}flag set greeting=lrm", "\u{200B}entryPoint search",
            "flag set gree\u{200B}ting=x", "entryPoint a b\u{1B}[2J", "flag set greeting:=\"ciao\"", "quit",
        ]
        let replies = try Self.replies(to: bodies)
        try #require(replies.count == bodies.count)
        for reply in replies.prefix(8) { #expect(reply.hasPrefix("error: '") && !reply.contains("\u{1B}"), "\(reply)") }
        #expect(replies[0].contains(#"\u{200B}flag set"#) && replies[0].contains("invisible character"), "\(replies[0])")
        #expect(replies[6].contains("no invisible characters"), "\(replies[6])")
        #expect(replies[7].contains(#"\u{1B}[2J"#), "\(replies[7])")
        #expect(replies[8] == "ciao", "\(replies[8])")
    }

    /// C13: the numbers `-f` refuses are refused by `flag set` with the same words (one implementation,
    /// `DecimalLiteral`), and `entryPoint  a` (two spaces) is refused as `flag set  k=1` is.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func flagSetRefusesTheNumbersTheCLIRefusesWithItsWords() throws {
        let values = [":=1e-400", ":=-1e-400", ":=1.0000000000000000001", "=1.0000000000000000001", ":=-0", ":=[1,-0]"]
        let bodies = values.map { "flag set greeting\($0)" } + ["entryPoint  a", "entryPoint a ", "flag set greeting:=-0.0", "quit"]
        let replies = try Self.replies(to: bodies)
        try #require(replies.count == bodies.count)
        for (value, reply) in zip(values, replies) {
            #expect(reply.hasPrefix("error: '"), "\(value): \(reply)")
            // The CLI refuses the same value, and the reason it gives is the one the Host library gave.
            let cli = try CLI.run(["-q", "-f", "greeting\(value)", "true"])
            #expect(cli.status == 2, "\(value): \(cli.stderr)")
            let reason = ["has more digits than a double keeps (", "would lose its sign; write 0, or -0.0"].first { reply.contains($0) }
            #expect(reason != nil && cli.stderr.contains(reason!), "\(value): \(reply) / \(cli.stderr)")
        }
        #expect(replies[0].contains("the number 1e-400 has more digits than a double keeps (it would read as 0.0)"), "\(replies[0])")
        #expect(replies[1].contains("(it would read as -0.0)"), "\(replies[1])")
        #expect(replies[3].contains("(it would read as 1.0); send it as text with greeting:='"), "\(replies[3])")
        #expect(replies[6].contains("write entryPoint NAME (one word, one space before it)"), "\(replies[6])")
        #expect(replies[7].hasPrefix("error: 'entryPoint a '"), "\(replies[7])")
        #expect(!replies[8].hasPrefix("error:"), "-0.0 is a negative zero, kept: \(replies[8])")
    }

    @Test func launchArgumentsWithDuplicateKeysOrBytesThatAreNotUTF8AreReported() throws {
        // The seed toolkit's layout from another launcher (no SUT_* set): under sut-launch the program's own argv[1]
        // block is data (r6a-4), so the run's variables are taken away first.
        let unset = ["env", "-u", "SUT_UNDER_TEST", "-u", "SUT_EPHEMERAL", "-u", "SUT_AUTOMATION"]
        let duplicate = try CLI.run(["-q"] + unset + [CLI.myApp, "UI_TEST_MODE", #"EPHEMERAL_{"greeting":"a","greeting":"b"}"#, "greet"])
        #expect(
            duplicate.stderr.contains(
                "AutomationBridge: ignoring launch argument EPHEMERAL_ is not valid JSON (duplicate key \"greeting\""),
            "\(duplicate.stderr)")
        #expect(!duplicate.stdout.contains("a, world") && !duplicate.stdout.contains("b, world"), "\(duplicate.stdout)")
        let bytes = try CLI.run(
            [
                "-q"
            ] + unset + [
                "sh", "-c", #"exec "$0" UI_TEST_MODE "$(printf 'EPHEMERAL_{"greeting":"\377"}')" greet"#, CLI.myApp,
            ])
        #expect(bytes.stderr.contains("AutomationBridge: ignoring launch argument EPHEMERAL_ is not UTF-8"), "\(bytes.stderr)")
        #expect(!bytes.stdout.contains("\u{FFFD}"), "\(bytes.stdout)")
    }
}
