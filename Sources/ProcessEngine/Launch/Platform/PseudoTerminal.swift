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

    /// Sets the window size of the terminal `fd` belongs to (the program in it gets SIGWINCH).
    /// - Throws: EBADF when `fd` is not a terminal, or the ioctl's error.
    static func setWindowSize(_ fd: Int32, _ size: TerminalSize) throws(Errno) {
        guard isatty(fd) == 1 else { throw Errno(EBADF) }
        guard csystem_set_window_size(fd, Int32(clamping: size.columns), Int32(clamping: size.rows)) == 0 else { throw Errno.current }
    }
}
