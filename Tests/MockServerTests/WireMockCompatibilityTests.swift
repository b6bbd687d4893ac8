import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// WireMock mapping files covering every supported field (Fixtures/wiremock is a WireMock root directory:
/// mappings/ + __files/), answered the way WireMock answers them.
@Suite struct WireMockCompatibilityTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/wiremock").path

    private func server() throws -> MockServer { MockServer(stubs: try StubLoader.load(Self.root)) }

    @Test func urlMatchers() throws {
        let subject = try server()
        #expect(subject.ask("GET", "/exact?a=1").body == "url")
        #expect(subject.ask("GET", "/exact?a=2").status == 404)
        #expect(subject.ask("GET", "/path?anything=1").body == "urlPath")
        #expect(subject.ask("GET", "/pattern/123?x=y").body == "urlPattern")
        #expect(subject.ask("GET", "/pattern/abc?x=y").status == 404)
        #expect(subject.ask("GET", "/users/ada/avatar").body == "urlPathPattern")
        #expect(subject.ask("GET", "/users/Ada1/avatar").status == 404)
        #expect(subject.ask("GET", "/contacts/12345/addresses/99").body == "urlPathTemplate")
        #expect(subject.ask("GET", "/contacts/1/addresses/99").status == 404)
        #expect(subject.ask("PATCH", "/any").body == "any method")
        #expect(subject.ask("DELETE", "/whatever/at/all").status == 202)
        #expect(subject.ask("GET", "/single").body == "a single mapping file")
    }

    /// WireMock answers HEAD only with a HEAD (or ANY) mapping; native routes answer HEAD for GET (curl -I).
    @Test func aGetMappingDoesNotAnswerHeadButANativeGetRouteDoes() throws {
        let subject = try server()
        #expect(subject.ask("GET", "/single").status == 200)
        #expect(subject.ask("HEAD", "/single").status == 404)
        #expect(subject.ask("HEAD", "/any").status == 200) // method ANY
        let native = MockServer(
            stubs: try StubLoader.parse(#"{"routes": [{"method": "GET", "path": "/n", "body": "x"}]}"#, file: "r.json", directory: "."))
        #expect(native.ask("HEAD", "/n").status == 200)
    }

    /// Native routes compare paths percent-decoded; WireMock mappings compare them as written, as WireMock does.
    @Test func nativePathsComparePercentDecodedAndWireMockPathsAsWritten() throws {
        let native = MockServer(
            stubs: try StubLoader.parse(
                #"""
                {"routes": [{"method": "GET", "path": "/café", "body": "raw"}, {"method": "GET", "path": "/caf%C3%A9/{size}", "body": "encoded"}]}
                """#, file: "r.json", directory: "."))
        #expect(native.ask("GET", "/caf%C3%A9").body == "raw")
        #expect(native.ask("GET", "/caf%c3%a9").body == "raw")
        #expect(native.ask("GET", "/café").body == "raw")
        #expect(native.ask("GET", "/café/large").body == "encoded")
        #expect(native.ask("GET", "/caf%c3%a9/large").body == "encoded")
        let mapping = MockServer(
            stubs: try StubLoader.parse(
                #"{"request": {"method": "GET", "urlPath": "/caf%C3%A9"}, "response": {"body": "as written"}}"#,
                file: "m.json", directory: "."))
        #expect(mapping.ask("GET", "/caf%C3%A9").body == "as written")
        #expect(mapping.ask("GET", "/caf%c3%a9").status == 404)
    }

    @Test func scenarioStatesAreListedAndSetThroughTheAdminAPI() throws {
        let subject = MockServer(
            stubs: try StubLoader.parse(
                #"""
                {"mappings": [
                  {"scenarioName": "cart", "requiredScenarioState": "Started", "newScenarioState": "filled",
                   "request": {"method": "POST", "url": "/cart"}, "response": {"body": "added"}},
                  {"scenarioName": "cart", "requiredScenarioState": "filled", "request": {"method": "GET", "url": "/cart"}, "response": {"body": "one item"}}
                ]}
                """#, file: "m.json", directory: "."))
        let json = ["Content-Type": "application/json"] as HTTPHeaders
        #expect(
            subject.ask("GET", "/__admin/scenarios").body
                == #"{"scenarios":[{"id":"cart","name":"cart","state":"Started","possibleStates":["Started","filled"]}]}"#)
        #expect(subject.ask("GET", "/cart").status == 404)
        #expect(subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: #"{"state": "filled"}"#).status == 200)
        #expect(subject.ask("GET", "/cart").body == "one item")
        #expect(subject.ask("GET", "/__admin/scenarios").body.contains(#""state":"filled""#))
        #expect(subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json).status == 200) // no body: back to Started
        #expect(subject.ask("GET", "/cart").status == 404)
        #expect(subject.ask("PUT", "/__admin/scenarios/nope/state", headers: json, body: #"{"state": "x"}"#).status == 404)
        #expect(subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: #"{"state": 1}"#).status == 422)
        // r10a C2: a state no mapping of the scenario has (a typo), "", a missing state and an unknown key were taken
        // (200), leaving the scenario where no stub answers; refused as WireMock 2.35 does (422), the state unchanged.
        #expect(subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: #"{"state": "filled"}"#).status == 200)
        for body in [#"{"state": "filed"}"#, #"{"state": ""}"#, "{}", #"{"state": null}"#, #"{"state": "Started", "x": 1}"#, "[]"] {
            let answer = subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: body)
            #expect(answer.status == 422, "\(body): \(answer.body)")
            #expect(subject.ask("GET", "/cart").body == "one item", "\(body) left the state as it was")
        }
        let typo = subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: #"{"state": "filed"}"#).body
        #expect(typo.contains("Scenario cart does not support state filed (its states: Started, filled;"), "\(typo)")
        #expect(subject.ask("PUT", "/__admin/scenarios/cart/state", headers: json, body: #"{"x": 1}"#).body.contains(#"unknown key "x""#))
    }

    /// Attack 1, F3: a mapping read back left out its scenario keys, `persistent` and `postServeActions`, and PUT
    /// refused the server's own output (`source`); a stripped round trip silently dropped the scenario and the webhook.
    @Test func aMappingReadBackCanBePutBackWhole() throws {
        let subject = MockServer(stubs: try StubLoader.parse(#"{"mappings": []}"#, file: "m.json", directory: "."))
        let json = ["Content-Type": "application/json"] as HTTPHeaders
        let id = "5a2c0e3e-1111-4222-8333-444455556666"
        let mapping = #"""
            {"id": "\#(id)", "scenarioName": "S1", "requiredScenarioState": "Started", "newScenarioState": "Two", "persistent": true,
             "request": {"url": "/sc1"}, "response": {"body": "z"},
             "postServeActions": [{"name": "webhook", "parameters": {"url": "http://127.0.0.1:9/cb"}}]}
            """#
        #expect(subject.ask("POST", "/__admin/mappings", headers: json, body: mapping).status == 201)
        let read = subject.ask("GET", "/__admin/mappings/\(id)").body
        for part in [#""scenarioName":"S1""#, #""requiredScenarioState":"Started""#, #""newScenarioState":"Two""#, #""persistent":true"#] {
            #expect(read.contains(part), "\(read)")
        }
        #expect(read.contains(#""postServeActions":[{"name":"webhook","parameters":{"url":"http://127.0.0.1:9/cb"}}]"#), "\(read)")
        #expect(subject.ask("PUT", "/__admin/mappings/\(id)", headers: json, body: read).status == 200)
        #expect(subject.ask("GET", "/__admin/mappings/\(id)").body == read)
        #expect(subject.ask("PUT", "/__admin/scenarios/S1/state", headers: json, body: #"{"state": "Two"}"#).status == 200)
        #expect(subject.ask("GET", "/sc1").status == 404, "the scenario requirement was kept")
    }

    /// Attack 1, F4: a mapping file's mapping without an id got `root/mappings/a.json:1`, which no admin endpoint could
    /// address; it gets a UUID (the same on every load), as WireMock gives one.
    @Test func aFileMappingWithoutAnIdGetsAUUIDTheAdminAPIAddresses() throws {
        let text = #"{"mappings": [{"request": {"url": "/a"}, "response": {"body": "a"}}, {"request": {"url": "/b"}, "response": {}}]}"#
        let load = { try StubLoader.parse(text, file: "root/mappings/a\n.json", directory: ".") }
        let subject = MockServer(stubs: try load())
        let ids = subject.summary.routes.map(\.id)
        #expect(ids.count == 2 && ids.allSatisfy { StubSet.uuid($0) == $0 } && ids[0] != ids[1], "\(ids)")
        #expect(MockServer(stubs: try load()).summary.routes.map(\.id) == ids, "the same on every load")
        #expect(subject.ask("GET", "/__admin/mappings/\(ids[0])").body.contains(#""request":{"url":"/a"}"#))
        #expect(subject.ask("DELETE", "/__admin/mappings/\(ids[0])").status == 200)
        #expect(subject.ask("GET", "/a").status == 404)
    }

    @Test func globalSettingsNearMissQueriesAndSave() throws {
        let subject = MockServer(
            stubs: try StubLoader.parse(
                #"{"request": {"method": "GET", "url": "/hello"}, "response": {"body": "hi"}}"#,
                file: "m.json", directory: "."))
        let json = ["Content-Type": "application/json"] as HTTPHeaders
        #expect(subject.ask("POST", "/__admin/settings", headers: json, body: #"{"fixedDelay": 250}"#).status == 200)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/hello")).delayMs == 250)
        #expect(subject.ask("POST", "/__admin/settings", headers: json, body: #"{"settings": {"fixedDelay": 0}}"#).status == 200)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/hello")).delayMs == 0)
        let refused = subject.ask("POST", "/__admin/settings", headers: json, body: #"{"delayDistribution": {"type": "uniform"}}"#)
        #expect(refused.status == 422 && refused.body.contains("\"delayDistribution\" is not supported"))

        let near = subject.ask("POST", "/__admin/near-misses/request", headers: json, body: #"{"url": "/helo", "method": "GET"}"#)
        let parsed = try JSONParser.parse(near.body)
        let first = try #require(parsed.members.flatMap { JSONNode.member("nearMisses", in: $0) }?.elements?.first?.members)
        #expect(JSONNode.member("stubMapping", in: first) != nil)
        let distance = try #require(
            JSONNode.member("matchResult", in: first)?.members.flatMap { JSONNode.member("distance", in: $0) }?.double)
        #expect(distance > 0 && distance < 1)
        _ = subject.ask("GET", "/hello")
        let byPattern = subject.ask(
            "POST", "/__admin/near-misses/request-pattern", headers: json, body: #"{"method": "GET", "url": "/hell"}"#)
        #expect(
            byPattern.status == 200 && byPattern.body.contains(#""requestPattern":{"#) && byPattern.body.contains(#""url":"/hello""#),
            "\(byPattern.body)")

        // save: what reset returns to.
        #expect(
            subject.ask("POST", "/__admin/mappings", headers: json, body: #"{"request": {"url": "/added"}, "response": {"body": "new"}}"#)
                .status == 201)
        #expect(subject.ask("POST", "/__admin/mappings/save", headers: json).status == 200)
        #expect(subject.ask("POST", "/__admin/mappings/reset", headers: json).status == 200)
        #expect(subject.ask("GET", "/added").body == "new")
    }

    @Test func templatesReadPathSegmentsTheWayBothWireMockVersionsWriteThem() throws {
        let stubs = try StubLoader.parse(
            #"""
            {"request": {"method": "GET", "urlPathPattern": "/users/[0-9]+/orders/[0-9]+"},
             "response": {"body": "{{request.path.[1]}} {{request.pathSegments.[3]}} [{{request.path.[9]}}]", "transformers": ["response-template"]}}
            """#, file: "m.json", directory: ".")
        #expect(MockServer(stubs: stubs).ask("GET", "/users/42/orders/7").body == "42 7 []")
    }

    @Test func requestMatchers() throws {
        let subject = try server()
        #expect(subject.ask("GET", "/query?search=Milano&page=2").body == "queryParameters")
        #expect(subject.ask("GET", "/query?search=Milano&page=2&debug=1").status == 404)
        #expect(subject.ask("GET", "/query?search=Roma&page=2").status == 404)
        #expect(subject.ask("GET", "/headers", headers: ["Accept": "application/json", "Authorization": "x"]).body == "headers")
        #expect(subject.ask("GET", "/headers", headers: ["Accept": "application/json"]).status == 404)
        #expect(
            subject.ask("GET", "/headers", headers: ["Accept": "application/json", "Authorization": "x", "X-Trace": "bad1"]).status == 404)
        #expect(subject.ask("GET", "/cookies", headers: ["Cookie": "other=1; session=abc"]).body == "cookies")
        #expect(subject.ask("POST", "/body/equal", body: "exact").body == "equalTo")
        #expect(subject.ask("POST", "/body/equal", body: "exact ").status == 404)
        #expect(subject.ask("POST", "/body/contains", body: "a needle here").body == "contains + doesNotMatch")
        #expect(subject.ask("POST", "/body/contains", body: "a needle, forbidden").status == 404)
        #expect(subject.ask("POST", "/body/matches", body: "id=123").body == "matches")
        #expect(subject.ask("POST", "/body/json", body: #"{"tags":["a","b"],"name":"Ada"}"#).body == "equalToJson")
        #expect(subject.ask("POST", "/body/json", body: #"{"tags":["b","a"],"name":"Ada"}"#).status == 404)
        #expect(subject.ask("POST", "/body/json-lenient", body: #"{"tags":["a","b","c"],"extra":1}"#).body == "equalToJson lenient")
        #expect(
            subject.ask("POST", "/body/jsonpath", body: #"{"order":{"items":[{"sku":"B2"},{"sku":"A1"}],"total":42}}"#).body
                == "matchesJsonPath")
        #expect(subject.ask("POST", "/body/jsonpath", body: #"{"order":{"items":[{"sku":"B2"}],"total":42}}"#).status == 404)
        #expect(subject.ask("POST", "/body/absent").body == "absent body")
        #expect(subject.ask("POST", "/body/absent", body: "x").status == 404)
    }

    @Test func responses() throws {
        let subject = try server()
        let teapot = subject.handle(HTTPRequest(method: "GET", target: "/response/status"))
        #expect(teapot.status == 418)
        #expect(teapot.reason == "I'm a teapot")
        #expect(teapot.headers.values("Set-Cookie") == ["a=1", "b=2"])
        #expect(teapot.headers["X-One"] == "1")
        let json = subject.handle(HTTPRequest(method: "GET", target: "/response/json"))
        #expect(String(decoding: json.body, as: UTF8.self) == #"{"list":[1,2],"ok":true}"#)
        #expect(json.headers["Content-Type"] == "application/json")
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/response/base64")).body == [0, 1, 2, 255])
        #expect(subject.ask("GET", "/response/file").body == "{\"hello\":\"from __files\"}\n")
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/response/delay")).delayMs == 200)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/fault/reset")).fault == .connectionReset)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/fault/empty")).fault == .emptyResponse)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/fault/chunk")).fault == .malformedChunk)
        #expect(subject.handle(HTTPRequest(method: "GET", target: "/fault/random")).fault == .randomDataThenClose)
    }

    @Test func priorityRecencyAndScenarios() throws {
        let subject = try server()
        #expect(subject.ask("GET", "/priority").body == "priority 1")
        #expect(subject.ask("GET", "/recent").body == "newer wins")
        #expect(subject.ask("GET", "/todo/items").body == #"{"items":["Buy milk"]}"#)
        #expect(subject.ask("POST", "/todo/items", body: "Cancel newspaper subscription").status == 201)
        #expect(subject.ask("GET", "/todo/items").body == #"{"items":["Buy milk","Cancel newspaper subscription"]}"#)
        #expect(subject.summary.routes.first { $0.id == "8c5db8b0-2db4-4ad7-a99f-38c9b00da3f7" }?.calls == 1)
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func adminAPIDrivesTheServerWhileItRuns() throws {
        let server = try TestServer(stubs: try StubLoader.load(Self.root))
        defer { server.stop() }
        let added = try run(
            "curl",
            [
                "-s", "-w", " %{http_code}", "-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                #"{"request":{"method":"GET","urlPath":"/added"},"response":{"body":"added at run time"}}"#,
                "\(server.url)/__admin/mappings",
            ])
        #expect(added.stdout.hasSuffix(" 201"))
        #expect(try run("curl", ["-s", "\(server.url)/added"]).stdout == "added at run time")
        #expect(try run("curl", ["-s", "\(server.url)/nothing"]).status == 0)
        let journal = try run("curl", ["-s", "\(server.url)/__admin/requests"]).stdout
        #expect(journal.hasPrefix("{\"requests\":[{\"id\":\"00000000-0000-4000-8000-000000000002\""))
        #expect(journal.hasSuffix("\"meta\":{\"total\":2},\"requestJournalDisabled\":false}"))
        let count = try run(
            "curl",
            [
                "-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"method":"GET","urlPath":"/added"}"#,
                "\(server.url)/__admin/requests/count",
            ]
        ).stdout
        #expect(count == #"{"count":1}"#)
        let found = try run(
            "curl",
            [
                "-s", "-X", "POST", "-H", "Content-Type: application/json", "-d", #"{"urlPathPattern":"/no.*"}"#,
                "\(server.url)/__admin/requests/find",
            ]
        ).stdout
        #expect(found.hasPrefix(#"{"requests":[{"id":"00000000-0000-4000-8000-000000000002","url":"/nothing""#), "\(found)")
        let nearMisses = try run("curl", ["-s", "\(server.url)/__admin/requests/unmatched/near-misses"]).stdout
        #expect(nearMisses.hasPrefix(#"{"nearMisses":[{"request":{"#) && nearMisses.contains(#""url":"/nothing""#), "\(nearMisses)")
        #expect(nearMisses.contains(#""stubMapping":{"#) && nearMisses.contains(#""matchResult":{"distance":"#), "\(nearMisses)")
        let one = try run("curl", ["-s", "\(server.url)/__admin/requests/00000000-0000-4000-8000-000000000001"]).stdout
        #expect(one.contains(#""wasMatched":true"#) && one.contains(#""url":"/added""#), "\(one)")
        let unmatched = try run("curl", ["-s", "\(server.url)/__admin/requests/unmatched"]).stdout
        #expect(unmatched.contains("\"url\":\"/nothing\""))
        #expect(unmatched.hasPrefix(#"{"requests":[{"id":"#))
        let mappings = try run("curl", ["-s", "\(server.url)/__admin/mappings"]).stdout
        #expect(mappings.contains("\"name\":\"GET /added\""))
        _ = try run("curl", ["-s", "-X", "POST", "\(server.url)/__admin/reset"])
        #expect(try run("curl", ["-s", "-w", "%{http_code}", "-o", "/dev/null", "\(server.url)/added"]).stdout == "404")
        #expect(try run("curl", ["-s", "\(server.url)/__admin/health"]).stdout == "{\"status\":\"ok\"}")
        let bad = try run(
            "curl",
            [
                "-s", "-w", " %{http_code}", "-X", "POST", "-H", "Content-Type: application/json", "--data-binary",
                #"{"request":{"urlPth":"/x"}}"#, "\(server.url)/__admin/mappings",
            ])
        #expect(bad.stdout.contains("did you mean \"urlPath\"?"))
        #expect(bad.stdout.hasSuffix(" 422"))
    }
}

@Suite struct WireMockAdminMappingsTests {
    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func mappingsAreAddedReadReplacedImportedAndRemovedInWireMocksShape() throws {
        let server = try TestServer(#"{ "routes": [] }"#)
        defer { server.stop() }
        let json = ["-H", "Content-Type: application/json"]
        let id = "11111111-2222-3333-4444-555555555555"
        let added = try run(
            "curl",
            ["-s", "-X", "POST"] + json + [
                "-d", #"{"id":"\#(id)","request":{"urlPath":"/a"},"response":{"body":"one"}}"#, "\(server.url)/__admin/mappings",
            ]
        ).stdout
        #expect(
            added.hasPrefix(#"{"id":"\#(id)","uuid":"\#(id)","name":"ANY /a","request":{"urlPath":"/a"},"response":{"body":"one"}"#),
            "\(added)")
        #expect(try run("curl", ["-s", "\(server.url)/a"]).stdout == "one")
        #expect(try run("curl", ["-s", "\(server.url)/__admin/mappings/\(id)"]).stdout.contains(#""calls":1"#))
        _ = try run(
            "curl",
            ["-s", "-X", "PUT"] + json + [
                "-d", #"{"request":{"urlPath":"/a"},"response":{"body":"two"}}"#, "\(server.url)/__admin/mappings/\(id)",
            ])
        #expect(try run("curl", ["-s", "\(server.url)/a"]).stdout == "two")
        _ = try run(
            "curl",
            ["-s", "-X", "POST"] + json + [
                "-d", #"{"mappings":[{"request":{"urlPath":"/b"},"response":{"body":"b"}}]}"#, "\(server.url)/__admin/mappings/import",
            ])
        #expect(try run("curl", ["-s", "\(server.url)/b"]).stdout == "b")
        _ = try run("curl", ["-s", "-X", "DELETE", "\(server.url)/__admin/mappings/\(id)"])
        #expect(try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(server.url)/a"]).stdout == "404")
        let all = try run("curl", ["-s", "\(server.url)/__admin/mappings"]).stdout
        #expect(all.hasSuffix(#""meta":{"total":1}}"#) && all.contains(#""request":{"urlPath":"/b"}"#), "\(all)")
        #expect(try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(server.url)/__admin/mappings/\(id)"]).stdout == "404")
    }
}

@Suite struct WireMockMetadataTests {
    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func mappingsAreFoundAndRemovedByTheirMetadata() throws {
        let server = try TestServer(#"{ "routes": [] }"#)
        defer { server.stop() }
        let json = ["-s", "-X", "POST", "-H", "Content-Type: application/json", "-d"]
        let mappings = #"""
            {"mappings":[
              {"request":{"urlPath":"/a"},"response":{"body":"a"},"metadata":{"tags":["smoke","cart"],"owner":"ada"}},
              {"request":{"urlPath":"/b"},"response":{"body":"b"},"metadata":{"tags":["cart"]}},
              {"request":{"urlPath":"/c"},"response":{"body":"c"}}
            ]}
            """#
        _ = try run("curl", json + [mappings, "\(server.url)/__admin/mappings/import"])
        let smoke = try run(
            "curl", json + [#"{"matchesJsonPath":"$.tags[?(@ == 'smoke')]"}"#, "\(server.url)/__admin/mappings/find-by-metadata"]
        ).stdout
        #expect(
            smoke.contains(#""urlPath":"/a""#) && !smoke.contains(#""urlPath":"/b""#) && smoke.hasSuffix(#""meta":{"total":1}}"#),
            "\(smoke)")
        #expect(smoke.contains(#""metadata":{"tags":["smoke","cart"],"owner":"ada"}"#), "\(smoke)")
        let owner = try run(
            "curl",
            json + [#"{"matchesJsonPath":{"expression":"$.owner","equalTo":"ada"}}"#, "\(server.url)/__admin/mappings/find-by-metadata"]
        ).stdout
        #expect(owner.hasSuffix(#""meta":{"total":1}}"#), "\(owner)")
        let cart = try run(
            "curl",
            json + [
                #"{"equalToJson":{"tags":["cart"]},"ignoreExtraElements":true,"ignoreArrayOrder":true}"#,
                "\(server.url)/__admin/mappings/find-by-metadata",
            ]
        ).stdout
        #expect(cart.hasSuffix(#""meta":{"total":2}}"#), "\(cart)")
        _ = try run("curl", json + [#"{"matchesJsonPath":"$.tags[?(@ == 'cart')]"}"#, "\(server.url)/__admin/mappings/remove-by-metadata"])
        #expect(try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(server.url)/a"]).stdout == "404")
        #expect(try run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "\(server.url)/b"]).stdout == "404")
        #expect(try run("curl", ["-s", "\(server.url)/c"]).stdout == "c")
        let bad = try run("curl", json + [#"{"lessThan":3}"#, "-w", " %{http_code}", "\(server.url)/__admin/mappings/find-by-metadata"])
            .stdout
        #expect(bad.hasSuffix(" 422"), "\(bad)")
    }
}
