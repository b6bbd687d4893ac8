import Foundation
import Testing

/// R6a-8: sut-launch's stdin is a terminal and it hands the terminal to the program's group: the terminal's Ctrl-C
/// reached only the program (one that handled it and exited 0 made the run exit 0; a second Ctrl-C did not kill), and
/// Ctrl-Z stopped only the program while sut-launch waited forever. Each case runs sut-launch as the session leader of
/// a real pseudo-terminal (python3's `pty`) and types the real bytes (0x03, 0x1a) on its master; the harness kills it
/// at 30 s and says "hung".
@Suite struct TerminalKeysEndToEndTests {
    /// A program (python3) that says "ready" and then sleeps; `handler` is Python run at SIGINT.
    static func program(onInterrupt handler: String) -> [String] {
        let code = """
            import signal, sys, time
            def handle(*_):
                \(handler)
            signal.signal(signal.SIGINT, handle)
            print('ready', flush=True)
            for _ in range(300):
                time.sleep(0.1)
            """
        return ["python3", "-c", code]
    }

    /// Runs sut-launch with `arguments` on a terminal; `keys` is a Python list of steps: bytes to type, or a float
    /// (seconds to wait), or "stop?" (wait until sut-launch is stopped, print "stopped", continue it as `fg`
    /// would), or "follow?" (wait, 10 s at most, until sut-launch's sentinel sits in the process group the program
    /// printed as `job PGID`, and print "followed" if it does). Returns what the terminal showed and the status line.
    static func onTerminal(_ arguments: [String], keys: String) throws -> String {
        let script = """
            import os, pty, re, select, signal, sys, time
            def sentinels():
                for entry in os.listdir('/proc'):
                    try:
                        with open(f'/proc/{entry}/stat') as file:
                            yield file.read().split(' ', 1)[1]
                    except (OSError, IndexError):
                        pass
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], ['sut-launch'] + sys.argv[2:])
            deadline = time.monotonic() + 30
            shown = b''
            def read(seconds):
                global shown
                end = min(deadline, time.monotonic() + seconds)
                while time.monotonic() < end:
                    ready, _, _ = select.select([fd], [], [], max(0, end - time.monotonic()))
                    if not ready:
                        continue
                    try:
                        data = os.read(fd, 4096)
                    except OSError:
                        return False
                    if not data:
                        return False
                    shown += data
                return True
            while b'ready' not in shown and time.monotonic() < deadline and read(0.05):
                pass
            for key in \(keys):
                if isinstance(key, float):
                    read(key)
                elif key == 'follow?':
                    job = re.search(rb'job ([0-9]+)', shown)
                    until = min(deadline, time.monotonic() + 10)
                    while job and time.monotonic() < until and not any(
                            stat.startswith('(sut-terminal) ') and stat.split()[3] == job.group(1).decode()
                            for stat in sentinels()):
                        read(0.02)
                    if job and time.monotonic() < until:
                        print('followed')
                elif key == 'stop?':
                    while time.monotonic() < deadline:
                        got, status = os.waitpid(pid, os.WUNTRACED | os.WNOHANG)
                        if got == pid and os.WIFSTOPPED(status):
                            print('stopped')
                            break
                        read(0.05)
                    os.kill(pid, signal.SIGCONT)
                else:
                    os.write(fd, key)
            status = None
            while time.monotonic() < deadline:
                read(0.05)
                got, raw = os.waitpid(pid, os.WNOHANG)
                if got == pid:
                    status = os.waitstatus_to_exitcode(raw)
                    break
            if status is None:
                os.kill(pid, signal.SIGKILL)
                print('hung')
            read(0.2)
            print(shown.decode('utf-8', 'replace'))
            print('status', status)
            """
        return try CLI.output(of: ["python3", "-c", script, CLI.sutLaunch] + arguments)
    }

    @Test func ctrlCThatTheProgramHandlesStillInterruptsTheRun() throws {
        let shown = try Self.onTerminal(
            ["--kill-grace", "20s"] + Self.program(onInterrupt: "print('handled', flush=True); sys.exit(0)"), keys: #"[b'\x03']"#)
        #expect(shown.contains("handled"), "\(shown)")
        #expect(shown.contains("interrupted by SIGINT"), "\(shown)")
        #expect(shown.hasSuffix("status 130\n"), "\(shown)")
    }

    @Test func aSecondCtrlCKillsAProgramThatIgnoresTheFirst() throws {
        let started = Date()
        let shown = try Self.onTerminal(
            ["--kill-grace", "60s"] + Self.program(onInterrupt: "print('ignored', flush=True)"), keys: #"[b'\x03', 0.5, b'\x03']"#)
        #expect(shown.contains("ignored"), "\(shown)")
        #expect(shown.hasSuffix("status 130\n"), "\(shown)")
        #expect(Date().timeIntervalSince(started) < 25) // not the 60 s grace: the second Ctrl-C killed it
    }

    @Test func ctrlZStopsTheRunWithTheProgramAndBothResume() throws {
        let shown = try Self.onTerminal(
            ["--kill-grace", "20s"] + Self.program(onInterrupt: "print('handled', flush=True); sys.exit(0)"),
            keys: #"[b'\x1a', 'stop?', 0.3, b'\x03']"#)
        #expect(shown.hasPrefix("stopped\n"), "\(shown)")
        #expect(shown.contains("handled"), "\(shown)") // continued: it ran its handler at the Ctrl-C after `fg`
        #expect(shown.hasSuffix("status 130\n"), "\(shown)")
    }
}
