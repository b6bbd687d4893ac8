import AutomationSupport
import Foundation
import Testing

@testable import MockServer

#if canImport(Glibc)
import Glibc
#endif

/// r8a A4's remainder: an admin search (`requests/count`, `requests/find`, `near-misses/request-pattern`) whose client
/// has closed its connection stops between journal entries, as the control channel's long poll does, where it ran to
/// its budget (an XPath count over 40 entries kept a thread busy 3.5 minutes after curl gave up). Real sockets: a
/// connected pair, the client's end closed or kept.
@Suite struct AdminSearchClientGoneTests {
    /// The server's end of a connected pair, and the client's end (closed when `leave`).
    private func connection(leave: Bool) throws -> (server: Socket, client: Int32) {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        if leave { close(fds[1]) }
        return (Socket(fd: fds[0]), leave ? -1 : fds[1])
    }

    private func journal(_ entries: Int) -> JournalStore {
        let journal = JournalStore(limit: 1_000, keepsSecrets: false)
        for index in 0..<entries {
            let request = HTTPRequest(method: "POST", target: "/j\(index)", body: Array("<a>zzq\(index)</a>".utf8))
            _ = journal.record(request, stub: nil, response: MockResponse(status: 404), nearMiss: "none")
        }
        return journal
    }

    private func search(_ route: String, _ journal: JournalStore, leave: Bool) throws -> (status: Int, text: String) {
        let (socket, client) = try connection(leave: leave)
        defer {
            socket.close()
            if client >= 0 { close(client) }
        }
        let pattern = #"{"method": "POST", "bodyPatterns": [{"matchesXPath": {"expression": "//a", "contains": "zzq"}}]}"#
        var request = HTTPRequest(
            method: "POST", target: String(route.split(separator: " ")[1]), headers: ["Content-Type": "application/json"],
            body: Array(pattern.utf8))
        request.peer = Peer(socket)
        let answer = try #require(AdminAPI.requests(route, request, journal: journal, budget: MatchBudget.perRequest))
        return (answer.status, String(decoding: answer.wholeBody, as: UTF8.self))
    }

    @Test(
        .enabled(if: CPUChargedBudgetTests.available, "needs libxml2.so.2 (Debian package libxml2)"),
        arguments: ["POST /__admin/requests/count", "POST /__admin/requests/find"])
    func aSearchWhoseClientHasGoneStopsBeforeTheNextEntry(route: String) throws {
        let journal = journal(40)
        let gone = try search(route, journal, leave: true)
        #expect(gone.status == 500, "\(gone)")
        #expect(gone.text.contains("\(route) stopped after 0 of 40 journal entries: its client closed the connection"), "\(gone.text)")
        // The same search with its client there reads every entry.
        let there = try search(route, journal, leave: false)
        #expect(there.status == 200, "\(there)")
        #expect(route.hasSuffix("count") ? there.text == #"{"count":40}"# : there.text.contains("/j39"), "\(there.text.prefix(300))")
    }

    @Test(.enabled(if: CPUChargedBudgetTests.available, "needs libxml2.so.2 (Debian package libxml2)"))
    func aNearMissSearchWhoseClientHasGoneStopsToo() throws {
        let server = MockServer(stubs: try StubLoader.parse(#"{"mappings": []}"#, file: "m.json", directory: "."), host: "127.0.0.1")
        for index in 0..<40 {
            _ = server.parts.journal.record(
                HTTPRequest(method: "POST", target: "/j\(index)", body: Array("<a/>".utf8)), stub: nil, response: MockResponse(status: 404),
                nearMiss: "none")
        }
        let (socket, _) = try connection(leave: true)
        defer { socket.close() }
        var request = HTTPRequest(
            method: "POST", target: "/__admin/near-misses/request-pattern", headers: ["Content-Type": "application/json"],
            body: Array(#"{"method": "POST", "bodyPatterns": [{"matchesXPath": "//a"}]}"#.utf8))
        request.peer = Peer(socket)
        let answer = try #require(AdminAPI.nearMisses("POST /__admin/near-misses/request-pattern", request, parts: server.parts))
        #expect(answer.status == 500)
        #expect(String(decoding: answer.body, as: UTF8.self).contains("stopped after 0 of 40 journal entries: its client closed"))
    }
}
