import Foundation
import Testing

@testable import AutomationSupport

/// Base64 and form encoding as Java writes and reads them, checked against Foundation's base64 and Python-checked
/// `URLEncoder` outputs; `String.split` on one character as Java splits.
@Suite struct WebEncodingsTests {
    @Test func base64AsJavaWritesAndGuavaReads() {
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 37 + 11) }
            let padded = Base64Text.encode(bytes)
            #expect(padded == Data(bytes).base64EncodedString())
            #expect(Base64Text.decode(padded) == bytes)
            let bare = Base64Text.encode(bytes, padding: false)
            #expect(!bare.contains("=") && Base64Text.decode(bare) == bytes)
        }
        for bad in ["%%%", "a", "aGVs bG8=", "aGVsbG8=\n", "aGVs-G8", "aGVsbG8=x"] { #expect(Base64Text.decode(bad) == nil, "\(bad)") }
    }

    @Test func formEncodingAsURLEncoderAndURLDecoder() {
        #expect(FormEncoding.encode("a b&c=d/é~*._-") == "a+b%26c%3Dd%2F%C3%A9%7E*._-")
        #expect(FormEncoding.encode("\r\n😀") == "%0D%0A%F0%9F%98%80")
        #expect(FormEncoding.decode("a+b%20c%C3%A9") == "a b cé")
        #expect(FormEncoding.decode("%FF") == "\u{FFFD}")
        for bad in ["%", "%2", "%zz", "a%2g"] { #expect(FormEncoding.decode(bad) == nil, "\(bad)") }
        let cases: [(String, [String])] = [
            ("", [""]), ("a", ["a"]), ("a&b", ["a", "b"]), ("a&&b", ["a", "", "b"]), ("a&b&&", ["a", "b"]), ("&a", ["", "a"]), ("&&", []),
        ]
        for (text, parts) in cases { #expect(FormEncoding.javaSplit(text, UInt8(ascii: "&")) == parts, "\(text)") }
    }
}
