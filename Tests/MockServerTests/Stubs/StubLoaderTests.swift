import Foundation
import Testing

@testable import MockServer

@Suite struct StubLoaderTests {
    private func error(_ text: String) -> String? {
        do {
            _ = try StubLoader.parse(text, file: "routes.json")
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        (
            "{ \"routes\": [\n  { \"path\": \"/a\", \"stauts\": 200 }\n] }",
            "routes.json:2:19: unknown key \"stauts\" in a route; did you mean \"status\"?"
        ),
        ("{ \"routes\": [ { \"path\": \"a\" } ] }", "routes.json:1:25: \"path\" must start with /, found \"a\""),
        ("{ \"routes\": [ { \"path\": \"/a/**/b\" } ] }", "routes.json:1:25: ** must be the last segment of \"/a/**/b\""),
        (
            "{ \"routes\": [ { \"path\": \"/a?b=1\" } ] }",
            "routes.json:1:25: \"path\" is compared without the query or a #fragment, so \"/a?b=1\" never matches; match the query with \"query\""
        ),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"status\": \"200\" } ] }",
            "routes.json:1:41: \"status\" must be an integer, found a JSON string"
        ),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"status\": 999 } ] }",
            "routes.json:1:41: \"status\": '999' is not a whole number from 200 to 599"
        ),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"fault\": \"conection-reset\" } ] }",
            "routes.json:1:40: unknown fault \"conection-reset\"; did you mean \"connection-reset\"?"
        ),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"body\": \"x\", \"json\": 1 } ] }",
            "routes.json:1:52: a response has one of \"body\", \"json\", \"bodyFile\", found body and json"
        ),
        ("{ \"routes\": [ { \"path\": \"/a\", \"responses\": [] } ] }", "routes.json:1:44: \"responses\" is empty"),
        ("{ \"routes\": [ { \"path\": \"/a\", \"headers\": { \"h\": { \"matches\": \"[\" } } } ] }", "invalid regular expression \"[\""),
        ("{ \"routes\": [], \"unexpected\": \"boom\" }", "routes.json:1:31: \"unexpected\" must be \"fail\" or \"404\", found \"boom\""),
        (
            "{ \"rotues\": [] }",
            "routes.json:1:3: not a stub file: expected \"routes\" (native), \"request\"/\"response\" or \"mappings\" (WireMock), found \"rotues\"; did you mean \"routes\"?"
        ),
        ("{ \"routes\": [ ", "routes.json:1:15: expected a JSON value, found end of file"),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"files\": \"./nope\" } ] }",
            "routes.json:1:40: \"files\": cannot read ./nope (looked in .)"
        ),
        (
            "{ \"routes\": [ { \"path\": \"/a\", \"bodyFile\": \"nope.txt\" } ] }",
            "routes.json:1:43: \"bodyFile\": cannot read ./nope.txt (looked in .)"
        ),
    ])
    func nativeErrorsNameLineColumnAndKey(text: String, expected: String) {
        let message = error(text)
        if expected.hasPrefix("routes.json:") {
            #expect(message == expected, "\(message ?? "no error")")
        } else {
            #expect(message?.contains(expected) == true, "\(message ?? "no error")")
        }
    }

    @Test(arguments: [
        (
            #"{ "request": { "url": "/a", "customMatcher": {} }, "response": {} }"#,
            "\"customMatcher\" is not supported by sut-launch (custom matchers are Java extensions)"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "proxyBaseUrl": "gopher://x" } }"#,
            "proxyBaseUrl: \"gopher://x\" is not a backend URL: it needs http:// or https://"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "transformers": ["body-transformer"] } }"#,
            "the transformer \"body-transformer\" is not supported; \"response-template\" is"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "body": "{{#lookup request.query}}x{{/lookup}}", "transformers": ["response-template"] } }"#,
            "the block {{#lookup}} is not supported"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "body": "{{#if request.query.a}}x", "transformers": ["response-template"] } }"#,
            "{{#if}} is not closed with {{/if}}"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "body": "{{lookup request.query 'a'}}", "transformers": ["response-template"] } }"#,
            "lookup is not a helper"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "body": "{{request.path", "transformers": ["response-template"] } }"#,
            "template: {{ without }}"
        ),
        (
            #"{ "request": { "url": "/a" }, "response": { "body": "{{now offset='1e308 days'}}", "transformers": ["response-template"] } }"#,
            "{{now offset='1e308 days'}} is not supported"
        ),
        (
            #"{ "request": { "url": "/a", "bodyPatterns": [ { "matchesJsonSchema": "{}" } ] }, "response": {} }"#,
            "\"matchesJsonSchema\" is not supported by sut-launch"
        ),
        (#"{ "request": { "url": "/a", "urlPath": "/b" }, "response": {} }"#, "a request has one URL matcher, found url and urlPath"),
        (
            #"{ "request": { "urlPath": "/a", "queryParameters": { "q": "x" } }, "response": {} }"#,
            "queryParameters \"q\" must be a matcher object like {\"equalTo\": \"value\"}"
        ),
        (
            #"{ "request": { "urlPath": "/a" }, "response": { "fault": "CONNECTION_RESET" } }"#,
            "unknown fault \"CONNECTION_RESET\"; did you mean \"CONNECTION_RESET_BY_PEER\"?"
        ),
        (#"{ "request": { "urlPath": "/a" }, "respons": {} }"#, "unknown key \"respons\" in a mapping; did you mean \"response\"?"),
        (
            #"{ "request": { "urlPath": "/a", "headers": { "h": { "equalTo": "x", "contains": "y" } } }, "response": {} }"#,
            "has 2 matchers (equalTo, contains); use one, or \"and\""
        ),
    ])
    func wireMockFeaturesWeDoNotSupportAreNamed(text: String, expected: String) {
        let message = error(text)
        #expect(message?.contains(expected) == true, "\(message ?? "no error")")
    }

    @Test func largeFilesBuiltOnTwoThreadsReportTheFirstErrorInFileOrder() throws {
        var routes = (0..<600).map { "{ \"path\": \"/r/\($0)\" }" }
        routes[450] = "{ \"path\": \"/late\", \"stauts\": 1 }"
        routes[100] = "{ \"path\": \"/early\", \"bodi\": \"x\" }"
        let text = "{ \"routes\": [\n" + routes.joined(separator: ",\n") + "\n] }"
        #expect(error(text)?.hasPrefix("routes.json:102:") == true, "\(error(text) ?? "")")
        routes[100] = "{ \"path\": \"/early\" }"
        let good =
            "{ \"routes\": [\n" + routes.joined(separator: ",\n").replacingOccurrences(of: "\"stauts\": 1", with: "\"status\": 201")
            + "\n] }"
        let stubs = try StubLoader.parse(good, file: "routes.json")
        #expect(stubs.stubs.map(\.source) == (0..<600).map { "routes.json:\($0 + 2)" })
        // The threads take chunks of 64 in turn: errors in the first and last chunks, at chunk edges, in a
        // partial last chunk; the first in file order wins however the chunks were shared out.
        for (early, late) in [(0, 999), (63, 64), (640, 998), (127, 900), (998, 999)] {
            var many = (0..<1000).map { "{ \"path\": \"/r/\($0)\" }" }
            many[late] = "{ \"path\": \"/late\", \"stauts\": 1 }"
            many[early] = "{ \"path\": \"/early\", \"bodi\": \"x\" }"
            let text = "{ \"routes\": [\n" + many.joined(separator: ",\n") + "\n] }"
            #expect(error(text)?.hasPrefix("routes.json:\(early + 2):") == true, "\(early) \(late): \(error(text) ?? "")")
        }
        // Each route is parsed by the thread that builds it; still, as in a file parsed whole before anything is
        // built, a JSON syntax error anywhere is the one reported, before any route's mistake.
        var broken = (0..<1000).map { "{ \"path\": \"/r/\($0)\" }" }
        broken[5] = "{ \"path\": \"/early\", \"bodi\": \"x\" }"
        broken[900] = "{ \"path\": \"/late\" \"status\": 201 }"
        let syntax = error("{ \"routes\": [\n" + broken.joined(separator: ",\n") + "\n] }")
        #expect(syntax?.hasPrefix("routes.json:902:19: expected ',' or '}' after the value of \"path\"") == true, "\(syntax ?? "")")
        let thousand = try StubLoader.parse(
            "{ \"routes\": [\n" + (0..<1000).map { "{ \"path\": \"/r/\($0)\" }" }.joined(separator: ",\n") + "\n] }",
            file: "routes.json")
        #expect(thousand.stubs.map(\.source) == (0..<1000).map { "routes.json:\($0 + 2)" })
    }

    @Test func aDirectoryOfFilesAndAWireMockRootLoadSideBySide() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stub-dirs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let wiremock = root.appendingPathComponent("wiremock")
        try FileManager.default.createDirectory(at: wiremock.appendingPathComponent("mappings"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: wiremock.appendingPathComponent("__files"), withIntermediateDirectories: true)
        try #"{ "request": { "urlPath": "/w" }, "response": { "bodyFileName": "w.txt" } }"#.write(
            to: wiremock.appendingPathComponent("mappings/w.json"), atomically: true, encoding: .utf8)
        try "from __files".write(to: wiremock.appendingPathComponent("__files/w.txt"), atomically: true, encoding: .utf8)
        let native = root.appendingPathComponent("native")
        try FileManager.default.createDirectory(at: native, withIntermediateDirectories: true)
        try #"{ "routes": [ { "path": "/n", "body": "native" } ] }"#.write(
            to: native.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try #"[ { "path": "/bare", "body": "array form" } ]"#.write(
            to: native.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        let stubs = try StubLoader.load([wiremock.path, native.path])
        #expect(stubs.count == 3)
        let subject = MockServer(stubs: stubs)
        #expect(subject.ask("GET", "/w").body == "from __files")
        #expect(subject.ask("GET", "/n").body == "native")
        #expect(subject.ask("GET", "/bare").body == "array form")
        #expect(throws: StubError.self) { try StubLoader.load(root.appendingPathComponent("missing.json").path) }
    }
}

@Suite struct ResponseOrderTests {
    @Test func nativeRoutesCycleWhenAsked() throws {
        let stubs = try StubLoader.parse(
            #"{ "routes": [ { "path": "/c", "responses": [ { "body": "a" }, { "body": "b" } ], "then": "cycle" } ] }"#, file: "c.json")
        let server = MockServer(stubs: stubs)
        let bodies = (0..<3).map { _ in String(decoding: server.handle(HTTPRequest(method: "GET", target: "/c")).body, as: UTF8.self) }
        #expect(bodies == ["a", "b", "a"])
        #expect {
            try StubLoader.parse(#"{ "routes": [ { "path": "/c", "responses": [ { "body": "a" } ], "then": "loop" } ] }"#, file: "c.json")
        } throws: {
            "\($0)".contains("is not \"repeat-last\" or \"cycle\"")
        }
        #expect { try StubLoader.parse(#"{ "routes": [ { "path": "/c", "body": "a", "then": "cycle" } ] }"#, file: "c.json") } throws: {
            "\($0)".contains("has no \"responses\"")
        }
    }
}
