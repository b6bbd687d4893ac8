/// Code-point equality. Swift's `String ==` (and a String's hash, so `Set<String>` and `[String: …]` keys) compares by
/// Unicode canonical equivalence: `"café"` written with U+00E9 equals `"cafe"` + U+0301. The project's documents promise
/// code-point comparison (as Java and Cucumber's reference libraries compare), so text that comes from a request or
/// from a user (a header value, a path, a tag, a scenario name, a placeholder) is compared with these instead.
extension StringProtocol {
    /// True when both hold the same Unicode scalars (the same UTF-8 bytes): no normalization.
    /// Inlinable so that each caller's String or Substring gets a specialized copy comparing contiguous bytes: across
    /// the module boundary it ran unspecialized, through witness tables per byte, and two path segments of a
    /// `urlPath` mapping cost ~13,000 instructions, most of a plain request's matching (callgrind).
    @inlinable package func sameScalars(_ other: some StringProtocol) -> Bool {
        let contiguous = utf8.withContiguousStorageIfAvailable { mine in
            other.utf8.withContiguousStorageIfAvailable { theirs in mine.elementsEqual(theirs) }
        }
        if let contiguous, let contiguous { return contiguous }
        return utf8.elementsEqual(other.utf8)
    }
}

/// A String compared and hashed by its code points, for `Set` and `Dictionary` keys where two canonically equivalent
/// spellings must stay two keys (a tag `@café` in NFC and one in NFD are two tags).
package struct ScalarKey: Hashable, Sendable, CustomStringConvertible {
    package let text: String

    package init(_ text: String) { self.text = text }

    /// Compared and hashed a buffer at a time: byte by byte, a 400 KB step text cost a debug build 0.35 s in the step
    /// catalog's memo, looked up several times per step (R7B-11).
    package static func == (left: ScalarKey, right: ScalarKey) -> Bool {
        guard left.text.utf8.count == right.text.utf8.count else { return false }
        return left.withBytes { left in right.withBytes { right in Self.equal(left, right) } }
    }

    /// Equal buffers of one length, compared eight bytes at a time.
    private static func equal(_ left: UnsafeRawBufferPointer, _ right: UnsafeRawBufferPointer) -> Bool {
        let words = left.count / 8
        for word in 0..<words {
            let offset = word * 8
            let mine = left.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if mine != right.loadUnaligned(fromByteOffset: offset, as: UInt64.self) { return false }
        }
        for byte in (words * 8)..<left.count where left[byte] != right[byte] { return false }
        return true
    }

    package func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: $0) }
    }

    /// The UTF-8 bytes of `text`, without a copy when it is stored contiguously (a native String).
    private func withBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var text = text
        return text.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    package var description: String { text }
}

extension Sequence where Element: StringProtocol {
    /// True when one element holds the same code points as `text` (``StringProtocol/sameScalars(_:)``).
    package func containsScalars(_ text: some StringProtocol) -> Bool {
        contains { $0.sameScalars(text) }
    }
}

extension String {
    /// The byte offsets at which `target` starts in the text, found by UTF-8 bytes (code points), not canonically
    /// equivalent Characters: `String.ranges(of:)` finds `<café>` (U+00E9) in `<cafe` + U+0301 + `>`; Cucumber's Java
    /// replace does not. Non-overlapping, left to right.
    package func scalarOffsets(of target: String) -> [Int] {
        let needle = Array(target.utf8)
        guard let first = needle.first else { return [] }
        let bytes = Array(utf8)
        var found: [Int] = []
        var position = 0
        while position + needle.count <= bytes.count {
            if bytes[position] == first && bytes[position..<position + needle.count].elementsEqual(needle) {
                found.append(position)
                position += needle.count
            } else {
                position += 1
            }
        }
        return found
    }

    /// The text with every occurrence of `target` (by code points, see ``scalarOffsets(of:)``) replaced. A whole
    /// UTF-8 text never starts inside another scalar (continuation bytes start none), so the result is valid text.
    package func replacingScalars(of target: String, with replacement: String) -> String {
        let offsets = scalarOffsets(of: target)
        guard !offsets.isEmpty else { return self }
        let bytes = Array(utf8)
        let length = target.utf8.count
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + offsets.count * max(0, replacement.utf8.count - length))
        var rest = 0
        for offset in offsets {
            result += bytes[rest..<offset]
            result += replacement.utf8
            rest = offset + length
        }
        result += bytes[rest...]
        return String(decoding: result, as: UTF8.self)
    }
}

extension String {
    /// When one of `others` is this text in another Unicode normalization (canonically equivalent, other code
    /// points: `é` against `e` + U+0301), a note saying so, for an error that would otherwise name two texts that look
    /// alike; "" otherwise.
    package func normalizationNote(among others: some Sequence<String>) -> String {
        guard let twin = others.first(where: { $0 == self && !$0.sameScalars(self) }) else { return "" }
        let codes = { (text: String) in
            text.unicodeScalars.filter { !$0.isASCII }.prefix(4).map { "U+" + String($0.value, radix: 16, uppercase: true) }
        }
        return " (\"\(twin.prefix(60).escapingControlCharacters())\" is the same text in another Unicode normalization: "
            + "\(codes(twin).joined(separator: " ")) there, \(codes(self).joined(separator: " ")) here; sut-launch compares code points, as Cucumber does)"
    }
}
