import Foundation
import Testing

/// The terminal handed to a program that does job control itself (R8C-8) or handles Ctrl-Z as vim and less do
/// (R8C-12), with both launchers. Each case runs sut-launch as the session leader of a real pseudo-terminal and types
/// the real bytes (``TerminalKeysEndToEndTests/onTerminal(_:keys:)``; "hung" when it did not end within 30 s).
@Suite struct TerminalJobControlEndToEndTests {
    /// R8C-8: a program that gives the terminal to a child in a process group of its own (as a shell runs a job): the
    /// terminal's Ctrl-C went to that group only, the program saw its child die and exited 0, and so did the run
    /// (report not interrupted). The sentinel follows the terminal's foreground group, so the Ctrl-C still counts.
    @Test(arguments: ["spawn", "foundation"])
    func ctrlCStillInterruptsWhenTheProgramGaveTheTerminalToAJob(launcher: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("r.json").path
        let program = """
            import os, signal, sys, time
            signal.signal(signal.SIGTTOU, signal.SIG_IGN)
            pid = os.fork()
            if pid == 0:
                os.setpgid(0, 0)
                os.tcsetpgrp(0, os.getpgrp())
                signal.signal(signal.SIGTTOU, signal.SIG_DFL)
                print('job', os.getpid(), 'ready', flush=True)
                for _ in range(300):
                    time.sleep(0.1)
                os._exit(0)
            try:
                os.setpgid(pid, pid)
            except OSError:
                pass
            _, status = os.waitpid(pid, 0)
            os.tcsetpgrp(0, os.getpgrp())
            print('child status', status, flush=True)
            sys.exit(0)
            """
        let shown = try TerminalKeysEndToEndTests.onTerminal(
            ["--launcher", launcher, "--report", report, "python3", "-c", program], keys: #"['follow?', b'\x03']"#)
        #expect(shown.hasPrefix("followed\n"), "\(shown)")
        #expect(shown.contains("interrupted by SIGINT"), "\(shown)")
        #expect(shown.hasSuffix("status 130\n"), "\(shown)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any]
        #expect(json?["exitCode"] as? Int == 130 && json?["interruptedBy"] as? String == "SIGINT", "\(String(describing: json))")
    }

    /// R8C-12: a program whose SIGTSTP handler restores the terminal (slowly), then stops itself with the default
    /// action, as vim and less do. sut-launch sent the group a second SIGTSTP of its own after the terminal's: the
    /// handler ran again after `fg` and the program stopped for good while sut-launch waited. One SIGTSTP per Ctrl-Z
    /// now, and after `fg` the program runs to its end.
    @Test(arguments: ["spawn", "foundation"])
    func aProgramThatHandlesCtrlZResumesAfterFg(launcher: String) throws {
        let program = """
            import os, signal, sys, time
            stops = 0
            resumed = False
            def stop(*_):
                global stops, resumed
                stops += 1
                print('stopping', stops, flush=True)
                time.sleep(0.3)
                signal.signal(signal.SIGTSTP, signal.SIG_DFL)
                os.kill(os.getpid(), signal.SIGTSTP)
                signal.signal(signal.SIGTSTP, stop)
                resumed = True
            signal.signal(signal.SIGTSTP, stop)
            print('ready', flush=True)
            for _ in range(300):
                if resumed:
                    break
                time.sleep(0.05)
            print('done after', stops, 'stop', flush=True)
            """
        let shown = try TerminalKeysEndToEndTests.onTerminal(
            ["--launcher", launcher, "python3", "-c", program], keys: #"[b'\x1a', 'stop?']"#)
        #expect(shown.hasPrefix("stopped\n"), "\(shown)")
        #expect(shown.contains("done after 1 stop"), "\(shown)")
        #expect(shown.hasSuffix("status 0\n"), "\(shown)")
    }

    /// R8C-12: a program in raw mode reads Ctrl-Z as a byte and stops itself (`kill(0, SIGTSTP)`), as vim does: the
    /// terminal sent no signal, so sut-launch kept waiting, in the foreground, for a program that would never run
    /// again. sut-launch now stops when the program stops, and `fg` continues both.
    @Test(arguments: ["spawn", "foundation"])
    func aProgramThatStopsItselfStopsTheRunUntilFg(launcher: String) throws {
        let program = """
            import os, signal, termios, tty
            saved = termios.tcgetattr(0)
            tty.setraw(0)
            print('ready', flush=True)
            key = os.read(0, 1)
            termios.tcsetattr(0, termios.TCSADRAIN, saved)
            os.kill(0, signal.SIGTSTP)
            print('resumed after', key, flush=True)
            """
        let shown = try TerminalKeysEndToEndTests.onTerminal(
            ["--launcher", launcher, "python3", "-c", program], keys: #"[b'\x1a', 'stop?']"#)
        #expect(shown.hasPrefix("stopped\n"), "\(shown)")
        #expect(shown.contains("resumed after b'\\x1a'"), "\(shown)")
        #expect(shown.hasSuffix("status 0\n"), "\(shown)")
    }
}
