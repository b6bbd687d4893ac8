import AutomationSupport
import Testing

/// Code-point equality, hashing and replacement: NFD is not NFC (Swift's `==` says it is), the same text is.
@Suite struct ScalarEqualityTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    @Test func canonicallyEquivalentTextsAreTwoTexts() {
        #expect(Self.nfc == Self.nfd) // what Swift's String == says, and why these helpers exist
        #expect(!Self.nfc.sameScalars(Self.nfd))
        #expect(Self.nfd.sameScalars("cafe\u{301}"))
        #expect(Set([ScalarKey(Self.nfc), ScalarKey(Self.nfd)]).count == 2)
        #expect(Set([ScalarKey(Self.nfc), ScalarKey("caf\u{E9}")]).count == 1)
        #expect([Self.nfd].containsScalars(Self.nfd) && ![Self.nfd].containsScalars(Self.nfc))
        // The Kelvin sign is canonically K; the Angstrom sign is canonically Å.
        #expect(!"\u{212A}".sameScalars("K") && !"\u{212B}".sameScalars("\u{C5}"))
    }

    @Test func replacementFindsBytesNotCharacters() {
        let text = "<\(Self.nfd)> and <\(Self.nfc)>"
        #expect(text.replacingScalars(of: "<\(Self.nfc)>", with: "1") == "<\(Self.nfd)> and 1")
        #expect(text.replacingScalars(of: "<\(Self.nfd)>", with: "2").sameScalars("2 and <\(Self.nfc)>"))
        #expect(text.scalarOffsets(of: "<").count == 2)
        // Inside one Character: `>` followed by a combining mark is one Character, and still found.
        #expect("<a>\u{301}".replacingScalars(of: "<a>", with: "x").sameScalars("x\u{301}"))
        #expect("aaa".replacingScalars(of: "aa", with: "b") == "ba")
        #expect("abc".replacingScalars(of: "", with: "x") == "abc")
    }

    @Test func aNoteSaysWhenTwoNamesDifferOnlyInNormalization() {
        #expect(Self.nfc.normalizationNote(among: [Self.nfd]).contains("another Unicode normalization"))
        #expect(Self.nfc.normalizationNote(among: [Self.nfc, "other"]).isEmpty)
    }
}
