#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The program's output passed through to fd 1 and 2, and whether its last line there is left open: sut-launch's own
/// lines (an error, the mock server's summary) start on a line of their own, the program's bytes unchanged (R10C-11:
/// `partialsut-launch: error: sh timed out…`, and on GitHub a program's `::warning::x` carried sut-launch's summary as
/// its message). Fd 1 and 2 on one file, pipe or terminal (`2>&1`, a console) are one stream here.
extension StandardStreams {
    private struct ProgramLines {
        /// The streams (1, or 2 when it is not where 1 goes) whose last byte from the program was not a newline.
        var open: Set<Int32> = []
        /// Whether fd 2 leads where fd 1 does; nil until the program's first output.
        var shared: Bool?
    }
    private static let programLines = Locked(ProgramLines())

    /// Writes the program's output `bytes` to `fd` (1 or 2) as ``write(_:to:)`` does, and remembers whether what was
    /// written ended its line.
    package static func passOn(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Outcome {
        let outcome = write(bytes, to: fd)
        var written = 0
        switch outcome {
        case .written: written = bytes.count
        case .stalled(let left): written = bytes.count - left
        case .readerGone, .failed: written = 0
        }
        guard written > 0 else { return outcome }
        let ended = bytes[written - 1] == UInt8(ascii: "\n")
        programLines.withLock { lines in
            if lines.shared == nil { lines.shared = sameDestination(1, 2) }
            let stream = stream(of: fd, lines)
            if ended { lines.open.remove(stream) } else { lines.open.insert(stream) }
        }
        return outcome
    }

    /// True when the program's last byte to where `fd` leads left a line open; the line counts as closed from now on
    /// (the caller writes the newline).
    static func closeProgramLine(on fd: Int32) -> Bool {
        programLines.withLock { lines in
            guard lines.shared != nil else { return false }
            return lines.open.remove(stream(of: fd, lines)) != nil
        }
    }

    private static func stream(of fd: Int32, _ lines: ProgramLines) -> Int32 { fd == 2 && lines.shared == true ? 1 : fd }

    /// Whether two descriptors lead to one file, pipe or terminal (device and inode alike).
    private static func sameDestination(_ first: Int32, _ second: Int32) -> Bool {
        var a = stat()
        var b = stat()
        guard fstat(first, &a) == 0, fstat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }
}
