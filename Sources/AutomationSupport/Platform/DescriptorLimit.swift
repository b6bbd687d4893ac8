internal import CSystemShims

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (RLIMIT_NOFILE), which bounds how many connections a server can hold: past it,
/// accept() fails (EMFILE) and every new client would wait unanswered.
package enum DescriptorLimit {
    /// The soft limit now (nil when it cannot be read or is unlimited).
    package static var soft: Int? {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0, limit.rlim_cur != rlim_t.max else { return nil }
        return Int(clamping: limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one, as servers do (`serve`, which starts no program: a program under
    /// test keeps the limit it was given). Returns the soft limit afterwards.
    @discardableResult
    package static func raiseToHard() -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceNoFile, &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            // macOS refuses more than OPEN_MAX for an unlimited hard limit: keep the old soft limit then.
            _ = setrlimit(resourceNoFile, &raised)
        }
        return soft
    }

    /// The connections a server may hold at once: `configured`, or fewer when the descriptors left under the soft
    /// limit would run out first (half of them, leaving the rest for upstream connections, served files and the
    /// journal), and at least 1.
    package static func connectionCap(_ configured: Int) -> Int {
        guard let soft else { return configured }
        let open = FileSystem.list("/proc/self/fd").count
        let left = soft - (open > 0 ? open : 16)
        return max(1, min(configured, left / 2))
    }

    #if canImport(Glibc)
    private static let resourceNoFile = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceNoFile = RLIMIT_NOFILE
    #endif
}

/// One descriptor kept in reserve (on /dev/null) so that a server out of descriptors can still take a waiting
/// client off its listen queue, answer it (503) and close it, instead of leaving every new client hanging
/// unanswered: the reserve is freed for that one accept() and taken back at once.
package final class DescriptorReserve: @unchecked Sendable {
    /// The process's reserve (descriptors are a process-wide resource).
    package static let shared = DescriptorReserve()
    private let lock = Lock()
    private var spare: Int32 = -1

    /// Opens the reserve if it is not held yet (a server calls this when it starts listening).
    package func keep() {
        lock.withLock { if spare < 0 { spare = open("/dev/null", O_RDONLY | O_CLOEXEC) } }
    }

    /// Frees the reserve, accepts one client waiting on `listener`, sends it `answer` and closes it, then takes the
    /// reserve back. False when there is no reserve or no client was waiting.
    package func shed(listener: Int32, answer: [UInt8]) -> Bool {
        lock.withLock {
            guard spare >= 0 else { return false }
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 0) == 1 else { return false }
            close(spare)
            let client = csystem_accept_cloexec(listener, nil, nil)
            if client >= 0 {
                #if canImport(Glibc)
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                #else
                _ = answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) }
                #endif
                close(client)
            }
            spare = open("/dev/null", O_RDONLY | O_CLOEXEC)
            return client >= 0
        }
    }
}
