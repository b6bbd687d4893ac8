import Foundation
import Testing

/// Findings r5c-2 and r5c-11, replayed against the built binary: no descendant of a program under test outlives what
/// launched it. A `sut-launch test` step's `setsid` descendant is stopped with the step's program (by its launch's
/// SUT_LAUNCH_ID), one that shed that variable at the run's end (said on stderr), a launched program's with it, with
/// `--jobs 2` each scenario's own; `--launcher foundation` sweeps as the spawn launcher does.
@Suite struct OrphanSweepEndToEndTests {
    /// `escape.sh PIDFILE [URL]`: starts a descendant that leaves the group and session (setsid), writes its pid once
    /// out, and runs until stopped (with URL: sends `DELETE URL/users/7` when it gets SIGTERM); returns once the pid
    /// is written. `ENV_I=1` starts it with `env -i` (no SUT_LAUNCH_ID).
    static let escape = #"""
        #!/bin/sh
        clear=; [ -n "$ENV_I" ] && clear="env -i PATH=$PATH"
        $clear setsid sh -c '
          [ -n "$1" ] && trap "curl -s -o /dev/null -X DELETE $1/users/7; exit 0" TERM
          echo $$ > "$0.tmp" && mv "$0.tmp" "$0"
          while :; do sleep 0.05; done' "$1" "$2" </dev/null >/dev/null 2>&1 &
        n=0; while [ ! -s "$1" ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done
        """#

    static func setUp() throws -> URL {
        let directory = try CLI.temporaryDirectory()
        let script = try CLI.write(escape, "escape.sh", in: directory)
        chmod(script, 0o755)
        return directory
    }

    static func pid(_ directory: URL, _ name: String) -> Int32 {
        let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
        return Int32(text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
    }

    /// The finding's two scenarios: the escaped descendant is stopped at its step's end, so it never sends its late
    /// request nor outlives the run; one that sends a request as it is stopped has it judged by the next count.
    @Test func aRunStepsEscapedDescendantIsStoppedAtTheStepsEnd() throws {
        let directory = try Self.setUp()
        let dir = directory.path
        let feature = try CLI.write(
            """
            Feature: orphans
              Scenario: escaped, stopped with its step
                When I run "\(dir)/escape.sh \(dir)/one"
                Then the exit code is 0
              Scenario: a request sent while it is stopped is judged
                Given the route "DELETE /users/{id}" answers 204
                When I run "\(dir)/escape.sh \(dir)/two ${SUT_MOCK_SERVER_URL}"
                Then the server received 1 request to "DELETE /users/{id}"
            """, "a.feature", in: directory)
        let result = try CLI.run(["test", feature])
        let pids = [Self.pid(directory, "one"), Self.pid(directory, "two")]
        defer { for pid in pids where pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(pids.allSatisfy { $0 > 0 && !isAlive($0) }, "escaped descendants \(pids) outlived the run")
        #expect(!result.stderr.contains("still running at its end"), "\(result.stderr)") // each went with its step
    }

    /// One that dropped its token (`env -i`) is stopped at the run's end, and stderr says so; under `--jobs 2` a
    /// scenario's step end never stops another scenario's descendant, which is still alive when checked.
    @Test func unattributedAtTheEndAndAttributedUnderJobs() throws {
        let directory = try Self.setUp()
        let dir = directory.path
        let feature = try CLI.write(
            """
            Feature: jobs
              Scenario: a dropped its token
                When I run "sh -c 'n=0; while [ ! -s \(dir)/b ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done'"
                When I run "sh -c 'ENV_I=1 \(dir)/escape.sh \(dir)/a'"
                When I run "touch \(dir)/a-done"
              Scenario: b keeps running
                Given the program "\(dir)/escape.sh"
                When I launch the program with "\(dir)/b"
                When I run "sh -c 'n=0; while [ ! -e \(dir)/a-done ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done; kill -0 $(cat \(dir)/b)'"
                Then the exit code is 0
            """, "j.feature", in: directory)
        let result = try CLI.run(["test", "--jobs", "2", feature])
        let pids = [Self.pid(directory, "a"), Self.pid(directory, "b")]
        defer { for pid in pids where pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(pids.allSatisfy { $0 > 0 && !isAlive($0) }, "descendants \(pids) outlived the run")
        // "1 process …" (a's), or more when a step's own program was still ending at that moment on a loaded machine.
        #expect(
            result.stderr.contains("the run started") && result.stderr.contains("still running at its end")
                && result.stderr.contains("SUT_LAUNCH_ID"), "\(result.stderr)")
    }

    /// Lifecycle: Ctrl-C in the middle of a run still stops a descendant that left its group and dropped its token
    /// (the interrupted run's sweep), and says so.
    @Test func anInterruptedRunStillStopsWhatEscaped() throws {
        let directory = try Self.setUp()
        let dir = directory.path
        let feature = try CLI.write(
            """
            Feature: interrupted
              Scenario: escapes, then waits
                When I run "sh -c 'ENV_I=1 \(dir)/escape.sh \(dir)/a'"
                When I run "sleep 60"
            """, "i.feature", in: directory)
        let result = try CLI.run(["test", feature]) { process, _ in
            _ = CLI.eventually(30) { Self.pid(directory, "a") > 0 }
            kill(process.processIdentifier, SIGINT)
        }
        let pid = Self.pid(directory, "a")
        defer { if pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 130, "\(result.stderr)")
        #expect(pid > 0 && !isAlive(pid), "the escaped descendant \(pid) outlived the interrupted run")
        // "1 process …", or 2 when the signal came while its parent (the step's, stopped with its group) was still ending.
        #expect(result.stderr.contains("the run started") && result.stderr.contains("still running at its end"), "\(result.stderr)")
    }

    /// Hostile (work without a budget, values that kill): a descendant that keeps starting escaped ones (each
    /// stopped one's children are the next round's), and one whose SUT_LAUNCH_ID is forged (100,000 commas and a
    /// token of no launch): the step still ends, every one of them is stopped, the forged one at the run's end.
    @Test func aHydraAndAForgedTokenAreStoppedWithinTheirDeadline() throws {
        let directory = try Self.setUp()
        let hydra = try CLI.write(
            #"""
            #!/bin/sh
            big=$(head -c 100000 /dev/zero | tr '\0' ,)
            SUT_LAUNCH_ID="$big,forged" setsid sh -c 'echo $$ >> "$0"; exec sleep 3600' "$1" </dev/null >/dev/null 2>&1 &
            setsid sh -c 'echo $$ >> "$0"
              while :; do setsid sh -c "echo \$\$ >> $0; exec sleep 3600" </dev/null >/dev/null 2>&1 & sleep 0.02; done' "$1" </dev/null >/dev/null 2>&1 &
            n=0; while [ "$(wc -l < "$1" 2>/dev/null || echo 0)" -lt 6 ] && [ $n -lt 1000 ]; do sleep 0.01; n=$((n+1)); done
            """#, "hydra.sh", in: directory)
        chmod(hydra, 0o755)
        let pidFile = directory.appendingPathComponent("pids").path
        let feature = try CLI.write(
            """
            Feature: hydra
              Scenario: many escape, one forged
                When I run "\(hydra) \(pidFile)"
                Then the exit code is 0
            """, "h.feature", in: directory)
        let started = Date()
        let result = try CLI.run(["test", feature])
        let pids = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        defer { for pid in pids where pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(pids.count >= 6 && pids.allSatisfy { !isAlive($0) }, "\(pids.filter(isAlive)) of \(pids) outlived the run")
        #expect(result.stderr.contains("1 process the run started was still running at its end"), "\(result.stderr)")
        #expect(Date().timeIntervalSince(started) < 60) // each sweep: at most twice the kill grace plus 2 s
    }

    /// r5c-11: `--launcher foundation` stops a setsid descendant at the run's end, as the spawn launcher does, and
    /// sees the program's exit at once (Foundation's own wait held the run until the descendant ended).
    @Test(arguments: ["spawn", "foundation"]) func bothLaunchersSweepTheRunFormsOrphan(_ launcher: String) throws {
        let directory = try Self.setUp()
        let started = Date()
        let result = try CLI.run(["-q", "--launcher", launcher, directory.path + "/escape.sh", directory.path + "/pid"])
        let pid = Self.pid(directory, "pid")
        defer { if pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(pid > 0 && !isAlive(pid), "\(launcher): the setsid descendant \(pid) outlived the run")
        #expect(Date().timeIntervalSince(started) < 30) // the descendant loops forever: only a sweep ends the run
    }

    /// R10C-2: a descendant in a session of its own that answers each SIGTERM with a successor (forked into a new
    /// session, then exits) outlived the sweep: each round's SIGTERM made the next one, its SIGKILL hit nobody, and
    /// the run ended 0 in silence with one left under init. From the third round on the sweep sends SIGKILL at once.
    @Test(arguments: ["spawn", "foundation"]) func aDescendantThatRespawnsOnEachSIGTERMDoesNotOutliveTheRun(_ launcher: String) throws {
        let directory = try CLI.temporaryDirectory()
        let respawn = try CLI.write(
            """
            import os, signal, sys, time
            pids = sys.argv[1]
            def become():
                signal.signal(signal.SIGTERM, on_term)
                with open(pids, 'a') as f: f.write('%d\\n' % os.getpid())
                while True: time.sleep(0.05)
            def on_term(*_):
                if os.fork() == 0:
                    os.setsid()
                    if os.fork() == 0: become()
                    os._exit(0)
                os._exit(0)
            if os.fork() == 0:
                os.setsid(); become()
            while not os.path.exists(pids): time.sleep(0.01)
            os._exit(0)
            """, "respawn.py", in: directory)
        let pidFile = directory.appendingPathComponent("pids").path
        let result = try CLI.run(["--launcher", launcher, "--kill-grace", "1s", "python3", respawn, pidFile])
        let pids = ((try? String(contentsOfFile: pidFile, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        defer { for pid in pids where pid > 0 { kill(pid, SIGKILL) } }
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!pids.isEmpty && pids.allSatisfy { !isAlive($0) }, "\(launcher): \(pids.filter(isAlive)) of \(pids) outlived the run")
    }
}
