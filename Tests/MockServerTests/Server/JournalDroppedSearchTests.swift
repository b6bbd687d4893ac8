import Foundation
import Testing

@testable import MockServer

/// r10a C6: once the journal dropped old entries (its entry limit, or 32 MiB of bodies), `requests/count` and `find`
/// answered over the part kept: a request the program made was counted 0, and WireMock's `verify(0, …)` passed. Over a
/// real socket: a search that would have to see a dropped request is a 422 that says so; a listing says it in a header.
@Suite struct JournalDroppedSearchTests {
    /// One request on its own connection: the status, the head and the body.
    private func send(_ port: UInt16, _ method: String, _ path: String, json: String? = nil) throws -> (
        status: Int, head: String, body: String
    ) {
        let client = try RawClient(port: port)
        defer { client.close() }
        let payload =
            json.map { "Content-Type: application/json\r\nContent-Length: \($0.utf8.count)\r\n\r\n" + $0 } ?? "Content-Length: 0\r\n\r\n"
        client.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + payload)
        let answer = client.read()
        let split = answer.range(of: "\r\n\r\n")
        let head = split.map { String(answer[..<$0.lowerBound]) } ?? answer
        return (Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0, head, split.map { String(answer[$0.upperBound...]) } ?? "")
    }

    @Test func aSearchThatWouldMissADroppedRequestIsRefusedNotAnsweredLow() throws {
        let mock = MockServer(stubs: try StubLoader.parse(#"{"mappings": []}"#, file: "m.json"), journalLimit: 3)
        let server = TestServer(server: mock, port: try mock.start(port: 0))
        defer { server.stop() }
        let port = server.port
        _ = try send(port, "POST", "/admin/delete-everything", json: "{}")
        for index in 0..<5 { _ = try send(port, "GET", "/upload/\(index)") }
        let pattern = #"{"method": "POST", "url": "/admin/delete-everything"}"#
        let count = try send(port, "POST", "/__admin/requests/count", json: pattern)
        #expect(count.status == 422, "\(count)")
        #expect(
            count.body.contains(
                "/__admin/requests/count cannot be answered whole: the journal dropped the oldest 3 of the 6 requests received since its last reset "
                    + "(it keeps at most 3 entries and 32 MiB of bodies and headers); raise --journal-limit"), "\(count.body)")
        // Each refusal is itself journaled (a refused call), so later ones name more.
        let find = try send(port, "POST", "/__admin/requests/find", json: pattern)
        #expect(find.status == 422 && find.body.contains("the journal dropped the oldest 4 of the 7 requests"), "\(find)")
        #expect(try send(port, "GET", "/__admin/requests/unmatched").status == 422) // unexpected requests were dropped
        #expect(try send(port, "GET", "/__admin/requests/unmatched/near-misses").status == 422)
        let listing = try send(port, "GET", "/__admin/requests")
        #expect(listing.status == 200 && listing.head.contains("Sut-Launch-Journal-Dropped: 7 of 10"), "\(listing.head)")

        // After the admin API's reset, the requests since then are all kept: answered again.
        #expect(try send(port, "DELETE", "/__admin/requests").status == 200)
        _ = try send(port, "POST", "/admin/delete-everything", json: "{}")
        let counted = try send(port, "POST", "/__admin/requests/count", json: pattern)
        #expect(counted.status == 200 && counted.body == #"{"count":1}"#, "\(counted)")
        #expect(try send(port, "GET", "/__admin/requests/unmatched").status == 200)
        #expect(!(try send(port, "GET", "/__admin/requests").head.contains("Sut-Launch-Journal-Dropped")))
    }
}
