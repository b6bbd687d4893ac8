#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension RootedDirectory {
    /// Puts the entry `staged` (made whole in this directory) at `name`, replacing whatever stood there (an older
    /// run's directory, a file, a link: moved aside, then removed whole, never followed). Readers see the old entry
    /// or the new one, never a mix of both.
    /// - Throws: when either rename fails; `staged` is then removed.
    package func replace(_ name: String, with staged: String) throws(Error) {
        let aside = ".sut-\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).old"
        var info = stat()
        let existed = fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
        if existed, renameat(descriptor, name, descriptor, aside) != 0 {
            let code = errno
            remove(entry: Array(staged.utf8CString))
            throw Error("cannot replace \(describe(name, in: "")): \(Self.reason(code))")
        }
        guard renameat(descriptor, staged, descriptor, name) == 0 else {
            let code = errno
            remove(entry: Array(staged.utf8CString))
            if existed { renameat(descriptor, aside, descriptor, name) }
            throw Error("cannot write \(describe(name, in: "")): \(Self.reason(code))")
        }
        if existed { remove(entry: Array(aside.utf8CString)) }
    }
}
