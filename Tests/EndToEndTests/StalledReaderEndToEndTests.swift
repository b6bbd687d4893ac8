import Foundation
import Testing

/// R6a-14: a reader of sut-launch's stdout (or stderr) that holds the pipe open and never reads. sut-launch blocked
/// in write(2) and nothing but SIGKILL ended it (the program stopped, left a zombie). Now a stop (timeout, SIGTERM,
/// Ctrl-C) gives our writes a deadline (the kill grace); what was not written is counted and said; the exit is the
/// stop's. A reader that is slow but reads still gets every byte. Each run is bounded by the harness (SIGKILL at 30 s).
@Suite struct StalledReaderEndToEndTests {
    /// Runs sut-launch with `arguments`, its `stream` ("stdout" or "stderr") a pipe held open and never read, the other
    /// one a file; sends `signal` (a number, 0: none) after a second; returns "status N" or "hung", then what the other
    /// stream got, and the report.
    static func stalled(_ stream: String, signal: Int32, _ arguments: [String]) throws -> (status: String, other: String, report: String) {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = """
            import os, subprocess, sys, time
            sut, directory, stream, signal = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            held, write = os.pipe()  # held open, never read
            other = open(os.path.join(directory, 'other'), 'wb')
            streams = {'stdout': write, 'stderr': other} if stream == 'stdout' else {'stdout': other, 'stderr': write}
            process = subprocess.Popen([sut, '--report', os.path.join(directory, 'r.json')] + sys.argv[5:],
                                       stdin=subprocess.DEVNULL, **streams)
            os.close(write)
            if signal:
                time.sleep(1)
                process.send_signal(signal)
            try:
                print('status', process.wait(timeout=30))
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
                print('hung')
            """
        let output = try CLI.output(of: ["python3", "-c", script, CLI.sutLaunch, directory.path, stream, "\(signal)"] + arguments)
        let other = (try? String(contentsOf: directory.appendingPathComponent("other"), encoding: .utf8)) ?? ""
        let report = (try? String(contentsOf: directory.appendingPathComponent("r.json"), encoding: .utf8)) ?? ""
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), other, report)
    }

    /// The exit code in a report, whichever JSON spacing it is written with.
    static func exitCode(_ report: String) -> Int? {
        guard let range = report.range(of: #""exitCode"\s*:\s*[0-9]+"#, options: .regularExpression) else { return nil }
        return Int(report[range].split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
    }

    @Test func aTimeoutEndsARunWhoseStdoutIsNotRead() throws {
        let run = try Self.stalled("stdout", signal: 0, ["--timeout", "1s", "--kill-grace", "1s", "yes", "stalled"])
        #expect(run.status == "status 124", "\(run.other)")
        #expect(run.other.contains("bytes of the program's output were not written: stdout was not being read"), "\(run.other)")
        #expect(Self.exitCode(run.report) == 124, "\(run.report)")
        #expect(run.report.contains("stdout was not being read"))
    }

    @Test(arguments: [(SIGTERM, 143), (SIGINT, 130)])
    func aSignalEndsARunWhoseStdoutIsNotRead(_ signal: Int32, _ code: Int) throws {
        let run = try Self.stalled("stdout", signal: signal, ["--kill-grace", "1s", "yes", "stalled"])
        #expect(run.status == "status \(code)", "\(run.other)")
        #expect(run.other.contains("stdout was not being read"), "\(run.other)")
        #expect(Self.exitCode(run.report) == code, "\(run.report)")
        // The program was stopped and reaped: its pid is gone, not a zombie of ours.
        if let range = run.report.range(of: #""pid"\s*:\s*[0-9]+"#, options: .regularExpression),
            let pid = Int32(run.report[range].split(separator: ":").last!.trimmingCharacters(in: .whitespaces))
        {
            #expect(!isAlive(pid))
        }
    }

    @Test(arguments: [(SIGTERM, 143), (SIGINT, 130), (0, 124)])
    func aStopEndsARunWhoseStderrIsNotRead(_ signal: Int32, _ code: Int) throws {
        let timeout = signal == 0 ? ["--timeout", "1s"] : []
        let run = try Self.stalled("stderr", signal: signal, timeout + ["--kill-grace", "1s", "sh", "-c", "yes stalled >&2"])
        #expect(run.status == "status \(code)", "\(run.report)")
        #expect(Self.exitCode(run.report) == code, "\(run.report)")
        #expect(run.report.contains("stderr was not being read"), "\(run.report)")
    }

    /// A reader that sleeps 2 s and then reads everything, and one that reads 4 KiB every 50 ms (slower than the 250 ms
    /// sut-launch waits for the pipes' end after the program exits), also from a program that enlarged its pipe to
    /// 1 MiB (F_SETPIPE_SZ) and so exits with all of it unread (that wait stopped reading it: the reader got 64 KiB):
    /// every byte arrives, and the run ends 0.
    @Test(arguments: [("sleep-then-read", false), ("read-slowly", false), ("read-slowly", true)])
    func aSlowReaderGetsEveryByte(_ reader: String, enlargedPipe: Bool) throws {
        let enlarge = "import fcntl; fcntl.fcntl(1, 1031, 1 << 20)\n" // F_SETPIPE_SZ
        let program = (enlargedPipe ? enlarge : "") + "import sys; sys.stdout.buffer.write(bytes(300000) + b'end\\n')"
        let script = """
            import subprocess, sys, time
            sut, reader, program = sys.argv[1], sys.argv[2], sys.argv[3]
            process = subprocess.Popen([sut, '-q', 'python3', '-c', program],
                                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
            got = b''
            if reader == 'sleep-then-read':
                time.sleep(2)
                got = process.stdout.read()
            else:
                while True:
                    chunk = process.stdout.read1(4096)
                    if not chunk:
                        break
                    got += chunk
                    time.sleep(0.05)
            try:
                status = process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                status = 'hung'
            print('status', status, 'bytes', len(got), 'end', got.endswith(b'end\\n'))
            """
        let output = try CLI.output(of: ["python3", "-c", script, CLI.sutLaunch, reader, program])
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "status 0 bytes 300004 end True", "\(output)")
    }

    /// Runs `sut-launch ARGUMENTS` (`$3` in them: fd 3) with fd 3 a pipe held open and never read, its stdout and stderr
    /// files; once the pipe is full (FIONREAD: the report's write waits), sends `signals` one after another (a
    /// tenth of a second apart); returns "status N" or "hung", then stderr.
    static func reportOnAStalledPipe(_ arguments: [String], signals: [Int32], files: [String: String] = [:]) throws -> (
        status: String, stderr: String
    ) {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in files { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let script = """
            import fcntl, os, signal, struct, subprocess, sys, termios, time
            sut, signals = sys.argv[1], [int(s) for s in sys.argv[2].split(',') if s]
            os.dup2(os.open('/dev/null', os.O_RDONLY), 3)  # fd 3 taken: the pipe's ends are above it
            held, write = os.pipe()  # held open, never read
            os.dup2(write, 3, inheritable=True)
            process = subprocess.Popen([sut] + sys.argv[3:], stdin=subprocess.DEVNULL, stdout=open('out', 'wb'),
                                       stderr=open('err', 'wb'), pass_fds=(3,))
            os.close(3); os.close(write)
            end = time.time() + 30
            while time.time() < end and process.poll() is None:
                waiting = struct.unpack('i', fcntl.ioctl(held, termios.FIONREAD, b'\\0\\0\\0\\0'))[0]
                if waiting >= 65536: break
                time.sleep(0.05)
            for s in signals:
                process.send_signal(s); time.sleep(0.1)
            try:
                print('status', process.wait(timeout=30))
            except subprocess.TimeoutExpired:
                process.kill(); process.wait(); print('hung')
            """
        let output = try CLI.output(
            of: ["python3", "-c", script, CLI.sutLaunch, signals.map(String.init).joined(separator: ",")] + arguments, in: directory)
        let stderr = (try? String(contentsOf: directory.appendingPathComponent("err"), encoding: .utf8)) ?? ""
        return (output.trimmingCharacters(in: .whitespacesAndNewlines), stderr)
    }

    /// 3,000 variables: a report over the 64 KiB a pipe holds.
    static let manyVariables = (1...3000).map { "VARIABLE_NUMBER_WITH_A_LONG_NAME_\($0)=1\n" }.joined()

    /// R9C-7: a report written to a pipe whose reader never reads blocked sut-launch in write(2) forever, after the
    /// program had ended: SIGTERM, Ctrl-C and Ctrl-C again changed nothing, only SIGKILL ended it. The report's write
    /// now gets the kill grace once a signal came (none after a second Ctrl-C), then is abandoned, said on stderr,
    /// exit 74 (a report that cannot be written).
    @Test(arguments: [[SIGTERM], [SIGINT, SIGINT]])
    func aReportOnAPipeNobodyReadsGivesUpOnceAStopIsAsked(_ signals: [Int32]) throws {
        let run = try Self.reportOnAStalledPipe(
            ["-q", "--kill-grace", "1s", "--report", "/dev/fd/3", "--env-file", "many.env", "true"], signals: signals,
            files: ["many.env": Self.manyVariables])
        #expect(run.status == "status 74", "\(run.stderr)")
        #expect(
            run.stderr.contains("--report /dev/fd/3: cannot write the report: cannot write /dev/fd/3: its reader took nothing more"),
            "\(run.stderr)")
    }

    /// R9C-7 for `test`, which shares the writer: its JUnit on a pipe nobody reads (a scenario name of 100 KB) is
    /// abandoned once SIGTERM came, within the grace, and the run ends.
    @Test func aTestReportOnAPipeNobodyReadsGivesUpOnceAStopIsAsked() throws {
        let feature = "Feature: F\n  Scenario: s " + String(repeating: "x", count: 100_000) + "\n    When I run \"true\"\n"
        let run = try Self.reportOnAStalledPipe(
            ["test", "-q", "--junit", "/dev/fd/3", "f.feature"], signals: [SIGTERM], files: ["f.feature": feature])
        #expect(run.status.hasPrefix("status ") && run.status != "status 0", "\(run.status) \(run.stderr)")
        #expect(run.stderr.contains("its reader took nothing more"), "\(run.stderr)")
    }
}
