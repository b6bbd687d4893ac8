import Foundation
import Testing

/// What a scenario's steps read and judge, against the built binary: a report named inside a directory a step reads
/// whole is refused before anything is written; a file step through a linked directory cannot tell, and says so; a
/// request whose answer could not be made satisfies no detail step.
@Suite struct StepTreesEndToEndTests {
    static func bash(_ script: String) throws -> (output: String, directory: URL) {
        try KilledRunOutputsEndToEndTests.bash(script)
    }

    /// Every output option inside `Given the files from "fix"` or `Given the stubs "st"` (a directory), even one not
    /// there yet: exit 2 naming the option and the step's file:line, before any placeholder (another
    /// output is not written) and with nothing made in the tree.
    @Test func anOutputInsideATreeAStepReadsIsRefusedBeforeAnyPlaceholder() throws {
        let (output, _) = try Self.bash(
            #"""
            mkdir fix st; echo data > fix/d.txt; echo '{"routes":[]}' > st/s.json
            printf 'Feature: X\n  Scenario: x\n    Given the files from "fix"\n    Given the stubs "st"\n    When I run "true"\n' > x.feature
            for out in "--junit fix/out.xml" "--report st/r.json" "--messages fix/m.ndjson" "--html fix/h.html" \
                "--write-rerun st/rr.txt" "--artifacts fix/art" "--artifacts st" "--coverage fix/cov"; do
              witness="--junit w.xml"; [ "${out%% *}" = --junit ] && witness="--report w.json"
              "$1" test $witness $out x.feature >/dev/null 2>err; echo "$out $?"
              grep -c -e "${out%% *} .*x.feature:[34]" err
              ls w.* 2>/dev/null
            done
            find fix st | sort | tr '\n' ' '
            """#)
        let options = [
            "--junit fix/out.xml", "--report st/r.json", "--messages fix/m.ndjson", "--html fix/h.html",
            "--write-rerun st/rr.txt", "--artifacts fix/art", "--artifacts st", "--coverage fix/cov",
        ]
        #expect(output == options.map { "\($0) 2\n1\n" }.joined() + "fix fix/d.txt st st/s.json ", "\(output)")
    }

    /// A report beside the tree (not inside it) is fine, and the message of a refusal says what to do.
    @Test func anOutputBesideTheTreeRuns() throws {
        let (output, _) = try Self.bash(
            #"""
            mkdir fix fixtures; echo data > fix/d.txt
            printf 'Feature: X\n  Scenario: x\n    Given the files from "fix"\n    When I run "true"\n' > x.feature
            "$1" test --junit fixtures/out.xml x.feature >/dev/null 2>&1; echo "beside $?"; [ -s fixtures/out.xml ] && echo written
            "$1" test --junit fix/out.xml x.feature 2>&1 >/dev/null | grep -c 'is inside the directory .*fix, named at x.feature:3, whose files the scenarios copy or load: .*write it elsewhere'
            """#)
        #expect(output == "beside 0\nwritten\n1\n", "\(output)")
    }

    /// `Then the file "lk/f" exists / does not exist / contains` with `lk` a link (to a directory, dangling, a loop):
    /// none passes, each says it cannot tell; a missing directory on the way is still "does not exist".
    @Test func aFileStepThroughALinkedDirectoryCannotTell() throws {
        let (output, directory) = try Self.bash(
            #"""
            cat > l.feature <<'EOF'
            Feature: L
              Scenario: exists through a link
                When I run "sh -c 'mkdir real && echo hi > real/f && ln -s real lk'"
                Then the file "lk/f" exists
              Scenario: absent through a link
                When I run "sh -c 'mkdir real && ln -s real lk'"
                Then the file "lk/g" does not exist
              Scenario: contains through a link
                When I run "sh -c 'mkdir real && echo hi > real/f && ln -s real lk'"
                Then the file "lk/f" contains "hi"
              Scenario: dangling
                When I run "ln -s nowhere dl"
                Then the file "dl/f" does not exist
              Scenario: loop
                When I run "ln -s loop loop"
                Then the file "loop/sub/f" does not exist
              Scenario: missing directory
                When I run "mkdir real"
                Then the file "missing/f" does not exist
                And the file "real/f" does not exist
            EOF
            "$1" test --report r.json l.feature >out 2>&1; echo "status $?"
            grep -c 'cannot tell whether' out
            grep -c 'is a symbolic link' out
            """#)
        #expect(output == "status 1\n4\n5\n", "\(output)")
        let report = KilledRunOutputsEndToEndTests.read("r.json", in: directory).replacingOccurrences(of: " ", with: "")
        #expect(report.contains(#""passed":1"#) && report.contains(#""failed":5"#), "\(report)")
    }

    /// A request the server could not answer (its template refused the request: 400) is no call: the detail steps
    /// (header, query, JSON body) do not pass on it, and say that one had it; the answered request passes them.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func anUnansweredRequestSatisfiesNoDetailStep() throws {
        let (output, directory) = try Self.bash(
            #"""
            echo '{"routes":[{"method":"POST","path":"/r","status":200,"template":true,"body":"{{randomValue length=request.query.n.[0]}}"}]}' > nat.json
            cat > u.feature <<'EOF'
            Feature: U
              Scenario: header
                Given the stubs "nat.json"
                And unexpected requests are allowed
                When I run "curl -s -o /dev/null -H 'A: b' -d '{\"k\":1}' ${SUT_MOCK_SERVER_URL}/r?n=nan"
                Then the server received a request to "POST /r" with header "A" "b"
              Scenario: query
                Given the stubs "nat.json"
                And unexpected requests are allowed
                When I run "curl -s -o /dev/null -H 'A: b' -d '{\"k\":1}' ${SUT_MOCK_SERVER_URL}/r?n=nan"
                Then the server received a request to "POST /r" with query "n" "nan"
              Scenario: body
                Given the stubs "nat.json"
                And unexpected requests are allowed
                When I run "curl -s -o /dev/null -H 'A: b' -d '{\"k\":1}' ${SUT_MOCK_SERVER_URL}/r?n=nan"
                Then the server received a request to "POST /r" with JSON body:
                  """
                  { "k": 1 }
                  """
              Scenario: answered
                Given the stubs "nat.json"
                And unexpected requests are allowed
                When I run "curl -s -o /dev/null -H 'A: b' -d '{\"k\":1}' ${SUT_MOCK_SERVER_URL}/r?n=3"
                Then the server received a request to "POST /r" with header "A" "b"
                And the server received a request to "POST /r" with query "n" "3"
                And the server received a request to "POST /r" with JSON body:
                  """
                  { "k": 1 }
                  """
            EOF
            "$1" test --report r.json u.feature >out 2>&1; echo "status $?"
            grep -c 'request answered (1 that had it could not be answered)' out
            """#)
        #expect(output == "status 1\n3\n", "\(output)")
        let report = KilledRunOutputsEndToEndTests.read("r.json", in: directory).replacingOccurrences(of: " ", with: "")
        #expect(report.contains(#""passed":1"#) && report.contains(#""failed":3"#), "\(report)")
    }
}
