import Foundation
import Testing

/// The runner's findings of attack r8b (part 2), each replayed against the built binary: a step file's step given a
/// table and a doc string (10), response numbers no Double holds (11), a body under 204/304 (3), JSON doc strings
/// checked at load and `${NAME}` as a JSON value (6), snapshot names that differ by case (7), a line break in a step
/// file's name in hook failures (8), program output under GitHub Actions without `--format github` (9).
@Suite struct RunnerR8bEndToEndTests {
    /// Both arguments under a step file's step: only the table reached its command, the doc string was dropped and the
    /// scenario passed. Both arrive, as one JSON object, in either order; one alone arrives as before.
    @Test func aStepFileStepGivenATableAndADocStringGetsBoth() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(#"[{ "step": "the log lacks:", "run": ["sh", "-c", "cat > stdin.txt"] }]"#, "my.steps.json", in: directory)
        let table = "      | TABLEMARK |\n"
        let doc = "      \"\"\"\n      DOCMARK\n      \"\"\"\n"
        let both = #"{"docString":"DOCMARK","dataTable":[["TABLEMARK"]]}"#
        for (name, arguments, expected) in [
            ("a", table + doc, both), ("b", doc + table, both), ("c", table, #"[["TABLEMARK"]]"#), ("d", doc, "DOCMARK"),
        ] {
            _ = try CLI.write(
                "Feature: B\n  Scenario: s\n    Then the log lacks:\n\(arguments)    Then the file \"stdin.txt\" is:\n"
                    + "      \"\"\"\n      \(expected)\n      \"\"\"\n", "\(name).feature", in: directory)
            let result = try CLI.run(["test", "\(name).feature"], cwd: directory)
            #expect(result.status == 0, "\(name): \(result.stdout)\(result.stderr)")
        }
    }

    /// `18446744073709551615` in `answers 200 with JSON:` and a stub's `jsonBody` was sent as `1.8446744073709552e+19`
    /// (WireMock sends it as written). A number no Double holds is sent as written; one a Double holds as before.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl")) func aResponseNumberNoDoubleHoldsIsSentAsWritten() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = #"{"big": 18446744073709551615, "id": 9007199254740993, "tiny": 1e-400, "x": 0.30000000000000001, "h": 1.50}"#
        let sent = #"{"big":18446744073709551615,"id":9007199254740993,"tiny":1e-400,"x":0.30000000000000001,"h":1.5}"#
        _ = try CLI.write(
            #"{"mappings":[{"request":{"method":"GET","url":"/w"},"response":{"status":200,"jsonBody":\#(body)}},"#
                + #"{"request":{"method":"GET","url":"/t"},"response":{"status":200,"transformers":["response-template"],"#
                + #""body":"{{{jsonMerge '{\"big\": 18446744073709551615}' '{\"n\": 1}'}}}"}}]}"#, "stubs.json", in: directory)
        _ = try CLI.write(
            """
            Feature: R
              Scenario: s
                Given the stubs "stubs.json"
                Given the route "GET /m" answers 200 with JSON:
                  \"\"\"
                  \(body)
                  \"\"\"
                When I run "sh -c 'curl -s ${SUT_MOCK_SERVER_URL}/m; echo; curl -s ${SUT_MOCK_SERVER_URL}/w; echo; curl -s ${SUT_MOCK_SERVER_URL}/t'"
                Then the output is:
                  \"\"\"
                  \(sent)
                  \(sent)
                  {"big":18446744073709551615,"n":1}
                  \"\"\"

            """, "r.feature", in: directory)
        let result = try CLI.run(["test", "r.feature"], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// A doc string under `answers 204` (`with:` or not) or `304` was accepted and never served. A load error naming its
    /// line, `check` and `test` alike; `answers 200 with:` still serves it.
    @Test func aDocStringUnderABodilessStatusIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: T
              Scenario: s
                Given the route "GET /a" answers 204 with:
                  \"\"\"
                  BODYX
                  \"\"\"
                Given the route "GET /b" answers 304
                  \"\"\"
                  BODYY
                  \"\"\"
                Given the route "GET /c" answers 200 with:
                  \"\"\"
                  fine
                  \"\"\"
                When I run "true"

            """, "r.feature", in: directory)
        for command in ["check", "test"] {
            let result = try CLI.run([command, "r.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(
                result.stderr.contains(
                    #"r.feature:4: a doc string under the step "Given the route "GET /a" answers 204 with:" (line 3), whose status 204 carries no body"#
                ),
                "\(result.stderr)")
            #expect(result.stderr.contains("r.feature:8: a doc string under the step"), "\(result.stderr)")
            #expect(!result.stderr.contains("r.feature:12"), "\(result.stderr)")
        }
    }

    /// An expected JSON body that is not JSON (a syntax error, a duplicate key, `1e400`) passed `check` and failed only
    /// when run; a bare `${V}` was never substituted. Both are load errors now (`with JSON:` routes too), and `${V}`
    /// standing as a value is its value read as JSON: a value that is no JSON value fails the step naming it.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl")) func jsonDocStringsAreCheckedAtLoadAndTakeAValueAsAValue() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, body) in [#"{"user": }"#, #"{"h": 1, "h": 2}"#, #"{"h": 1e400}"#, #"{"a": ${V}, }"#].enumerated() {
            for step in [
                #"Then the server received a request to "POST /h" with JSON body:"#, #"Given the route "GET /r" answers 200 with JSON:"#,
            ] {
                _ = try CLI.write(
                    "Feature: K\n  Scenario: s\n    Given the route \"POST /h\" answers 200\n    When I run \"true\"\n    \(step)\n"
                        + "      \"\"\"\n      \(body)\n      \"\"\"\n", "b\(index).feature", in: directory)
                let result = try CLI.run(["check", "-D", "V=5", "b\(index).feature"], cwd: directory)
                #expect(result.status == 3, "\(body) \(step): \(result.stdout)\(result.stderr)")
                #expect(result.stderr.contains("b\(index).feature:5: the doc string is not JSON: 1:"), "\(result.stderr)")
            }
        }
        _ = try CLI.write(
            """
            Feature: K
              Scenario: s
                Given the route "POST /h" answers 200
                Given a file "b.json" with:
                  \"\"\"
                  {"a": 5, "b": [1, 2]}
                  \"\"\"
                When I run "curl -s -o /dev/null -H content-type:application/json --data-binary @b.json ${SUT_MOCK_SERVER_URL}/h"
                Then the server received a request to "POST /h" with JSON body:
                  \"\"\"
                  {"a": ${V}, "b": ${W}}
                  \"\"\"

            """, "n.feature", in: directory)
        let checked = try CLI.run(["check", "-D", "V=5", "-D", "W=[1, 2]", "n.feature"], cwd: directory)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        let passed = try CLI.run(["test", "-D", "V=5", "-D", "W=[1, 2]", "n.feature"], cwd: directory)
        #expect(passed.status == 0, "\(passed.stdout)\(passed.stderr)")
        let differs = try CLI.run(["test", "-D", "V=6", "-D", "W=[1, 2]", "n.feature"], cwd: directory)
        #expect(differs.status == 1, "\(differs.stdout)\(differs.stderr)")
        let notJSON = try CLI.run(["test", "-D", "V=5, \"c\": 1", "-D", "W=[1, 2]", "n.feature"], cwd: directory)
        #expect(notJSON.status == 1, "\(notJSON.stdout)\(notJSON.stderr)")
        #expect(notJSON.stdout.contains("${V} stands as a JSON value in the doc string, but its value"), "\(notJSON.stdout)")
    }

    /// `Out` and `out` were two snapshots: one file on macOS's case-insensitive disk, where one scenario's update
    /// overwrote the other's. Refused at load as NFC/NFD twins are, across scenarios and within one.
    @Test func snapshotNamesThatDifferOnlyByCaseAreOneName() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: S
              Scenario: a
                When I run "echo one"
                Then the output matches the snapshot "Out"
              Scenario: b
                When I run "echo two"
                Then the output matches the snapshot "out"
              Scenario: c
                When I run "echo three"
                Then the output matches the snapshot "Twice"
                And the output matches the snapshot "TWICE"

            """, "c.feature", in: directory)
        for command in [["check"], ["test", "--update-snapshots"]] {
            let result = try CLI.run(command + ["c.feature"], cwd: directory)
            #expect(result.status == 3, "\(command): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains(#"c.feature:7: the snapshot "Out" (as "out", which differs only by case"#), "\(result.stderr)")
            #expect(
                result.stderr.contains(#"c.feature:11: the snapshot "Twice" (as "TWICE", which differs only by case"#), "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("__snapshots__").path))
    }

    /// A line break in a step file's name was printed raw in `Before hook (…) failed` and `AfterAll hook (…) failed`,
    /// forging console lines (`✓ H: forged`, a summary). It is escaped (`\n`), as ESC already was.
    @Test func aLineBreakInAStepFileNameIsEscapedInHookFailures() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            #"{ "steps": [], "hooks": [ { "hook": "AfterAll", "run": ["sh","-c","exit 2"] }, { "hook": "Before", "run": ["sh","-c","exit 3"] } ] }"#,
            "x\n✓ H: forged (1ms)\n1 scenario: 1 passed in 1ms\n.steps.json", in: directory)
        _ = try CLI.write("Feature: H\n  Scenario: p\n    When I run \"true\"\n", "h.feature", in: directory)
        let result = try CLI.run(["test", "."], cwd: directory)
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        for line in (result.stdout + result.stderr).split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            #expect(!trimmed.hasPrefix("✓ H: forged") && !trimmed.hasPrefix("1 scenario: 1 passed"), "forged line: \(line)")
        }
        #expect(
            result.stdout.contains(#"Before hook (./x\n✓ H: forged (1ms)\n1 scenario: 1 passed in 1ms\n.steps.json:1) failed"#),
            "\(result.stdout)")
        #expect(
            result.stderr.contains(#"AfterAll hook (./x\n✓ H: forged (1ms)\n1 scenario: 1 passed in 1ms\n.steps.json:1) failed"#),
            "\(result.stderr)")
    }

