import AutomationSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// sut-launch's own fds 0, 1 and 2, and how it ends.
package enum StandardDescriptors {
    /// Opens /dev/null on any of fds 0, 1, 2 that is closed, before anything else opens a descriptor.
    /// Otherwise the next pipe or socket would take that number, and a program started with stdin closed
    /// (`sut-launch cat <&-`) would read its own stdout pipe and hang. A closed stdout or stderr is recorded: what
    /// sut-launch writes there is lost, and the command ends with exit 74 (``StandardStreams``); a closed stdin too, so
    /// an output path naming it is refused (the program reads the /dev/null put there, never a file opened later).
    package static func openClosedOnes() {
        // Across the exec to sut-launch-foundation, fds closed at sut-launch's start arrive open on /dev/null:
        // the variable says which they were (and is removed, so the program never sees it).
        if let handed = getenv(closedVariable) {
            for fd in String(cString: handed).split(separator: ",").compactMap({ Int32($0) }) where (0...2).contains(fd) {
                StandardStreams.markClosedAtStart(fd)
            }
            unsetenv(closedVariable)
        }
        for target: Int32 in 0...2 where fcntl(target, F_GETFD) == -1 && errno == EBADF {
            // 0 too: nothing is written there, but an output naming it (`--report /dev/stdin <&-`) would go into the
            // /dev/null put there, exit 0 and the report nowhere; it is refused as `/dev/stdout >&-` is (R10C-13).
            StandardStreams.markClosedAtStart(target)
            let fd = open("/dev/null", O_RDWR)
            if fd >= 0 && fd != target {
                dup2(fd, target)
                close(fd)
            }
        }
    }

    /// The variable naming, for a companion executable, the fds that were closed when sut-launch started.
    package static let closedVariable = "__SUT_LAUNCH_CLOSED_AT_START"

    /// Hands the fds closed at start to the executable that replaces this process (``CompanionExecutable``).
    package static func handClosedOnesAcrossExec() {
        let closed = StandardStreams.descriptorsClosedAtStart
        if closed.isEmpty { unsetenv(closedVariable) } else { setenv(closedVariable, closed.map(String.init).joined(separator: ","), 1) }
    }

    /// The terminal's width in columns (80 when it cannot be read).
    package static func terminalColumns(_ fd: Int32) -> Int {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    /// True when `fd` is a terminal.
    package static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    /// Ends the process with `code` (the C library's exit).
    package static func exitProcess(_ code: Int32) -> Never {
        exit(code)
    }
}

/// The signal numbers the rest of the code names.
package enum SignalNumber {
    /// SIGINT (Ctrl-C).
    package static let interrupt = SIGINT
    /// SIGTERM.
    package static let terminate = SIGTERM
    /// SIGHUP.
    package static let hangUp = SIGHUP
    /// SIGKILL.
    package static let kill = SIGKILL
    /// SIGPIPE.
    package static let pipe = SIGPIPE
    /// The signals a scenario step may send, by name.
    package static let named: [(name: String, number: Int32)] = [
        ("INT", SIGINT), ("TERM", SIGTERM), ("HUP", SIGHUP), ("QUIT", SIGQUIT), ("USR1", SIGUSR1), ("USR2", SIGUSR2), ("KILL", SIGKILL),
    ]
}
