import Foundation
import Testing

@testable import MockServer

/// The journal store on its own: entries numbered in arrival order within the journal's bounds, unexpected
/// requests counted apart from it, the two resets, and redaction.
@Suite struct JournalStoreTests {
    private func request(_ target: String) -> HTTPRequest {
        HTTPRequest(method: "GET", target: target, headers: ["Authorization": "Bearer secret", "Accept": "*/*"])
    }

    @Test func entriesAreNumberedAndUnexpectedRequestsOutliveTheJournal() {
        let store = JournalStore(limit: 2, keepsSecrets: false)
        _ = store.record(request("/a"), stub: nil, response: MockResponse(status: 404), nearMiss: "GET /a\nnearest: none")
        _ = store.record(request("/b"), stub: nil, response: MockResponse(), nearMiss: nil)
        let third = store.record(request("/c"), stub: nil, response: MockResponse(status: 201), nearMiss: nil)
        #expect(third.sequence == 3)
        #expect(third.status == 201)
        #expect(store.entries.map(\.request.target) == ["/b", "/c"])
        let totals = store.totals()
        #expect(totals.requests == 3)
        #expect(totals.dropped == 1)
        #expect(totals.unexpectedTotal == 1)
        #expect(totals.unexpected.map(\.url) == ["/a"])

        store.removeAll() // DELETE /__admin/requests, POST /__admin/reset: the admin API's view is empty, numbering goes on
        #expect(store.entries.isEmpty)
        #expect(store.record(request("/d"), stub: nil, response: MockResponse(), nearMiss: nil).sequence == 4)
        #expect(store.entries.map(\.request.target) == ["/d"])
        #expect(store.totals().unexpectedTotal == 1)
        #expect(store.totals().requests == 4) // the run's count and journal keep what the admin API cleared
        #expect(store.snapshot.ordered.map(\.request.target) == ["/c", "/d"])
    }

    @Test func theFirstThousandUnexpectedRequestsAreDescribedAndAllCounted() {
        let store = JournalStore(limit: 10, keepsSecrets: false)
        for index in 0...JournalStore.unexpectedDescribed {
            _ = store.record(request("/\(index)"), stub: nil, response: MockResponse(status: 404), nearMiss: "near")
        }
        #expect(store.totals().unexpected.count == JournalStore.unexpectedDescribed)
        #expect(store.totals().unexpectedTotal == JournalStore.unexpectedDescribed + 1)
        #expect(store.entries.count == 10)
    }

    @Test func secretHeadersAreRedactedUnlessKept() {
        let redacting = JournalStore(limit: 10, keepsSecrets: false)
        #expect(redacting.shownValue(of: (name: "authorization", value: "Bearer secret")) == "[redacted]")
        #expect(redacting.shownValue(of: (name: "Cookie", value: "id=1")) == "[redacted]")
        #expect(redacting.shownValue(of: (name: "Accept", value: "*/*")) == "*/*")
        let keeping = JournalStore(limit: 10, keepsSecrets: true)
        #expect(keeping.shownValue(of: (name: "Authorization", value: "Bearer secret")) == "Bearer secret")
        _ = redacting.record(request("/a"), stub: nil, response: MockResponse(), nearMiss: nil)
        #expect(redacting.snapshot.json().contains(#""Authorization":"[redacted]""#))
    }
}
