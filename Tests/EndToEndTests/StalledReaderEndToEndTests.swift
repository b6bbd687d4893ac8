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
}