    /// With `GITHUB_ACTIONS=true` but no `--format github`, a failing program's indented output lines reached the
    /// runner as workflow commands (it trims leading spaces before `::`). The console is inside a stop-commands block
    /// with an unguessable token whenever `GITHUB_ACTIONS=true`; without it, nothing changes.
    @Test func programOutputUnderGitHubActionsIsInsideAStopCommandsBlock() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try CLI.write(
            """
            Feature: W
              Scenario: s
                When I run "sh -c 'echo ::error::INJECTED; echo ::add-mask::x >&2; exit 1'"
                Then the exit code is 0

            """, "w.feature", in: directory)
        let actions = try CLI.run(
            ["test", "w.feature"], environment: CLI.localEnvironment.merging(["GITHUB_ACTIONS": "true"]) { $1 }, cwd: directory)
        #expect(actions.status == 1, "\(actions.stdout)\(actions.stderr)")
        let lines = actions.stdout.split(separator: "\n").map { String($0.drop { $0 == " " }) }
        let open = lines.firstIndex { $0.hasPrefix("::stop-commands::") }
        let token = open.map { String(lines[$0].dropFirst("::stop-commands::".count)) } ?? ""
        let close = lines.firstIndex { $0 == "::\(token)::" }
        #expect(token.count == 32, "\(actions.stdout)")
        for (index, line) in lines.enumerated() where line.hasPrefix("::") && index != open && index != close {
            #expect(open.map { $0 < index } == true && close.map { index < $0 } == true, "outside the block: \(line)\n\(actions.stdout)")
        }
        #expect(lines.contains("::error::INJECTED") && lines.contains("::add-mask::x"), "\(actions.stdout)")
        #expect(!actions.stderr.contains("::"), "\(actions.stderr)")
        let plain = try CLI.run(["test", "w.feature"], cwd: directory)
        #expect(plain.status == 1 && !plain.stdout.contains("::stop-commands::"), "\(plain.stdout)")
    }
}
