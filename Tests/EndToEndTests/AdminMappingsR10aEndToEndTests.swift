import Foundation
import Testing

/// The admin API's mapping findings of attack r10a, each replayed against the built binary: `bodyFileName` of an
/// admin-added mapping read from the wrong `__files` (C8), which mapping answers after a POST with an id in use, an
/// import or a removal (C4), and `limit`/`offset` on the mapping list (C9).
@Suite struct AdminMappingsR10aEndToEndTests {
    /// C8: a mapping added through the admin API to a server loaded from a WireMock root looked for its
    /// `bodyFileName` in `ROOT/mappings/__files` (beside the first mapping file) and was refused (422); WireMock
    /// reads `ROOT/__files`, as the root's own mappings do. A run's server and `serve --root-dir` now both serve it.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func anAdminAddedMappingReadsItsBodyFileFromTheRootsFiles() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let root = directory.appendingPathComponent("root1")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("__files"), withIntermediateDirectories: true)
        _ = try CLI.write("hi\n", "ok.txt", in: root.appendingPathComponent("__files"))
        _ = try CLI.write(
            #"{"request":{"url":"/ok"},"response":{"status":200,"bodyFileName":"ok.txt"}}"#, "ok.json",
            in: root.appendingPathComponent("mappings"))
        let mapping = #"{"request":{"url":"/a2"},"response":{"status":200,"bodyFileName":"ok.txt"}}"#
        let script =
            #"U=$SUT_MOCK_SERVER_URL; curl -s -w 'added %{http_code}\n' -H 'Content-Type: application/json' -d '\#(mapping)' $U/__admin/mappings; "#
            + #"curl -s -w 'served %{http_code}\n' $U/a2"#
        let run = try CLI.run(["--port", "0", "--stub", "root1", "--admin-writes", "allow", "sh", "-c", script], cwd: directory)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("added 201") && run.stdout.contains("hi\nserved 200"), "\(run.stdout)")

        let port = try CLI.freePort()
        var answers: [String] = []
        _ = try CLI.run(["serve", "-q", "--port", String(port), "--root-dir", "root1"], cwd: directory) { process, _ in
            defer { kill(process.processIdentifier, SIGKILL) }
            _ = CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil }
            let base = "http://127.0.0.1:\(port)"
            answers.append(
                try CLI.output(of: [
                    "curl", "-s", "-w", " %{http_code}", "-H", "Content-Type: application/json", "-d", mapping, base + "/__admin/mappings",
                ]))
            answers.append(try CLI.output(of: ["curl", "-s", "-w", " %{http_code}", base + "/a2"]))
        }
        try #require(answers.count == 2)
        #expect(answers[0].hasSuffix(" 201"), "\(answers[0])")
        #expect(answers[1] == "hi\n 200", "\(answers[1])")
    }

    /// C4: a POST with an id in use kept the old mapping's rank, so an equal mapping added between still answered
    /// (WireMock: the re-posted one answers); a mapping added after a removal took a rank already held and lost to
    /// the older one; an import gave its last mapping precedence and kept the last of two with one id (WireMock: the
    /// first); `{"id": U, "uuid": W}` took U (WireMock: the later key). A PUT keeps the mapping's place, as WireMock's.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theMappingThatAnswersIsWireMocks() throws {
        let u = "11111111-1111-1111-1111-111111111111"
        let v = "22222222-2222-2222-2222-222222222222"
        let w = "33333333-3333-3333-3333-333333333333"
        let answers = try Self.serving { base in
            func send(_ method: String, _ path: String, _ body: String) throws {
                _ = try CLI.output(of: [
                    "curl", "-s", "-o", "/dev/null", "-X", method, "-H", "Content-Type: application/json", "--data-binary", body,
                    base + path,
                ])
            }
            func mapping(_ url: String, _ body: String, id: String? = nil) -> String {
                (id.map { #"{"id":"\#($0)","# } ?? "{") + #""request":{"url":"\#(url)"},"response":{"status":200,"body":"\#(body)"}}"#
            }
            func get(_ path: String) throws -> String { try CLI.output(of: ["curl", "-s", base + path]) }
            var seen: [String] = []
            try send("POST", "/__admin/mappings", mapping("/x", "A", id: u))
            try send("POST", "/__admin/mappings", mapping("/x", "B", id: v))
            try send("POST", "/__admin/mappings", mapping("/x", "A-updated", id: u))
            seen.append(try get("/x"))
            try send("PUT", "/__admin/mappings/" + v, mapping("/x", "B-put"))
            seen.append(try get("/x"))
            for (id, body) in [("44444444-4444-4444-4444-444444444444", "C"), ("55555555-5555-5555-5555-555555555555", "D")] {
                try send("POST", "/__admin/mappings", mapping("/r", body, id: id))
            }
            try send("DELETE", "/__admin/mappings/44444444-4444-4444-4444-444444444444", "")
            try send("POST", "/__admin/mappings", mapping("/r", "E"))
            seen.append(try get("/r"))
            try send("POST", "/__admin/mappings/import", #"{"mappings":["# + mapping("/i", "first") + "," + mapping("/i", "second") + "]}")
            seen.append(try get("/i"))
            try send(
                "POST", "/__admin/mappings/import",
                #"{"mappings":["# + mapping("/j", "first", id: w) + "," + mapping("/j", "second", id: w) + "]}")
            seen.append(try get("/j"))
            try send("POST", "/__admin/mappings", #"{"id":"\#(u)","uuid":"\#(w)","request":{"url":"/k"},"response":{"body":"k"}}"#)
            seen.append(try get("/__admin/mappings/" + w).contains(#""url":"/k""#) ? "uuid" : "id")
            return seen
        }
        #expect(answers == ["A-updated", "A-updated", "E", "first", "first", "uuid"])
    }

    /// C9: `GET /__admin/mappings?limit=1&offset=1` gave every mapping (a paging client looped or collected
    /// duplicates). Paged now as WireMock pages, `meta.total` counting every mapping; a value that is not a count is
    /// refused by name (400).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func theMappingListIsPaged() throws {
        let pages = try Self.serving { base in
            for index in 1...4 {
                _ = try CLI.output(of: [
                    "curl", "-s", "-o", "/dev/null", "-H", "Content-Type: application/json",
                    "-d", #"{"request":{"url":"/m\#(index)"},"response":{"status":200}}"#, base + "/__admin/mappings",
                ])
            }
            return try ["limit=1&offset=1", "limit=2", "offset=3", "offset=9", "limit=0", "limit=-1", "offset=x"].map { query in
                try CLI.output(of: ["curl", "-s", "-w", " %{http_code}", base + "/__admin/mappings?" + query])
            }
        }
        let urls = pages.map { page in page.components(separatedBy: #""url":"/m"#).dropFirst().map { String($0.prefix(1)) }.joined() }
        #expect(urls.prefix(5) == ["2", "12", "4", "", ""], "\(pages)")
        #expect(pages.prefix(5).allSatisfy { $0.hasSuffix(#""meta":{"total":4}} 200"#) }, "\(pages)")
        #expect(pages[5].hasPrefix("?limit: ") && pages[5].hasSuffix(" 400"), "\(pages[5])")
        #expect(pages[6].hasPrefix("?offset: ") && pages[6].hasSuffix(" 400"), "\(pages[6])")
    }

    /// Runs `body` against `sut-launch serve` started empty on a free port, then stops the server.
    private static func serving<T>(_ body: @escaping (String) throws -> T) throws -> T {
        let directory = try CLI.temporaryDirectory() // no ./mappings: serve starts empty
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try CLI.freePort()
        var result: T?
        _ = try CLI.run(["serve", "-q", "--port", String(port)], cwd: directory) { process, _ in
            defer { kill(process.processIdentifier, SIGKILL) }
            _ = CLI.eventually(20) { CLI.loopbackSocket(port).map { close($0) } != nil }
            result = try body("http://127.0.0.1:\(port)")
        }
        return try #require(result)
    }
}
