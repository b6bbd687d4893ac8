import AutomationSupport

/// What may stand outside the PEM blocks of a certificate or key file (`--https-cert`, `--https-key`). OpenSSL skips
/// every line outside a block, so text there is read as nothing: a damaged boundary (`-----BEGIN CERTIFICATE----`),
/// a base64 line that lost its block, a word typed into the file, and with them whatever they were meant to be, were
/// served without a word (r9d). What OpenSSL's own tools and common bundles write there is kept: blank lines, `#`
/// comments, indented lines, and `openssl pkcs12` / `openssl x509 -text` annotations (`Bag Attributes`,
/// `Key Attributes: …`, `subject=…`, `issuer=…`, `Certificate:`); any other line outside a block is refused by number.
package enum PEMLayout {
    /// The first line outside every block that is none of the annotations above: its number (from 1) and its text.
    /// Nil for a file without any block: what it lacks (no certificate, no key) is the better refusal.
    package static func strayLine(in bytes: [UInt8]) -> (line: Int, text: String)? {
        var inside = false
        var sawBlock = false
        var stray: (line: Int, text: String)?
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            var line = raw[...]
            while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
                line = line.dropLast()
            }
            let text = String(decoding: line, as: UTF8.self)
            if inside {
                if text.hasPrefix("-----END ") { inside = false }
                continue
            }
            if text.hasPrefix("-----BEGIN "), text.hasSuffix("-----"), text.count > "-----BEGIN -----".count {
                inside = true
                sawBlock = true
                continue
            }
            if stray == nil, !isAnnotation(text) { stray = (number, text) }
        }
        return sawBlock ? stray : nil
    }

    /// The text a refusal of `stray` says after the file and line.
    package static func refusal(_ stray: (line: Int, text: String)) -> String {
        let shown = stray.text.count > 80 ? stray.text.prefix(80) + "…" : Substring(stray.text)
        return "text outside a PEM block (\"\(String(shown).escapingControlCharacters())\"): OpenSSL skips such a line, so what it "
            + "was meant to be is not read; remove it, or make it a comment (#)"
    }

    private static let annotations = ["#", "Bag Attributes", "Key Attributes", "subject=", "issuer=", "Certificate:"]

    private static func isAnnotation(_ line: String) -> Bool {
        if line.allSatisfy({ $0 == " " || $0 == "\t" }) { return true }
        if line.hasPrefix(" ") || line.hasPrefix("\t") { return true }
        return annotations.contains { line.hasPrefix($0) }
    }
}
