import Foundation
import Testing

/// What a run that dies or half-fails leaves at its outputs, replayed from the re-attack's findings against the built
/// binary (C11, m4 and the lifecycle leftovers): a SIGKILLed run leaves placeholders, never the previous run's green
/// reports; an artefact that cannot be written is exit 74; `--artifacts` holds this run's directories only; an
/// unwritable step summary ends the run before it starts.
@Suite struct KilledRunOutputsEndToEndTests {
    /// Runs `script` with bash (`$1` is sut-launch, `$2` a fresh directory, also the working directory).
    static func bash(_ script: String) throws -> (output: String, directory: URL) {
        let directory = try CLI.temporaryDirectory()
        let output = try CLI.output(of: ["bash", "-c", script, "bash", CLI.sutLaunch, directory.path], in: directory)
        return (output, directory)
    }

    static func read(_ name: String, in directory: URL) -> String {
        (try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? ""
    }

    /// Waits (at most 20 s) until FILE holds the placeholder, then SIGKILLs the run in $P. The placeholders are written
    /// one after another (JUnit, JSON, Messages, HTML, rerun file; the launcher's report, then its journal): FILE is the last.
    static let killOncePlaceholder = #"""
        killonce() { for _ in $(seq 200); do grep -q 'did not finish' "$1" 2>/dev/null && break; sleep 0.1; done; kill -KILL $P; wait $P 2>/dev/null; }
        """#

    /// C11: run 1 passes and writes every report; run 2 is SIGKILLed mid-run. Every output then says the run did not
    /// finish (JUnit one error, valid XML; JSON `finished: false` and no exitCode; Messages `success: false`; a rerun
    /// file of comments), `--rerun-failed` refuses each form and `report` the Messages, naming the placeholder; a run
    /// that finishes replaces them all. A device output (`--junit /dev/stdout`) gets no placeholder.
    @Test func killedTestRunLeavesPlaceholdersNeverTheEarlierVerdict() throws {
        let outputs = "--junit j.xml --report r.json --write-rerun rr.txt --messages m.ndjson --html h.html"
        let (output, directory) = try Self.bash(
            Self.killOncePlaceholder + "\n" + #"""
                printf 'Feature: P\n  Scenario: p\n    When I run "true"\n' > p.feature
                "$1" test \#(outputs) p.feature >/dev/null 2>&1; echo "first $?"
                grep -c 'failures="0" errors="0"' j.xml
                printf 'Feature: P\n  Scenario: p\n    When I run "sleep 30"\n    Then the exit code is 0\n' > p.feature
                "$1" test \#(outputs) p.feature >/dev/null 2>&1 & P=$!
                killonce rr.txt
                for f in rr.txt j.xml m.ndjson; do "$1" test --rerun-failed $f p.feature >/dev/null 2>err; echo "rerun $f $?"; cat err; done
                "$1" report m.ndjson --junit x.xml >/dev/null 2>err; echo "report $?"; cat err
                "$1" test --shard-timings r.json --shard 1/2 p.feature >/dev/null 2>err; echo "timings $?"; cat err
                """#)
        #expect(output.hasPrefix("first 0\n2\n"), "\(output)") // the testsuites and testsuite lines
        let junit = Self.read("j.xml", in: directory)
        #expect(junit.contains(#"tests="1" failures="0" errors="1""#) && junit.contains("the run did not finish"), "\(junit)")
        if CLI.hasCommand("xmllint") {
            let lint = try CLI.output(of: ["sh", "-c", "xmllint --noout j.xml 2>&1; echo lint $?"], in: directory)
            #expect(lint == "lint 0\n", "\(lint)")
        }
        let json = Self.read("r.json", in: directory)
        #expect(json.hasPrefix(#"{"finished":false"#) && !json.contains("exitCode"), "\(json)")
        let messages = Self.read("m.ndjson", in: directory)
        #expect(messages.contains(#""testRunFinished":{"success":false"#) && !messages.contains("testCase"), "\(messages)")
        #expect(Self.read("rr.txt", in: directory).split(separator: "\n").allSatisfy { $0.hasPrefix("# ") })
        #expect(Self.read("h.html", in: directory).contains("the run that writes this report did not finish"))
        for file in ["rr.txt", "j.xml", "m.ndjson"] {
            #expect(output.contains("rerun \(file) 2\nsut-launch: error: --rerun-failed \(file):1: this is the placeholder"), "\(output)")
        }
        #expect(output.contains("report 3\nsut-launch: error: report: m.ndjson:1: this is the placeholder"), "\(output)")
        #expect(output.contains("timings 3\n") && output.contains("r.json:1: this is the placeholder"), "\(output)")

        let (finished, _) = try Self.bash(
            #"""
            printf 'Feature: P\n  Scenario: p\n    When I run "true"\n' > p.feature
            "$1" test \#(outputs) p.feature >/dev/null 2>&1; echo "run $?"
            grep -l 'the run that writes this report did not finish' j.xml r.json rr.txt m.ndjson h.html; grep -c '"exitCode":0' r.json
            "$1" test --junit /dev/stdout p.feature 2>/dev/null | grep -c 'did not finish'
            """#)
        #expect(finished == "run 0\n1\n0\n", "\(finished)")
    }

    /// C11 for the launcher: `--report` and `--journal` of a SIGKILLed run are placeholders, not the last run's.
    @Test func killedLauncherRunLeavesPlaceholders() throws {
        let (output, directory) = try Self.bash(
            Self.killOncePlaceholder + "\n" + #"""
                echo '{"routes":[{"method":"GET","path":"/ok","status":200}]}' > s.json
                "$1" -q --stub s.json --report r.json --journal jn.json true 2>/dev/null; echo "first $?"
                grep -c '"exitCode" : 0' r.json; grep -c '"requests"' jn.json
                "$1" -q --stub s.json --report r.json --journal jn.json sleep 30 >/dev/null 2>&1 & P=$!
                killonce jn.json
                """#)
        #expect(output == "first 0\n1\n1\n", "\(output)")
        for name in ["r.json", "jn.json"] {
            let text = Self.read(name, in: directory)
            #expect(text.hasPrefix(#"{"finished":false"#) && !text.contains("exitCode") && !text.contains("requests"), "\(text)")
        }
    }

    /// m4: under `ulimit -f` an artefact file that cannot be written is said on stderr and in the scenario's message,
    /// the run ends 74 (an output asked for and not written), and no `problems.txt` is left among the artefacts.
    @Test func artefactThatCannotBeWrittenIsExit74() throws {
        let (output, directory) = try Self.bash(
            #"""
            printf 'Feature: U\n  Scenario: big\n    When I run "head -c 200000 /dev/zero"\n    Then the exit code is 1\n' > u.feature
            (ulimit -f 50; "$1" test --artifacts art --report r.json u.feature >/dev/null 2>err; echo "status $?")
            grep -o 'artifacts art/U-[0-9a-f]*/big line 2: cannot write "01-stdout.txt" in art/U-[0-9a-f]*/big line 2: file too large' err | head -1
            find art -name problems.txt | wc -l
            """#)
        #expect(output.hasPrefix("status 74\nartifacts art/U-"), "\(output)")
        #expect(output.hasSuffix("file too large\n0\n"), "\(output)")
        #expect(Self.read("r.json", in: directory).contains("artefacts not written: cannot write"))
    }

    /// The artefacts of a scenario that passes now are removed (an earlier run's failure is not left as this run's),
    /// and the staging directories of a run killed while it wrote are swept, unless a live run holds DIR; a flaky pass
    /// keeps the directory of the attempt that failed in this run.
    @Test func artefactsDirectoryHoldsThisRunsOnly() throws {
        let (output, _) = try Self.bash(
            #"""
            printf 'Feature: A\n  Scenario: a\n    When I run "false"\n    Then the exit code is 0\n' > a.feature
            "$1" test --artifacts art a.feature >/dev/null 2>&1; echo "fail $?"; ls art/A-*
            f=$(ls -d art/A-*); mkdir -p "$f/.sut-0123abcd.new/directory" "$f/.sut-89ab.old" "$f/.sut-notours.new"
            flock -o -s art sleep 3 & L=$!; sleep 0.3
            printf 'Feature: A\n  Scenario: a\n    When I run "true"\n    Then the exit code is 0\n' > a.feature
            "$1" test --artifacts art a.feature >/dev/null 2>&1; echo "live $?"; ls -A "$f" | tr '\n' ' '; echo
            kill -KILL $L; wait $L 2>/dev/null
            "$1" test --artifacts art a.feature >/dev/null 2>&1; echo "alone $?"; ls -A "$f" | tr '\n' ' '; echo
            printf 'Feature: F\n  Scenario: f\n    When I run "sh -c '"'"'[ -f %s/once ] || { touch %s/once; exit 1; }'"'"'"\n    Then the exit code is 0\n' "$2" "$2" > f.feature
            "$1" test --retries 1 --artifacts art f.feature >/dev/null 2>&1; echo "flaky $?"; ls art/F-*
            """#)
        #expect(
            output
                == "fail 1\na line 2\nlive 0\n.sut-0123abcd.new .sut-89ab.old .sut-notours.new \nalone 0\n.sut-notours.new \n"
                + "flaky 0\nf line 2 attempt 1\n",
            "\(output)")
    }

    /// A `GITHUB_STEP_SUMMARY` that cannot be appended to is exit 74 before any scenario runs (it was found only
    /// after the whole run), and the reports say why.
    @Test func unwritableStepSummaryEndsTheRunBeforeItStarts() throws {
        let (output, directory) = try Self.bash(
            #"""
            printf 'Feature: G\n  Scenario: g\n    When I run "touch ran"\n' > g.feature
            GITHUB_STEP_SUMMARY="$2/missing/summary.md" "$1" test --format github --junit j.xml g.feature >/dev/null 2>err
            echo "status $?"; ls ran 2>/dev/null | wc -l; grep -c 'GITHUB_STEP_SUMMARY .*missing/summary.md: cannot append the summary' err
            """#)
        #expect(output == "status 74\n0\n1\n", "\(output)")
        #expect(Self.read("j.xml", in: directory).contains(#"errors="1""#))
    }
}
