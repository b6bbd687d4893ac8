import Foundation
import Testing

/// The outputs of a run killed before it ran anything, replayed from attack-r5c's findings against the built binary:
/// the placeholders come before any input is parsed (7), a `--write-rerun` over the `--rerun-failed` file keeps its
/// list (the rerun note), a refused `--artifacts` makes nothing (4), no `-D` or `-e` value in any error (3), and the
/// step summary stays within what GitHub's 1 MiB leaves (6).
///
/// The kill points are deterministic: each input ends in an error the load finds only at its end (a bad last row, a
/// bad last route), so a process still alive when its placeholder appears (exit 137, not 3) was killed while loading.
@Suite struct KilledWhileLoadingEndToEndTests {
    static func bash(_ script: String) throws -> (output: String, directory: URL) {
        try KilledRunOutputsEndToEndTests.bash(KilledRunOutputsEndToEndTests.killOncePlaceholder + "\n" + script)
    }

    /// A 20,000-row outline (seconds to load) whose file ends in a parse error, after a small feature of two scenarios.
    static let slowFeatures = #"""
        printf 'Feature: F\n  Scenario: a\n    When I run "false"\n    Then the exit code is 0\n  Scenario: b\n    When I run "true"\n' > f.feature
        python3 -c "
        f=open('k.feature','w'); f.write('Feature: K\n  Scenario Outline: o <a>\n    When I run \"true <a>\"\n\n    Examples:\n      | a |\n')
        [f.write('      | %d |\n'%i) for i in range(20000)]
        f.write('  Nonsense line\n')"
        """#

    /// Finding 7: run 1 is green; run 2 is killed while its features load. Every report says "did not finish".
    @Test func aRunKilledWhileItsFeaturesLoadLeavesPlaceholders() throws {
        let outputs = "--junit j.xml --report r.json --messages m.ndjson --html h.html --write-rerun rr.txt"
        let (output, directory) = try Self.bash(
            Self.slowFeatures + "\n" + #"""
                "$1" test \#(outputs) f.feature >/dev/null 2>&1; echo "first $?"
                "$1" test \#(outputs) f.feature k.feature >/dev/null 2>&1 & P=$!
                killonce rr.txt; echo "killed $?"
                grep -l 'the run that writes this report did not finish' j.xml r.json m.ndjson h.html rr.txt | wc -l
                """#)
        #expect(output == "first 1\nkilled 137\n5\n", "\(output)")
        let junit = KilledRunOutputsEndToEndTests.read("j.xml", in: directory)
        #expect(junit.contains(#"tests="1" failures="0" errors="1""#), "\(junit)")
    }

    /// The rerun note: `--rerun-failed rr.txt --write-rerun rr.txt` killed while loading keeps the list in the
    /// placeholder, and the next `--rerun-failed rr.txt` selects the same scenario (a note on stderr says so).
    @Test func aKilledRerunKeepsTheListItWasRerunning() throws {
        let (output, directory) = try Self.bash(
            Self.slowFeatures + "\n" + #"""
                "$1" test --write-rerun rr.txt f.feature >/dev/null 2>&1; echo "first $?"; cat rr.txt
                "$1" test --rerun-failed rr.txt --write-rerun rr.txt f.feature k.feature >/dev/null 2>&1 & P=$!
                killonce rr.txt; echo "killed $?"
                "$1" test --rerun-failed rr.txt --list f.feature 2>err; echo "list $?"; grep -c 'kept the list' err
                "$1" test --rerun-failed rr.txt --write-rerun rr.txt f.feature >/dev/null 2>&1; echo "rerun $?"; cat rr.txt
                """#)
        #expect(output == "first 1\nf.feature:2\nkilled 137\nf.feature:2  F: a  \nlist 0\n1\nrerun 1\nf.feature:2\n", "\(output)")
        _ = directory
    }

    /// Finding 7 for the launcher and `serve`: `--report` and `--journal` are placeholders before the stubs load.
    @Test func theLauncherAndServeWritePlaceholdersBeforeTheStubsLoad() throws {
        let (output, _) = try Self.bash(
            #"""
            echo '{"routes":[{"method":"GET","path":"/a","status":200}]}' > small.json
            python3 -c "
            import json; r=[{'method':'GET','path':'/a%d'%i,'status':200} for i in range(30000)]; r.append({'method':'GET'})
            json.dump({'routes':r}, open('slow.json','w'))"
            "$1" -q --stub small.json --report r.json --journal j.json true; echo "first $?"
            "$1" -q --stub slow.json --report r.json --journal j.json true >/dev/null 2>&1 & P=$!
            killonce j.json; echo "killed $?"; grep -c '"finished":false' r.json j.json
            echo '{"old":"journal"}' > s.json
            "$1" serve -q --port 0 --journal s.json slow.json >/dev/null 2>&1 & P=$!
            killonce s.json; echo "serve killed $?"; grep -c '"finished":false' s.json
            """#)
        #expect(output == "first 0\nkilled 137\nr.json:1\nj.json:1\nserve killed 137\n1\n", "\(output)")
    }

    /// R8C-11: SIGTERM while the stubs loaded waited, blocked, until loading ended (8-17 s), and then the program was
    /// launched anyway (`launched: true`). The run now ends 143 at once, nothing launched, the report saying why. The
    /// stubs end in a bad route, so a signal not acted on until the end would give exit 3.
    @Test func aSignalWhileTheStubsLoadEndsTheRunBeforeAnyLaunch() throws {
        let (output, _) = try Self.bash(
            #"""
            python3 -c "
            import json; r=[{'method':'GET','path':'/a%d'%i,'status':200} for i in range(30000)]; r.append({'method':'GET'})
            json.dump({'routes':r}, open('slow.json','w'))"
            "$1" -q --stub slow.json --report r.json sh -c 'echo > LAUNCHED' >/dev/null 2>err & P=$!
            for _ in $(seq 200); do grep -q 'did not finish' r.json 2>/dev/null && break; sleep 0.1; done
            kill -TERM $P; wait $P; echo "status $?"
            grep -c '"exitCode" : 143' r.json; grep -c 'interrupted by SIGTERM while the run was loading: nothing was launched' r.json err
            ls LAUNCHED 2>/dev/null | wc -l; grep -c '"interruptedBy" : "SIGTERM"' r.json
            """#)
        // R9C-9: `interruptedBy` was absent here (a signal a moment later, before the launch, had it).
        #expect(output == "status 143\n1\nr.json:1\nerr:1\n0\n1\n", "\(output)")
    }

    /// An output named by a step's fixture directory is refused from the feature's text, before any placeholder:
    /// the fixture is left as it was (the placeholders now come before the parse, and must not land there).
    @Test func anOutputInAFixtureIsRefusedBeforeAnyPlaceholder() throws {
        let (output, _) = try Self.bash(
            #"""
            mkdir fix; echo data > fix/d.xml
            printf 'Feature: X\n  Scenario: x\n    Given the files from "fix"\n    When I run "true"\n' > x.feature
            "$1" test --junit fix/d.xml x.feature 2>err; echo "status $?"; cat fix/d.xml; grep -c 'named at x.feature:3' err
            """#)
        #expect(output == "status 2\ndata\n1\n", "\(output)")
    }

    /// Finding 4: a refused `--artifacts` makes no directory inside the input it names.
    @Test func aRefusedArtifactsDirectoryIsNeverMade() throws {
        let (output, _) = try Self.bash(
            #"""
            mkdir -p feat stubs/mappings; echo '{"request":{"method":"GET","url":"/a"},"response":{"status":200}}' > stubs/mappings/a.json
            printf 'Feature: A\n  Scenario: a\n    Given the stubs "../stubs"\n    When I run "false"\n    Then the exit code is 0\n' > feat/a.feature
            "$1" test --artifacts stubs/mappings/x/y/art feat >/dev/null 2>&1; echo "stubs $?"
            "$1" test --artifacts feat/a/b feat >/dev/null 2>&1; echo "feat $?"
            find stubs feat | sort | tr '\n' ' '
            """#)
        #expect(output == "stubs 2\nfeat 2\nfeat feat/a.feature stubs stubs/mappings stubs/mappings/a.json ", "\(output)")
    }

    /// Finding 3: no `-D` value (test) or `-e` value (the launcher) in an error, on stderr or in `--report`.
    @Test func noDefineOrEnvironmentValueReachesAnError() throws {
        let (output, _) = try Self.bash(
            #"""
            printf 'Feature: D\n  Scenario: d\n    When I run "true"\n' > d.feature
            for args in "-D TOKEN=s3cr3t -D TOKEN=s3cr3t2" "-D s3cr3t" "-D 9s=s3cr3t" "-D SUT_MOCK_SERVER_URL=s3cr3t" "--define=s3cr3t"; do
              "$1" test $args --report r.json d.feature >out 2>&1; echo "test $?"; cat out r.json | grep -c s3cr3t
            done
            for args in "-e A=s3cr3t -e A=s3cr3t2" "-e s3cr3t" "--env=A=s3cr3t --env A=x"; do
              "$1" $args --report r.json true >out 2>&1; echo "run $?"; cat out r.json | grep -c s3cr3t
            done
            "$1" test -D TOKEN=a -D TOKEN=b d.feature 2>&1 | grep -c 'TOKEN is given twice: -D TOKEN=… (argument 1) and -D TOKEN=… (argument 3)'
            """#)
        #expect(output == String(repeating: "test 2\n0\n", count: 5) + String(repeating: "run 2\n0\n", count: 3) + "1\n", "\(output)")
    }

    /// Finding 6: the step summary's table gets what the file leaves of GitHub's 1 MiB: two runs of 100 KB names
    /// stay small (names cut), a file near the limit gets one line and a warning, failures are listed first.
    @Test func theStepSummaryStaysWithinWhatTheFileLeaves() throws {
        let (output, directory) = try Self.bash(
            #"""
            python3 -c "
            f=open('big.feature','w'); f.write('Feature: Big\n')
            for i in range(8): f.write('  Scenario: s%d %s\n    When I run \"true\"\n' % (i,'x'*100000))
            g=open('many.feature','w'); g.write('Feature: M\n  Scenario: bad\n    When I run \"false\"\n    Then the exit code is 0\n')
            for i in range(100): g.write('  Scenario: p%d %s\n    When I run \"true\"\n' % (i,'y'*200))"
            for i in 1 2; do GITHUB_STEP_SUMMARY="$2/sum.md" "$1" test --format github big.feature >/dev/null 2>&1; echo "run $?"; done
            [ $(wc -c < sum.md) -lt 20000 ] && echo small; awk 'length > 2000' sum.md | wc -l
            python3 -c "open('full.md','w').write('x'*1000000)"
            GITHUB_STEP_SUMMARY="$2/full.md" "$1" test --format github big.feature 2>err >/dev/null; echo "full $?"
            grep -c 'holds 1000000 bytes already' err; tail -n 1 full.md | grep -c '8 of 8 passed (no table'
            python3 -c "open('near.md','w').write('x'*(1048576-65536-8192))"
            GITHUB_STEP_SUMMARY="$2/near.md" "$1" test --format github many.feature >/dev/null 2>&1; echo "near $?"
            grep -c '| ❌ | M: bad |' near.md; grep -c 'more passed scenarios not listed' near.md
            [ $(wc -c < near.md) -le $((1048576-65536+1024)) ] && echo within
            """#)
        #expect(output == "run 0\nrun 0\nsmall\n0\nfull 0\n1\n1\nnear 1\n1\n1\nwithin\n", "\(output)")
        _ = directory
    }
}
