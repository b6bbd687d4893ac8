import AutomationSupport
import Testing

/// `javaEqualsIgnoringCase` is Java 17's `String.equalsIgnoreCase`, which WireMock's `equalTo` with `caseInsensitive`
/// calls: the pairs below are every pair of these texts WireMock 2.35 (on Java 17) found equal, asked as query values.
@Suite struct JavaCaseFoldingTests {
    static let texts = [
        "i", "I", "\u{130}", "\u{131}", "k", "K", "\u{212A}", "s", "S", "\u{17F}", "\u{B5}", "\u{39C}", "\u{3BC}", "\u{DF}", "SS", "ss",
        "\u{1E9E}", "\u{FF}", "\u{178}", "\u{1C5}", "\u{1C4}", "\u{1C6}", "\u{3C2}", "\u{3C3}", "\u{3A3}", "\u{1F80}", "\u{1F88}",
        "\u{1FB3}", "\u{1FBC}", "\u{FB00}", "ff", "\u{345}", "\u{3B9}", "\u{399}", "\u{1FBE}", "\u{2126}", "\u{3C9}", "\u{C5}",
        "\u{212B}", "\u{E5}", "\u{10400}", "\u{10428}", "I\u{307}", "i\u{307}", "\u{1E9B}", "\u{1E61}",
    ]
    static let equal: [[String]] = [ // an array: a Set would merge canonically equivalent pairs
        ["I", "i"], ["I", "\u{130}"], ["I", "\u{131}"], ["I\u{307}", "i\u{307}"], ["K", "k"], ["K", "\u{212A}"], ["S", "s"],
        ["S", "\u{17F}"], ["SS", "ss"], ["i", "\u{130}"], ["i", "\u{131}"], ["k", "\u{212A}"], ["s", "\u{17F}"], ["\u{B5}", "\u{39C}"],
        ["\u{B5}", "\u{3BC}"], ["\u{C5}", "\u{E5}"], ["\u{C5}", "\u{212B}"], ["\u{DF}", "\u{1E9E}"], ["\u{E5}", "\u{212B}"],
        ["\u{FF}", "\u{178}"], ["\u{130}", "\u{131}"], ["\u{1C4}", "\u{1C5}"], ["\u{1C4}", "\u{1C6}"], ["\u{1C5}", "\u{1C6}"],
        ["\u{345}", "\u{399}"], ["\u{345}", "\u{3B9}"], ["\u{345}", "\u{1FBE}"], ["\u{399}", "\u{3B9}"], ["\u{399}", "\u{1FBE}"],
        ["\u{39C}", "\u{3BC}"], ["\u{3A3}", "\u{3C2}"], ["\u{3A3}", "\u{3C3}"], ["\u{3B9}", "\u{1FBE}"], ["\u{3C2}", "\u{3C3}"],
        ["\u{3C9}", "\u{2126}"], ["\u{1E61}", "\u{1E9B}"], ["\u{1F80}", "\u{1F88}"], ["\u{1FB3}", "\u{1FBC}"], ["\u{10400}", "\u{10428}"],
    ]

    /// Compared by code point, as Java compares: Swift's `==` finds `İ` and `I` + U+0307, or the Ohm sign and `Ω`,
    /// canonically equivalent, the same text.
    private static func scalars(_ text: String) -> [UInt32] { text.unicodeScalars.map(\.value) }

    @Test func everyPairIsDecidedAsJavaDecidesIt() {
        let equal = Set(Self.equal.map { $0.map(Self.scalars) })
        for left in Self.texts {
            for right in Self.texts {
                let (one, other) = (Self.scalars(left), Self.scalars(right))
                let expected = one == other || equal.contains([one, other]) || equal.contains([other, one])
                #expect(left.javaEqualsIgnoringCase(right) == expected, "\(one) \(other)")
            }
        }
    }

    @Test func wordsCompareCharacterByCharacterAfterTheirLengths() {
        #expect("İSTANBUL".javaEqualsIgnoringCase("istanbul"))
        #expect("ıstanbul".javaEqualsIgnoringCase("ISTANBUL"))
        #expect(!"Straße".javaEqualsIgnoringCase("STRASSE")) // ß has no one-character upper case
        #expect(!"i\u{307}stanbul".javaEqualsIgnoringCase("İstanbul")) // two UTF-16 units against one
        #expect("\u{10428}x".javaEqualsIgnoringCase("\u{10400}X")) // by code point past the BMP (JDK 16 and later)
        #expect(!"abc".javaEqualsIgnoringCase("abd") && !"abc".javaEqualsIgnoringCase("ab") && "".javaEqualsIgnoringCase(""))
    }
}
