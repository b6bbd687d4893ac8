import Foundation
import Testing

/// Re-attack r4c (C2, C3, C17, m6), replayed with the built binary: a flags file checks values as `-f`/`-a`/`-e` do,
/// `$$` in an env file is refused (compose and python-dotenv read it differently), `check` escapes a path's control
/// characters in its `ok:` line, and `report` counts one scenario in the singular.
@Suite struct OneRuleEndToEndTests {
    /// C2: an empty flag key, an `env` number or boolean, and `-0` are refused in a flags file as on the command line.
    @Test func aFlagsFileChecksValuesAsTheOptionsDo() throws {
        let output = try LaunchInputsEndToEndTests.bash(
            #"""
            printf '{"featureFlags":{"":1}}' > a.json; "$1" -q --flags-in env --flags-file a.json sh -c 'echo "E=$SUT_EPHEMERAL"'; echo "status $?"
            "$1" -q --flags-in env -f '=1' sh -c 'echo "E=$SUT_EPHEMERAL"'; echo "status $?"
            printf '{"automationFlags":{"":"x"}}' > b.json; "$1" -q --flags-file b.json true; echo "status $?"
            printf '{"env":{"V":5}}' > c.json; "$1" -q --flags-in env --flags-file c.json sh -c 'echo "V=$V"'; echo "status $?"
            printf '{"env":{"V":true}}' > d.json; "$1" -q --flags-in env --flags-file d.json sh -c 'echo "V=$V"'; echo "status $?"
            printf '{"featureFlags":{"a":-0}}' > e.json; "$1" -q --flags-file e.json true; echo "status $?"
            "$1" -q --flags-in env -f 'a:=-0' sh -c 'echo "E=$SUT_EPHEMERAL"'; echo "status $?"
            "$1" -q --flags-in env -f 'a=-0' sh -c 'echo "E=$SUT_EPHEMERAL"'; echo "status $?"
            "$1" -q --flags-in env -f 'a:="-0"' -f 'b:=-0.0' sh -c 'echo "E=$SUT_EPHEMERAL"'; echo "status $?"
            printf '{"env":{"V":"5"}}' > f.json; "$1" -q --flags-in env --flags-file f.json sh -c 'echo "V=$V"'; echo "status $?"
            """#)
        let statuses = output.split(separator: "\n").filter { $0.hasPrefix("status") }
        #expect(
            statuses == [
                "status 3", "status 2", "status 3", "status 3", "status 3", "status 3", "status 2", "status 2", "status 0", "status 0",
            ],
            "\(output)")
        #expect(!output.contains(#"{"":1}"#) && !output.contains("V=true"), "\(output)")
        #expect(output.components(separatedBy: "V=5\n").count == 2, "only the quoted 5 arrives: \(output)")
        #expect(output.contains(#"a.json:1:18: featureFlags: a flag's key is empty (as in -f '=1'); name the flag"#), "\(output)")
        #expect(output.contains("b.json:1:"), "\(output)")
        #expect(output.contains(#"c.json:1:13: env "V" must be a string, found a JSON number (write it in quotes, as -e gives it)"#))
        #expect(output.contains(#"env "V" must be a string, found a JSON boolean"#), "\(output)")
        // -0 as an integer is 0: refused in the three places with the same words (`a=-0` too: JSON reads it as a number,
        // r5c finding 5); as text (`a:="-0"`) or as -0.0 it arrives as written.
        let signLost = "the integer -0 is 0 and would lose its sign; write 0, or -0.0 for a negative zero"
        #expect(output.components(separatedBy: signLost).count == 4, "\(output)")
        #expect(output.contains(#"send it as text with a:='"-0"'"#), "\(output)")
        #expect(output.contains(#"E={"a":"-0","b":-0.0}"#), "\(output)")
        #expect(output.contains("V=5\n"), "\(output)")
    }

    /// A scenario's flag step applies `-f`'s number rule too: `1.0000000000000000001` fails the step, never sent as 1.0.
    @Test func aFlagStepRefusesANumberADoubleWouldRound() throws {
        let output = try LaunchInputsEndToEndTests.bash(
            #"""
            printf 'Feature: F\n  Scenario: s\n    Given the feature flag "k" is "1.0000000000000000001"\n    When I launch the program\n' > f.feature
            "$1" test -D PROGRAM=true f.feature; echo "status $?"
            """#)
        #expect(output.contains("the number 1.0000000000000000001 has more digits than a double keeps (it would read as 1.0)"), "\(output)")
        #expect(output.hasSuffix("status 1\n"), "\(output)")
    }

    /// C3: `$$` outside single quotes is refused at its line (docker compose reads one `$`, python-dotenv two);
    /// single quotes keep the dollars as written (`"\$\$"` in double quotes, which python-dotenv reads as backslashes
    /// and dollars, is refused since R10C-5).
    @Test func twoDollarsInAnEnvFileAreRefusedUnlessQuotedLiterally() throws {
        let output = try LaunchInputsEndToEndTests.bash(
            #"""
            printf 'V=%%s$$\n' > a.env; "$1" -q --env-file a.env sh -c 'echo "[$V]"'; echo "status $?"
            printf 'X=1\nV="a$$b"\n' > b.env; "$1" -q --env-file b.env sh -c 'echo "[$V]"'; echo "status $?"
            cat > c.env <<'X'
            V='a$$b'
            X
            "$1" -q --env-file c.env sh -c 'echo "[$V]"'; echo "status $?"
            cat > d.env <<'X'
            W="a\$\$b"
            X
            "$1" -q --env-file d.env sh -c 'echo "[$W]"'; echo "status $?"
            """#)
        #expect(output.contains("a.env:1: the value of V holds $$, which docker compose reads as one $"), "\(output)")
        #expect(output.contains("b.env:2: the value of V holds $$"), "\(output)")
        #expect(output.contains("[a$$b]") && output.contains("d.env:1: the double-quoted value of W holds \\$"), "\(output)")
        #expect(
            output.split(separator: "\n").filter { $0.hasPrefix("status") } == ["status 3", "status 3", "status 0", "status 3"], "\(output)"
        )
    }

    /// C17: a feature file whose name holds an OSC title and a clear-screen: `check`'s `ok:` line escapes them as
    /// its error lines and `test --list` do; no raw ESC or BEL reaches the terminal.
    @Test func checkEscapesControlCharactersInItsOkLine() throws {
        let output = try LaunchInputsEndToEndTests.bash(
            #"""
            n=$(printf 'e\033]0;PWN\007\033[2J.feature'); printf 'Feature: F\n  Scenario: s\n    When I run "true"\n' > "$n"
            printf '{"routes":[{"path":"/x","status":204}]}' > "$(printf 's\033[2J.json')"
            "$1" check . "$(printf 's\033[2J.json')"; echo "status $?"
            """#)
        #expect(output.contains(#"ok: ./e\u{1B}]0;PWN\u{7}\u{1B}[2J.feature: 1 scenario"#), "\(output)")
        #expect(output.contains(#"ok: s\u{1B}[2J.json: 1 route"#), "\(output)")
        #expect(!output.contains("\u{1B}") && !output.contains("\u{7}"), "\(output)")
        #expect(output.hasSuffix("status 0\n"), "\(output)")
    }

    /// `serve`'s request log names the mapping that answered; a line break or ESC in its `name` is escaped, so a
    /// mapping cannot forge a second log line or reach the terminal.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func serveEscapesAMappingsNameInItsRequestLog() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let mapping = #"{"name":"a\nGET /forged → 200 (b)\u001b[2J","request":{"url":"/x"},"response":{"status":204}}"#
        let stubs = try CLI.write(mapping, "m.json", in: directory)
        let result = try CLI.run(["serve", "--port", "0", stubs]) { process, out in
            defer { process.interrupt() }
            #expect(CLI.eventually { ((try? String(contentsOf: out, encoding: .utf8)) ?? "").hasSuffix("\n") })
            let url = try String(contentsOf: out, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try CLI.output(of: ["curl", "-s", "\(url)/x"])
            usleep(300_000) // the log line is written as the answer goes; give it a moment
        }
        #expect(result.stderr.contains(#"GET /x → 204 (a\nGET /forged → 200 (b)\u{1B}[2J)"#), "\(result.stderr)")
        #expect(!result.stderr.contains("\nGET /forged") && !result.stderr.contains("\u{1B}"), "\(result.stderr)")
    }

    /// m6: `report` of a run with one scenario says "1 scenario", not "1 scenarios".
    @Test func reportCountsOneScenarioInTheSingular() throws {
        let output = try LaunchInputsEndToEndTests.bash(
            #"""
            printf 'Feature: P\n  Scenario: p\n    When I run "true"\n' > p.feature
            "$1" test -q --messages m.ndjson p.feature >/dev/null; echo "status $?"
            "$1" report --json r.json m.ndjson; echo "status $?"
            """#)
        #expect(output.contains("report: 1 scenario from 1 file: 1 passed"), "\(output)")
        #expect(output.hasSuffix("status 0\n"), "\(output)")
    }
}
