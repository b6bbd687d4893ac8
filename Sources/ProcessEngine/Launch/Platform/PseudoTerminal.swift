internal import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal pair: the controller side this process reads and types through, and the path of the
/// program's side (the spawned child opens it as its controlling terminal).
struct PseudoTerminal {
    /// The controller side: read-write, close-on-exec, not our controlling terminal.
    let controller: Int32
    /// A second descriptor of the controller side (the test's keyboard), so closing one keeps the other.
    let keyboard: Int32
    /// The program's side.
    let path: String

    /// Opens a pair with the window size set.
    static func open(_ size: TerminalSize) throws(Errno) -> PseudoTerminal {
        var name = [CChar](repeating: 0, count: 256)
        let controller = csystem_open_pseudo_terminal(Int32(clamping: size.columns), Int32(clamping: size.rows), &name, UInt(name.count))
        guard controller >= 0 else { throw Errno.current }
        let keyboard = fcntl(controller, F_DUPFD_CLOEXEC, 3)
        guard keyboard >= 0 else {
            let error = Errno.current
            close(controller)
            throw error
        }
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return PseudoTerminal(controller: controller, keyboard: keyboard, path: path)
    }

    /// The longest line a terminal in canonical mode takes (its line discipline drops the rest of a longer one, the
    /// line break still ending it): 4095 bytes on Linux (N_TTY_BUF_SIZE less one), MAX_CANON elsewhere.
    #if canImport(Glibc)
    static let lineLimit = 4095
    #else
    static let lineLimit = Int(MAX_CANON) - 1
    #endif

    /// Whether the terminal `fd` belongs to reads lines (canonical mode, ICANON: what the program set with stty or
    /// tcsetattr); nil when `fd` is no terminal.
    static func readsLines(_ fd: Int32) -> Bool? {
        var attributes = termios()
        guard tcgetattr(fd, &attributes) == 0 else { return nil }
        return attributes.c_lflag & tcflag_t(ICANON) != 0
    }

    /// Sets the window size of the terminal `fd` belongs to (the program in it gets SIGWINCH).
    /// - Throws: EBADF when `fd` is not a terminal, or the ioctl's error.
    static func setWindowSize(_ fd: Int32, _ size: TerminalSize) throws(Errno) {
        guard isatty(fd) == 1 else { throw Errno(EBADF) }
        guard csystem_set_window_size(fd, Int32(clamping: size.columns), Int32(clamping: size.rows)) == 0 else { throw Errno.current }
    }
}
