#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes sut-launch received that are not UTF-8, so that what it passes on is what it got. Swift reads argv
/// and `environ` as Strings, which replace each invalid byte with U+FFFD: an argument `a\xffb` or a variable holding
/// Latin-1 would reach the program rewritten. The launcher writes the original bytes back:
/// - a program's arguments by position (``arguments(_:)``): the words a run passes that are, word for word, the last
///   words sut-launch was given (a run's program and its arguments end its command line). Never through the repaired
///   text: `\xff\xfe` and `\xab\xcd` both read `\u{FFFD}\u{FFFD}`, and one argument got the other's bytes (R10C-8);
/// - variables by their whole `NAME=value` entry (``entries(_:)``): an inherited one (`environ`), or one given as an
///   argument (`-e K=V`, `--env=K=V`). Two different entries that read as one text, or two inherited names that read
///   as one name, cannot be told apart: ``problem(argv:environment:foundation:)`` refuses the launch, naming them.
package enum OriginalBytes {
    /// The original bytes of `string` when it is the repaired text of something sut-launch was given (an argument,
    /// the part after an argument's first `=`, a variable or its value) that was not UTF-8, else nil: what a message
    /// shows of a path or value it refuses (when several inputs read as `string`, the first).
    package static func of(_ string: String) -> [UInt8]? {
        // Only a repaired string holds U+FFFD (EF BF BD): the common case costs one scan for 0xEF.
        guard string.utf8.contains(0xEF), !known.any.isEmpty else { return nil }
        return known.any[string]
    }

    /// The original bytes of the argument that is a bundle of short options (`-fk=\xff`) whose repaired text ends
    /// with `string`, when `string` holds a U+FFFD: the value a bundled option took from an argument that was not
    /// UTF-8 (``of(_:)`` knows whole arguments and what follows their first `=` only). Nil otherwise.
    package static func bundle(endingWith string: String) -> [UInt8]? {
        guard string.utf8.contains(0xEF), !known.any.isEmpty else { return nil }
        return known.any.first { $0.key.hasPrefix("-") && !$0.key.hasPrefix("--") && $0.key.hasSuffix(string) }?.value
    }

    /// `bytes` for a message: printable ASCII as is, every other byte as `\xHH`.
    package static func shown(_ bytes: [UInt8]) -> String {
        bytes.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "\\x" + ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// For each of `words` (an argv to pass), the bytes to write where they are not its text's UTF-8: the words of the
    /// longest tail of `words` that matches the tail of sut-launch's own argv, word for word, take that argv's bytes.
    static func arguments(_ words: [String]) -> [[UInt8]?] {
        var result = [[UInt8]?](repeating: nil, count: words.count)
        guard !known.argv.isEmpty, words.contains(where: { $0.utf8.contains(0xEF) }) else { return result }
        var word = words.count - 1
        var own = known.argv.count - 1
        while word >= 0, own >= 0, words[word] == known.argv[own].text {
            if let bytes = known.argv[own].bytes { result[word] = bytes }
            word -= 1
            own -= 1
        }
        return result
    }

    /// For each `NAME=value` entry (an environment to pass), the bytes of the entry sut-launch was given that reads
    /// as it, when those are not its UTF-8 (an entry several inputs read as: nil, and ``problem(argv:environment:foundation:)``
    /// refuses it first).
    static func entries(_ entries: [String]) -> [[UInt8]?] {
        entries.map { $0.utf8.contains(0xEF) ? known.entries[$0] : nil }
    }

    /// Why `argv` and `environment` (as ``Launcher`` passes them) cannot be passed as sut-launch was given them, or
    /// nil: an entry that several different inputs read as, inherited names that read as one, and, for Foundation's
    /// launcher (`foundation`: it passes text only), any word or variable that is not UTF-8.
    static func problem(argv: [String], environment: [String], foundation: Bool) -> String? {
        let suffix = "nothing was launched"
        for entry in environment where entry.utf8.contains(0xEF) {
            let name = String(entry.prefix { $0 != "=" })
            if let names = known.collidingNames[name] {
                return "the inherited variables \(names.map(shown).joined(separator: " and ")) read as one name (their bytes are not "
                    + "UTF-8), and only one can be passed: unset or rename one; \(suffix)"
            }
            if known.ambiguous.contains(entry) {
                return "the variable \(shown(Array(name.utf8))) is not UTF-8 and another input reads as the same text: sut-launch "
                    + "cannot tell which bytes are its; give it as UTF-8; \(suffix)"
            }
            if foundation, known.entries[entry] != nil {
                return "the variable \(shown(Array(name.utf8))) holds bytes that are not UTF-8, and Foundation.Process passes text "
                    + "only (it would send U+FFFD): use the default launcher (--launcher spawn); \(suffix)"
            }
        }
        if foundation {
            for (index, bytes) in arguments(argv).enumerated() where bytes != nil {
                return "argument \(index) (\(shown(bytes!))) is not UTF-8, and Foundation.Process passes text only (it would "
                    + "send U+FFFD): use the default launcher (--launcher spawn); \(suffix)"
            }
        }
        return nil
    }

    /// What was read once from argv and `environ`.
    private struct Known {
        /// sut-launch's own argv: each word's text, and its bytes when they are not UTF-8.
        var argv: [(text: String, bytes: [UInt8]?)] = []
        /// Entry text to bytes: every `environ` entry and every argument (`-e K=V`) and argument's part after its
        /// first `=` (`--env=K=V`) that is not UTF-8, unless another input reads as the same text.
        var entries: [String: [UInt8]] = [:]
        /// Texts several different inputs read as.
        var ambiguous: Set<String> = []
        /// Every input not UTF-8 (arguments, their parts after `=`, entries, values), for messages.
        var any: [String: [UInt8]] = [:]
        /// Inherited names that read as one (`K\xff`, `K\xfe`), by that text.
        var collidingNames: [String: [[UInt8]]] = [:]
    }

    private static let known: Known = {
        var known = Known()
        var entryInputs: [[UInt8]] = []
        var values: [[UInt8]] = []
        for index in 0..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = bytes(argument)
            let text = String(decoding: bytes, as: UTF8.self)
            known.argv.append((text, text.utf8.elementsEqual(bytes) ? nil : bytes))
            entryInputs.append(bytes)
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) { entryInputs.append(Array(bytes[(equals + 1)...])) }
        }
        #if canImport(Darwin)
        let environment = _NSGetEnviron()?.pointee
        #else
        let environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        #endif
        var names: [String: [[UInt8]]] = [:]
        if let environment {
            var index = 0
            while let entry = environment[index] {
                let bytes = bytes(entry)
                entryInputs.append(bytes)
                if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                    values.append(Array(bytes[(equals + 1)...]))
                    let name = Array(bytes[..<equals])
                    let text = String(decoding: name, as: UTF8.self)
                    if !(names[text] ?? []).contains(name) { names[text, default: []].append(name) }
                }
                index += 1
            }
        }
        known.collidingNames = names.filter { $0.value.count > 1 }
        var valid: Set<String> = []
        for bytes in entryInputs {
            let text = String(decoding: bytes, as: UTF8.self)
            if text.utf8.elementsEqual(bytes) {
                valid.insert(text)
            } else if let earlier = known.entries[text], earlier != bytes {
                known.ambiguous.insert(text)
            } else {
                known.entries[text] = bytes
            }
        }
        // A repaired text that is also valid input (`\xff` beside a real U+FFFD) is ambiguous too.
        for text in valid where known.entries[text] != nil { known.ambiguous.insert(text) }
        for text in known.ambiguous { known.entries[text] = nil }
        for bytes in entryInputs + values {
            let text = String(decoding: bytes, as: UTF8.self)
            if known.any[text] == nil, !text.utf8.elementsEqual(bytes) { known.any[text] = bytes }
        }
        return known
    }()

    private static func bytes(_ pointer: UnsafeMutablePointer<CChar>) -> [UInt8] {
        Array(UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
    }
}
