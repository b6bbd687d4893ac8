/// A file or directory name made from text the user wrote (a feature or scenario name): one path component,
/// at most ``byteLimit`` bytes of UTF-8, never `.`/`..`, no separators or control characters. When the text had
/// to change, a short hash of the whole text is added, so two names that differ only where they were cut or
/// cleaned (or only by case, which some file systems fold) still get two names, the same on every run.
package enum FileName {
    /// Below the 255 bytes a name may have, leaving room for a suffix such as `-stdout.txt`.
    package static let byteLimit = 200

    /// `Login: a user / line 12` → `Login_ a user _ line 12-1a2b3c4d`; `it fails line 2` stays as it is.
    package static func component(_ text: String, byteLimit: Int = byteLimit) -> String {
        let cleaned = clean(text)
        if cleaned == text && cleaned.utf8.count <= byteLimit && !cleaned.isEmpty && cleaned != "." && cleaned != ".." {
            return cleaned
        }
        return component(text, key: text, byteLimit: byteLimit)
    }

    /// `text` cleaned and cut, always followed by the hash of `key` (what makes the name unique, such as the
    /// feature file's path): `Login-1a2b3c4d`, so "Login" and "login" from two files never share a directory.
    package static func component(_ text: String, key: String, byteLimit: Int = byteLimit) -> String {
        let suffix = "-" + hash(key)
        return cut(clean(text), toBytes: byteLimit - suffix.utf8.count) + suffix
    }

    /// Separators, `:` and control characters (C0, DEL, C1, line and paragraph separators) become `_`, and so does a
    /// leading `.`: a hidden name is left out of `ls` and of the CI's upload of the directory (R10B-9: upload-artifact
    /// skips hidden files by default).
    private static func clean(_ text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let unsafe =
                scalar == "/" || scalar == "\\" || scalar == ":" || scalar.value < 0x20 || scalar.value == 0x7F
                || (0x80...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
                || (scalar == "." && cleaned.isEmpty)
            cleaned.append(unsafe ? "_" : scalar)
        }
        return String(cleaned)
    }

    /// The longest prefix of `text` of at most `limit` bytes that ends on a character boundary.
    package static func cut(_ text: String, toBytes limit: Int) -> String {
        if text.utf8.count <= limit { return text }
        var result = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            if bytes + size > limit { break }
            result.append(character)
            bytes += size
        }
        return result
    }

    /// Eight hex digits of FNV-1a over the UTF-8 bytes: stable across runs and machines.
    package static func hash(_ text: String) -> String {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let folded = UInt32(truncatingIfNeeded: value ^ (value >> 32))
        let hex = String(folded, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
