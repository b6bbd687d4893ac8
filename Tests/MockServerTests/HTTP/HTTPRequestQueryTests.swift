import Testing

@testable import MockServer

/// Query parameters split as WireMock splits them: at every `&` and at the first `=` of a pair, then decoded.
@Suite struct HTTPRequestQueryTests {
    private func items(_ target: String) -> [String] {
        HTTPRequest(method: "GET", target: target).queryItems.map { "\($0.name)=\($0.value)" }
    }

    @Test func pairsSplitAtAmpersandsAndTheFirstEquals() {
        #expect(items("/p") == [])
        #expect(items("/p?") == [])
        #expect(items("/p?a=1&&b=&=c&d&e=f=g") == ["a=1", "b=", "=c", "d=", "e=f=g"])
        #expect(items("/p?tag=a&tag=b") == ["tag=a", "tag=b"])
        #expect(items("/p?q=a+b%20c%2B&%41=%zz") == ["q=a b c+", "A=%zz"])
        // An ampersand before a combining mark still splits (a Character split would not see it).
        #expect(items("/p?a=1&\u{301}b=2") == ["a=1", "\u{301}b=2"])
        #expect(items("/p?é=ü&x=%C3%A9") == ["é=ü", "x=é"])
    }
}
