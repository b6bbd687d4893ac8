import Testing

@testable import MockServer

/// What a request holds that WireMock reads its own way (Jetty, Java's URLDecoder), each held against the jar in the
/// differential test too (`matching_script.py`); here without Java.
@Suite struct RequestTextTests {
    static let mappings = #"""
        {"mappings": [
          {"request": {"method": "GET", "urlPath": "/q", "queryParameters": {"a": {"equalTo": "1"}}}, "response": {"body": "q"}},
          {"request": {"method": "GET", "urlPath": "/plain"}, "response": {"body": "plain"}},
          {"request": {"method": "GET", "urlPath": "/c", "cookies": {"s": {"equalTo": "1"}}}, "response": {"body": "c"}},
          {"request": {"method": "GET", "url": "/u?a=1"}, "response": {"body": "u"}},
          {"request": {"method": "GET", "urlPath": "/ci", "queryParameters": {"a": {"equalTo": "İstanbul", "caseInsensitive": true}}},
           "response": {"body": "ci"}},
          {"request": {"method": "POST", "urlPath": "/ct", "bodyPatterns": [{"contains": "Needle", "caseInsensitive": true}]},
           "response": {"body": "ct"}}
        ]}
        """#

    private func exchange(_ server: TestServer, _ head: String, body: String = "") throws -> String {
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(head + "Host: x\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
        return client.read(timeout: 10)
    }

    @Test func aBadPercentEscapeInTheQueryIsRefusedByNameWhateverTheMapping() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        for target in ["/q?a=%zz&a=1", "/q?a=1%", "/plain?x=%4", "/plain?%g1=2"] {
            let answer = try exchange(server, "GET \(target) HTTP/1.1\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 400"), "\(target): \(answer)")
            #expect(answer.contains("not a percent escape (% and two hex digits): encode % as %25"), "\(target): \(answer)")
        }
        #expect(server.server.summary.unexpectedTotal == 4)
        #expect(try exchange(server, "GET /q?a=%31 HTTP/1.1\r\n").hasSuffix("\r\n\r\nq"))
    }

    @Test func aQuotedCookieIsItsValueAndAFragmentIsDropped() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        #expect(try exchange(server, "GET /c HTTP/1.1\r\nCookie: t=2; s=\"1\"\r\n").hasSuffix("\r\n\r\nc"))
        #expect(try exchange(server, "GET /c HTTP/1.1\r\nCookie: s=\"1\r\n").hasPrefix("HTTP/1.1 404"))
        #expect(try exchange(server, "GET /u?a=1#frag HTTP/1.1\r\n").hasSuffix("\r\n\r\nu"))
    }

    @Test func caseInsensitiveIsJavasAndContainsIgnoresIt() throws {
        let server = try TestServer(Self.mappings)
        defer { server.stop() }
        for value in ["istanbul", "ISTANBUL", "%C4%B1stanbul"] {
            #expect(try exchange(server, "GET /ci?a=\(value) HTTP/1.1\r\n").hasSuffix("\r\n\r\nci"), "\(value)")
        }
        #expect(try exchange(server, "GET /ci?a=i%CC%87stanbul HTTP/1.1\r\n").hasPrefix("HTTP/1.1 404"))
        #expect(try exchange(server, "POST /ct HTTP/1.1\r\n", body: "a Needle").hasSuffix("\r\n\r\nct"))
        #expect(try exchange(server, "POST /ct HTTP/1.1\r\n", body: "a needle").hasPrefix("HTTP/1.1 404"))
    }
}
