import Foundation
import Testing

@testable import MockServer

/// Escapes decoded as WireMock 2.35 decodes them: Java's UTF-8 decoder (one U+FFFD per malformed sequence as Java
/// counts them), and the strict reading its server (Jetty) applies to the query of a request no mapping matches.
@Suite struct PercentEncodingTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/java-utf8/decoded.txt")

    /// 1,000 sequences of the bytes that matter, as Java 17 read them (Fixtures/java-utf8/JavaUTF8.java made the file:
    /// `java JavaUTF8 1000 2026`).
    @Test func malformedUTF8ReadsAsJavaReadsIt() throws {
        let lines = try String(contentsOf: Self.fixture, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1000)
        for line in lines {
            let fields = line.split(separator: " ")
            let hex = Array(fields[0])
            let bytes = stride(from: 0, to: hex.count, by: 2).map { UInt8(String(hex[$0...$0 + 1]), radix: 16)! }
            let expected = fields.dropFirst().map { String($0) }
            let actual = PercentEncoding.javaText(bytes).unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }
            #expect(actual == expected, "bytes \(fields[0])")
        }
    }

    @Test func queryEscapesDecodeAsJavasURLDecoderDecodesThem() {
        func value(_ query: String) -> String { HTTPRequest(method: "GET", target: "/p?a=" + query).queryItems.first?.value ?? "-" }
        #expect(value("%ED%A0%80") == "\u{FFFD}") // an encoded surrogate: one, not three
        #expect(value("%ED%A0") == "\u{FFFD}")
        #expect(value("%E0%80%80") == "\u{FFFD}\u{FFFD}\u{FFFD}")
        #expect(value("%F0%90%80x") == "\u{FFFD}x")
        #expect(value("%E2%82%AC%80") == "€\u{FFFD}")
        #expect(HTTPRequest(method: "GET", target: "/enc/%ED%A0%80").decodedPath == "/enc/\u{FFFD}")
    }

    /// What WireMock answers 400 ("Bad query encoding") when no mapping matches, and what it reads (r9a B9).
    @Test func theStrictReadingRefusesWhatJettyRefuses() {
        for query in [
            "a=%ED%A0%80", "a=%E0%80%80", "a=%C0%AF", "a=%F4%90%80%80", "a=%F0%80%80%80", "a=%ED%A0", "a=%C3%C3", "a=%C3%41",
            "a=%C3+", "a=%FF", "a=%80", "a=%C3=1", "a=%F5", "b=1&%C0%AF=1",
        ] {
            #expect(PercentEncoding.strictlyUnreadable(query) != nil, "\(query)")
        }
        for query in [
            "a=%C3", "a=%E0%A0", "a=%F0%90%80", "a=x", "a=%C3&b=1", "%C3=1", "a=%E0%A0&b", "a=%C3%A9%C3", "a=%EF%BF%BF", "&&", "",
        ] {
            #expect(PercentEncoding.strictlyUnreadable(query) == nil, "\(query)")
        }
        #expect(PercentEncoding.strictlyUnreadable("x=1&a=%ED%A0%80") == "%ED%A0%80")
    }
}
