import AutomationSupport
import Testing

/// The allocation-free comparisons header lookups use agree with `lowercased()`, on ASCII and beyond.
@Suite struct CaseInsensitiveTests {
    @Test func equalityAgreesWithLowercased() {
        let words = [
            "", "a", "A", "Host", "HOST", "host", "hosT ", "Content-Type", "content-type", "content_type", "@", "`", "[", "{",
            "K", "k", "\u{212A}", "İ", "i̇", "i", "ß", "SS", "Straße", "STRASSE", "é", "É", "e\u{301}", "x\u{212A}", "xk", "\u{0}",
        ]
        for left in words {
            for right in words {
                #expect(
                    left.equalsIgnoringCase(right) == (left.lowercased() == right.lowercased()),
                    "\(left.debugDescription) \(right.debugDescription)")
            }
        }
    }

    @Test func prefixAgreesWithLowercased() {
        for text in [
            "multipart/form-data", "Multipart/Mixed", "MULTIPART/", "multipart", "multipar", "", "form-data; name=x", "FORM-DATA",
            "\u{212A}ultipart/", "İmultipart/", "multipart\u{301}/",
        ] {
            for prefix in ["multipart/", "form-data", ""] {
                #expect(
                    text.hasASCIIPrefixIgnoringCase(prefix) == text.lowercased().hasPrefix(prefix), "\(text.debugDescription) \(prefix)")
            }
        }
    }
}
