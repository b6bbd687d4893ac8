#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes sut-launch received that are not UTF-8, so that what it passes on is what it got. Swift reads argv
/// and `environ` as Strings, which replace each invalid byte with U+FFFD: an argument `a\xffb` or a variable holding
/// Latin-1 would reach the program rewritten. Each argv element, each `NAME=value` entry, the value after an
/// argument's first `=` (`--env K=V`, `--env=K=V`), and each value alone, that is not UTF-8, is kept here under its
/// repaired text; the launcher writes the original bytes for a string it finds here. A repaired text that also
/// occurs as valid UTF-8 in the same input (`\xff` beside a real U+FFFD) is ambiguous and left repaired.
package enum OriginalBytes {
    /// The original bytes of `string` when it is the repaired text of an input that was not UTF-8, else nil.
    package static func of(_ string: String) -> [UInt8]? {
        // Only a repaired string holds U+FFFD (EF BF BD): the common case costs one scan for 0xEF.
        guard string.utf8.contains(0xEF), !table.isEmpty else { return nil }
        return table[string]
    }

    /// The original bytes of the argument that is a bundle of short options (`-fk=\xff`) whose repaired text ends
    /// with `string`, when `string` holds a U+FFFD: the value a bundled option took from an argument that was not
    /// UTF-8 (``of(_:)`` knows whole arguments and what follows their first `=` only). Nil otherwise.
    package static func bundle(endingWith string: String) -> [UInt8]? {
        guard string.utf8.contains(0xEF), !table.isEmpty else { return nil }
        return table.first { $0.key.hasPrefix("-") && !$0.key.hasPrefix("--") && $0.key.hasSuffix(string) }?.value
    }

    /// `bytes` for a message: printable ASCII as is, every other byte as `\xHH`.
    package static func shown(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// Repaired text to original bytes, read once.
    private static let table: [String: [UInt8]] = {
        var inputs: [[UInt8]] = []
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(
                UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument)))
            inputs.append(bytes)
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) { inputs.append(Array(bytes[(equals + 1)...])) }
        }
        #if canImport(Darwin)
        let environment = _NSGetEnviron()?.pointee
        #else
        let environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        if let environment {
            var index = 0
            while let entry = environment[index] {
                let bytes = Array(
                    UnsafeBufferPointer(start: UnsafeRawPointer(entry).assumingMemoryBound(to: UInt8.self), count: strlen(entry)))
                inputs.append(bytes)
                if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) { inputs.append(Array(bytes[(equals + 1)...])) }
                index += 1
            }
        }
        var table: [String: [UInt8]] = [:]
        var valid: Set<String> = []
        for bytes in inputs {
            let repaired = String(decoding: bytes, as: UTF8.self)
            if repaired.utf8.elementsEqual(bytes) {
                valid.insert(repaired)
            } else {
                table[repaired] = bytes
            }
        }
        for text in valid { table[text] = nil }
        return table
    }()
}
