import AutomationSupport
import MockServer

// WireMock's request matchers as a mapping file and a client meet them: line 1 is a mapping's `request` object (date
// matchers with their formats and truncations, hasExactly/includes, basicAuthCredentials, binaryEqualTo,
// multipartPatterns…), line 2 a value sent as the X-Value header (twice: the first and the second line of a
// multi-value), as the Authorization header and as the query parameter q, line 3 the Content-Type, the rest the
// body (a multipart body, split as FileUpload splits it). The mapping loads or is refused by name; the request is
// answered (matched, or a 404 with its near miss). Each input must end within 5 s.
extension FuzzTargets {
    static func matchWireMock(_ bytes: [UInt8]) {
        let started = MonotonicClock.milliseconds()
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false).map(
            String.init)
        let part = { (index: Int) in parts.count > index ? parts[index] : "" }
        let mapping = #"{"request": \#(part(0).isEmpty ? "{}" : part(0)), "response": {"body": "matched"}}"#
        guard let stubs = try? StubLoader.parse(mapping, file: "fuzz.json") else { return }
        let server = MockServer(stubs: stubs)
        let value = part(1)
        let query = value.utf8.map { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded(2)
        }.joined()
        let headers = HTTPHeaders([
            (name: "X-Value", value: value), (name: "X-Value", value: part(2)), (name: "Authorization", value: value),
            (name: "Content-Type", value: part(2)),
        ])
        _ = server.handle(HTTPRequest(method: "POST", target: "/fuzz?q=\(query)&q=\(query)", headers: headers, body: Array(part(3).utf8)))
        let elapsed = MonotonicClock.milliseconds() - started
        FuzzTargets.checkTime(elapsed, limitMs: 5_000, "a mapping and request of \(bytes.count) bytes took \(Int(elapsed)) ms")
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
