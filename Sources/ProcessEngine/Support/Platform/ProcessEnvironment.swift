#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The current process's environment, read from `environ`.
package enum ProcessEnvironment {
    /// Every `NAME=value` entry of `environ` now (an entry without `=` is skipped; a later duplicate wins).
    package static var current: [String: String] {
        #if canImport(Darwin)
        guard let start = _NSGetEnviron()?.pointee else { return [:] } // the documented accessor for programs on Darwin
        #else
        let environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ // NULL after clearenv()
        guard let start = environment else { return [:] }
        #endif
        var count = 0
        while start[count] != nil { count += 1 }
        // Sized once, and split on the bytes: no Character walk, no rehash as it grows (it is on every launch's path).
        var result: [String: String] = Dictionary(minimumCapacity: count)
        for index in 0..<count {
            let entry = UnsafeRawPointer(start[index]!).assumingMemoryBound(to: UInt8.self)
            let length = strlen(start[index]!)
            guard let equals = memchr(entry, Int32(UInt8(ascii: "=")), length) else { continue }
            let keyLength = UnsafeRawPointer(equals) - UnsafeRawPointer(entry)
            let key = String(decoding: UnsafeBufferPointer(start: entry, count: keyLength), as: UTF8.self)
            let value = String(decoding: UnsafeBufferPointer(start: entry + keyLength + 1, count: length - keyLength - 1), as: UTF8.self)
            result[key] = value
        }
        return result
    }
}
