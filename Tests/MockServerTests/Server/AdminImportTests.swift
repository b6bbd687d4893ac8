import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// `POST /__admin/mappings/import` (the network attack's F6: 2,000 mappings took 69 s, each one rebuilding the router):
/// one router per import, the same results as adding them one by one.
@Suite struct AdminImportTests {
    private func post(_ server: MockServer, _ path: String, _ body: String) -> Int {
        server.handle(
            HTTPRequest(
                method: "POST", target: path, headers: ["Host": "127.0.0.1", "Content-Type": "application/json"], body: Array(body.utf8))
        ).status
    }

    private func body(_ server: MockServer, _ path: String) -> String {
        String(decoding: server.handle(HTTPRequest(method: "GET", target: path)).body, as: UTF8.self)
    }

    /// 10,000 mappings in one import: linear now (about a second in a debug build; quadratic it was half an hour), so a
    /// bound this generous still tells the two apart.
    @Test func tenThousandMappingsImportInLinearTime() throws {
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1")
        let mappings = (0..<10_000).map { #"{"request": {"url": "/n\#($0)"}, "response": {"body": "m\#($0)"}}"# }
        let started = MonotonicClock.milliseconds()
        #expect(post(server, "/__admin/mappings/import", #"{"mappings": ["# + mappings.joined(separator: ",") + "]}") == 200)
        #expect(MonotonicClock.milliseconds() - started < 60_000)
        #expect(server.parts.stubs.snapshot().stubs.count == 10_000)
        #expect(body(server, "/n0") == "m0" && body(server, "/n9999") == "m9999")
    }

    /// Ids within one import and against the mappings already there: OVERWRITE replaces (the last one given wins), IGNORE
    /// keeps the first; a replaced mapping no longer answers.
    @Test func idsAreReplacedOrKeptAsOneByOne() throws {
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1")
        let id = "11111111-2222-3333-4444-555555555555"
        let other = "aaaaaaaa-2222-3333-4444-555555555555"
        #expect(post(server, "/__admin/mappings", #"{"id": "\#(id)", "request": {"url": "/old"}, "response": {"body": "old"}}"#) == 201)
        let overwrite =
            #"{"mappings": [{"id": "\#(id)", "request": {"url": "/a"}, "response": {"body": "first"}}, {"id": "\#(id)", "request": {"url": "/a"}, "response": {"body": "second"}}, {"id": "\#(other)", "request": {"url": "/b"}, "response": {"body": "b"}}]}"#
        #expect(post(server, "/__admin/mappings/import", overwrite) == 200)
        #expect(server.parts.stubs.snapshot().stubs.count == 2)
        // The list's first of two with one id is kept, as WireMock 2.35 imports (last mapping first; r10a C4).
        #expect(body(server, "/a") == "first" && body(server, "/b") == "b")
        #expect(server.handle(HTTPRequest(method: "GET", target: "/old")).status == 404)
        let ignore =
            #"{"mappings": [{"id": "\#(id)", "request": {"url": "/a"}, "response": {"body": "third"}}, {"request": {"url": "/c"}, "response": {"body": "c"}}], "importOptions": {"duplicatePolicy": "IGNORE"}}"#
        #expect(post(server, "/__admin/mappings/import", ignore) == 200)
        #expect(server.parts.stubs.snapshot().stubs.count == 3)
        #expect(body(server, "/a") == "first" && body(server, "/c") == "c")
    }
}
