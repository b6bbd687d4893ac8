import Foundation
import Testing

/// R9a B3 with the built binary: `GET /__admin/requests/unmatched/near-misses` is WireMock's: for each unmatched
/// request, newest first, the stubs nearest it as the stubs are now (`request`, `stubMapping`, `matchResult`), so a
/// stub added after the request is named. It gave the explanation frozen when the request came ("No stubs are
/// loaded."), without `stubMapping` or `matchResult`, which WireMock's clients read. `…/requests/unmatched` is newest
/// first too, as WireMock lists it.
@Suite struct UnmatchedNearMissesEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func nearMissesOfUnmatchedRequestsAreComputedAgainstTheStubsNow() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try CLI.write(#"{"routes":[]}"#, "empty.json", in: directory)
        let script = #"""
            U=$SUT_MOCK_SERVER_URL
            curl -s -o /dev/null "$U/hello?x=1"; curl -s -o /dev/null "$U/zzz"
            curl -s "$U/__admin/requests/unmatched/near-misses"; echo
            curl -s -o /dev/null -X POST -H 'Content-Type: application/json' \
              --data-binary '{"request":{"method":"GET","url":"/hello?x=2"},"response":{"status":200}}' "$U/__admin/mappings"
            curl -s "$U/__admin/requests/unmatched/near-misses"; echo
            curl -s "$U/__admin/requests/unmatched"; echo
            """#
        let result = try CLI.run(["-q", "--admin-writes", "trust", "--port", "0", "--stub", empty, "sh", "-c", script])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == 3, "\(result.stdout)\n\(result.stderr)")
        #expect(lines[0] == #"{"nearMisses":[]}"#, "no stub loaded: no near miss, as WireMock")
        let near = try #require(
            (try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])?["nearMisses"] as? [[String: Any]])
        #expect(near.count == 2, "\(lines[1])")
        let urls = near.map { ($0["request"] as? [String: Any])?["url"] as? String }
        #expect(urls == ["/zzz", "/hello?x=1"], "newest first: \(lines[1])")
        for miss in near {
            #expect(Set(miss.keys) == ["request", "stubMapping", "matchResult"], "\(miss.keys)")
            let stub = (miss["stubMapping"] as? [String: Any])?["request"] as? [String: Any]
            #expect(stub?["url"] as? String == "/hello?x=2", "\(lines[1])")
            let distance = (miss["matchResult"] as? [String: Any])?["distance"] as? Double
            #expect(distance.map { $0 > 0 && $0 < 1 } == true, "\(lines[1])")
        }
        let (zzz, hello) = (lines[2].range(of: "/zzz"), lines[2].range(of: "/hello"))
        #expect(lines[2].hasPrefix(#"{"requests":[{"id":"#) && zzz != nil && hello != nil, "\(lines[2])")
        if let zzz, let hello { #expect(zzz.lowerBound < hello.lowerBound, "newest first: \(lines[2])") }
    }
}
