import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// WireMock's recording API over a real backend (issue 27): what is recorded, how it is named and written, and that
/// what was written answers the same requests the same way.
@Suite struct RecordingTests {
    static let backendStubs = #"""
        { "mappings": [
          { "request": { "method": "GET", "url": "/items" }, "response": { "status": 200, "body": "[1,2]", "headers": { "Content-Type": "application/json", "Set-Cookie": "session=abc", "Date": "Fri, 27 Nov 2026 10:00:00 GMT" } } },
          { "request": { "method": "POST", "url": "/items" }, "response": { "status": 201, "body": "{{jsonPath request.body '$.name'}} created", "transformers": ["response-template"] } },
          { "request": { "method": "GET", "url": "/logo.png" }, "response": { "status": 200, "base64Body": "iVBORw0KGgoAAAANSUhEUg==", "headers": { "Content-Type": "image/png" } } },
          { "scenarioName": "s", "requiredScenarioState": "Started", "newScenarioState": "two", "request": { "method": "GET", "url": "/counter" }, "response": { "body": "1" } },
          { "scenarioName": "s", "requiredScenarioState": "two", "request": { "method": "GET", "url": "/counter" }, "response": { "body": "2" } }
        ] }
        """#

    private func admin(_ server: MockServer, _ method: String, _ path: String, _ body: String = "") -> (Int, JSONNode?) {
        let answer = server.handle(
            HTTPRequest(
                method: method, target: path, headers: ["Host": "127.0.0.1", "Content-Type": "application/json"], body: Array(body.utf8)))
        return (answer.status, try? JSONParser.parse(answer.body))
    }

    private func traffic(_ server: MockServer) {
        _ = server.handle(HTTPRequest(method: "GET", target: "/items"))
        _ = server.handle(
            HTTPRequest(
                method: "POST", target: "/items", headers: ["Content-Type": "application/json"],
                body: Array(#"{"name":"pen","tags":["a","b"]}"#.utf8)))
        _ = server.handle(HTTPRequest(method: "GET", target: "/logo.png"))
        _ = server.handle(HTTPRequest(method: "GET", target: "/counter"))
        _ = server.handle(HTTPRequest(method: "GET", target: "/counter"))
    }

    private func recorder(root: String?) -> MockServer {
        var options = MockServer.Options()
        options.recordingRoot = root
        return MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
    }

    @Test func theRecordingAPIRecordsWritesAndReplays() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let root = NSTemporaryDirectory() + "recording-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = recorder(root: root)
        #expect(admin(server, "GET", "/__admin/recordings/status").1?["status"]?.string == "NeverStarted")
        #expect(admin(server, "POST", "/__admin/recordings/stop").0 == 400)
        #expect(admin(server, "POST", "/__admin/recordings/start", #"{"targetBaseUrl": "\#(backend.url)"}"#).0 == 200)
        #expect(admin(server, "POST", "/__admin/recordings/start", #"{"targetBaseUrl": "\#(backend.url)"}"#).0 == 409)
        #expect(admin(server, "GET", "/__admin/recordings/status").1?["status"]?.string == "Recording")
        traffic(server)
        let (status, stopped) = admin(server, "POST", "/__admin/recordings/stop")
        #expect(status == 200)
        #expect(stopped?["mappings"]?.elements?.count == 5)
        #expect(admin(server, "GET", "/__admin/recordings/status").1?["status"]?.string == "Stopped")

        let files = try FileManager.default.subpathsOfDirectory(atPath: root).sorted()
        #expect(files.filter { $0.hasPrefix("mappings/") && $0.hasSuffix(".json") }.count == 5)
        #expect(files.contains { $0.hasPrefix("__files/get-logo.png-") && $0.hasSuffix(".png") })
        let items = try #require(files.first { $0.hasPrefix("mappings/get-items-") })
        let text = try String(contentsOfFile: root + "/" + items, encoding: .utf8)
        #expect(text.contains("\"Set-Cookie\" : \"[redacted by sut-launch"))
        #expect(!text.contains("Date"))
        #expect(text.contains("\"url\" : \"/items\""))
        let post = try #require(files.first { $0.hasPrefix("mappings/post-items-") })
        #expect(try String(contentsOfFile: root + "/" + post, encoding: .utf8).contains("equalToJson"))

        // What was written loads as a WireMock root and answers as the backend did, strictly, in recorded order.
        let replay = try TestServer(stubs: try StubLoader.load([root]))
        defer { replay.stop() }
        let counter1 = replay.server.handle(HTTPRequest(method: "GET", target: "/counter"))
        let counter2 = replay.server.handle(HTTPRequest(method: "GET", target: "/counter"))
        #expect(String(decoding: counter1.body, as: UTF8.self) == "1" && String(decoding: counter2.body, as: UTF8.self) == "2")
        let logo = replay.server.handle(HTTPRequest(method: "GET", target: "/logo.png"))
        #expect(Base64Text.encode(logo.body) == "iVBORw0KGgoAAAANSUhEUg==")
        let created = replay.server.handle(
            HTTPRequest(method: "POST", target: "/items", body: Array(#"{"tags":["b","a"],"name":"pen"}"#.utf8)))
        #expect(String(decoding: created.body, as: UTF8.self) == "pen created")
        #expect(replay.server.handle(HTTPRequest(method: "GET", target: "/other")).status == 404)
    }

    @Test func namesAreTheSameOnEveryRecordingOfTheSameTraffic() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        var names: [[String]] = []
        for _ in 0..<2 {
            let server = recorder(root: nil)
            _ = server.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
            _ = admin(backend.server, "POST", "/__admin/scenarios/reset")
            traffic(server)
            names.append(try #require(server.stopRecording()).mappings.map(\.path))
        }
        #expect(names[0] == names[1])
        #expect(Set(names[0]).count == 5)
    }

    @Test func aSnapshotHonoursFiltersCaptureHeadersAndIds() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let server = recorder(root: nil)
        _ = server.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
        _ = server.handle(
            HTTPRequest(method: "GET", target: "/items", headers: ["Accept": "application/json", "Authorization": "Bearer t0ken"]))
        _ = server.handle(HTTPRequest(method: "GET", target: "/logo.png"))
        let spec =
            #"{"filters": {"urlPathPattern": "/item.*"}, "captureHeaders": {"Accept": {}, "Authorization": {}}, "persist": false, "outputFormat": "FULL"}"#
        let (status, body) = admin(server, "POST", "/__admin/recordings/snapshot", spec)
        #expect(status == 200)
        let mappings = try #require(body?["mappings"]?.elements)
        #expect(mappings.count == 1)
        let written = JSONWriter.write(mappings[0])
        #expect(written.contains(#""Accept":{"equalTo":"application/json"}"#))
        #expect(written.contains(#""Authorization":{"matches":".+"}"#) && !written.contains("t0ken"))
        #expect(
            admin(server, "POST", "/__admin/recordings/snapshot", #"{"outputFormat": "IDS", "persist": false}"#).1?["ids"]?.elements?.count
                == 2)
        #expect(admin(server, "POST", "/__admin/recordings/snapshot", #"{"transformers": ["x"]}"#).0 == 422)
        #expect(admin(server, "POST", "/__admin/recordings/start", #"{"targetBaseUrl": "file:///etc/passwd"}"#).0 == 422)
    }

    /// Third attack, F7: a recording killed while it wrote its files left part of them, which loaded as whole. Its
    /// marker stays in the root until the last file is written; a root holding it is refused by name.
    @Test func aRecordingCutShortWhileWritingIsNotLoadedAsWhole() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let root = NSTemporaryDirectory() + "recording-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let server = recorder(root: root)
        _ = server.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
        traffic(server)
        #expect(try #require(server.stopRecording()).problems.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: root + "/" + RecordingLedger.inProgressMarker), "a whole recording keeps no marker")
        #expect(throws: Never.self) { try StubLoader.load([root]) }
        // As a SIGKILL between the marker and the last file leaves it:
        #expect(FileManager.default.createFile(atPath: root + "/" + RecordingLedger.inProgressMarker, contents: nil))
        #expect {
            try StubLoader.load([root])
        } throws: { error in
            "\(error)".contains("a recording into this directory was cut short while its files were written")
        }
    }

    @Test func aRecordingNeverWritesThroughALinkInItsRoot() throws {
        let backend = try TestServer(Self.backendStubs)
        defer { backend.stop() }
        let root = NSTemporaryDirectory() + "recording-\(UUID().uuidString)"
        let outside = NSTemporaryDirectory() + "outside-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: outside)
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/mappings", withDestinationPath: outside)
        let server = recorder(root: root)
        _ = server.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
        _ = server.handle(HTTPRequest(method: "GET", target: "/items"))
        let result = try #require(server.stopRecording())
        #expect(!result.problems.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside).isEmpty)
    }
}

/// A recording of 10,000 requests (issue 27): every one written under its own name, and the root loads and answers.
@Suite struct LargeRecordingTests {
    @Test func tenThousandRequestsAreRecordedWrittenAndReplayed() throws {
        let backend = try TestServer(
            #"{ "routes": [ { "method": "GET", "path": "/items/{id}", "template": true, "body": "item {{request.path.id}}" } ] }"#)
        defer { backend.stop() }
        let root = NSTemporaryDirectory() + "recording-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = MockServer.Options()
        options.recordingRoot = root
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1", options: options)
        _ = server.startRecording(ProxyRule(target: try UpstreamTarget(backend.url)), spec: RecordSpec())
        for index in 0..<10_000 {
            let answer = server.handle(HTTPRequest(method: "GET", target: "/items/\(index)"))
            guard answer.status == 200 else {
                Issue.record("request \(index): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                return
            }
        }
        let result = try #require(server.stopRecording())
        #expect(result.problems.isEmpty && result.lost == 0)
        #expect(Set(result.mappings.map(\.path)).count == 10_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/mappings").count == 10_000)
        let replay = MockServer(stubs: try StubLoader.load([root]), host: "127.0.0.1", options: MockServer.Options())
        _ = try replay.start(port: 0)
        defer { replay.stop() }
        #expect(String(decoding: replay.handle(HTTPRequest(method: "GET", target: "/items/9999")).body, as: UTF8.self) == "item 9999")
    }
}

/// A recording's many `url` mappings of one path are found by their whole target, the best first.
@Suite struct ExactTargetIndexTests {
    @Test func mappingsOfOnePathWithQueriesAnswerTheirOwnRequests() throws {
        var mappings: [String] = []
        for page in 0..<300 {
            mappings.append(#"{"request": {"method": "GET", "url": "/items?page=\#(page)"}, "response": {"body": "page \#(page)"}}"#)
        }
        mappings.append(#"{"priority": 1, "request": {"method": "GET", "url": "/items?page=7"}, "response": {"body": "preferred"}}"#)
        mappings.append(#"{"request": {"method": "GET", "url": "/items"}, "response": {"body": "no query"}}"#)
        let server = try TestServer(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}")
        defer { server.stop() }
        func body(_ target: String) -> String {
            String(decoding: server.server.handle(HTTPRequest(method: "GET", target: target)).body, as: UTF8.self)
        }
        #expect(body("/items?page=299") == "page 299")
        #expect(body("/items?page=7") == "preferred")
        #expect(body("/items") == "no query")
        #expect(server.server.handle(HTTPRequest(method: "GET", target: "/items?page=300")).status == 404)
    }
}

/// Finds of the second outside attack on recording (each was a false green or a wrong recording).
@Suite struct RecordingAttackTests {
    private func recorder(to base: String) throws -> MockServer {
        let server = MockServer(stubs: StubSet(), host: "127.0.0.1", options: MockServer.Options())
        _ = server.startRecording(ProxyRule(target: try UpstreamTarget(base)), spec: RecordSpec())
        return server
    }

    @Test func persistingWithoutARootIsAProblemNotASilentSuccess() throws {
        let backend = try TestServer(#"{"routes": [{"method": "GET", "path": "/a", "body": "a"}]}"#)
        defer { backend.stop() }
        let server = try recorder(to: backend.url)
        _ = server.handle(HTTPRequest(method: "GET", target: "/a"))
        let result = try #require(server.stopRecording())
        #expect(result.problems.contains { $0.contains("no root to write the mappings to") }, "\(result.problems)")
    }

    @Test func anAnswerThatCouldNotBeRelayedIsNotRecorded() throws {
        let backend = try MisbehavingBackend("escapeInReason")
        defer { backend.stop() }
        let server = try recorder(to: "http://127.0.0.1:\(backend.port)")
        #expect(server.handle(HTTPRequest(method: "GET", target: "/x")).status == 502)
        #expect(try #require(server.stopRecording()).mappings.isEmpty)
    }

    @Test func aTargetThatIsNotAPathIsNotForwardedAndAFragmentIsNotRecorded() throws {
        let backend = try TestServer(#"{"routes": [{"method": "GET", "path": "/x", "body": "x"}]}"#)
        defer { backend.stop() }
        let server = try recorder(to: backend.url)
        #expect(server.handle(HTTPRequest(method: "OPTIONS", target: "*")).status == 400)
        #expect(backend.server.journal.ordered.isEmpty)
        #expect(server.handle(HTTPRequest(method: "GET", target: "/x?a=1#frag")).status == 200)
        let mappings = try #require(server.stopRecording()).mappings
        #expect(mappings.count == 1 && JSONWriter.write(mappings[0].json).contains(#""url":"/x?a=1""#))
        #expect(server.summary.failures.contains { $0.contains("the target is not a path") })
    }
}
