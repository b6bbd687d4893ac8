import Foundation
import Testing

@testable import MockServer

/// WireMock response templating (`"transformers": ["response-template"]`), asked over real sockets with curl.
@Suite struct ResponseTemplateTests {
    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func templatesRenderRequestValuesAndHelpers() throws {
        let server = try TestServer(
            #"""
            { "mappings": [
              { "request": { "urlPathTemplate": "/users/{id}/orders" },
                "response": { "status": 200, "transformers": ["response-template"],
                  "headers": { "X-Echo": "{{request.headers.X-Trace}}", "X-Id": "{{request.path.id}}", "X-Q": "{{request.query.q}}" },
                  "body": "id={{request.path.id}} seg={{request.pathSegments.[0]}} q={{upper request.query.q}} m={{request.method}} url={{{request.url}}} escaped={{request.url}}" } },
              { "request": { "method": "POST", "urlPath": "/echo" },
                "response": { "transformers": ["response-template"],
                  "jsonBody": { "name": "{{jsonPath request.body '$.user.name'}}", "size": "{{size request.body}}" } } },
              { "request": { "urlPath": "/random" },
                "response": { "transformers": ["response-template"], "body": "{{randomValue length=12 type='NUMERIC'}} {{randomValue type='UUID'}} {{now format='unix'}}" } },
              { "request": { "urlPath": "/later" }, "response": { "transformers": ["response-template"], "body": "{{now offset='-3 days' format='unix'}}" } },
              { "request": { "urlPath": "/plain" }, "response": { "body": "{{request.path}}" } }
            ] }
            """#)
        defer { server.stop() }
        let first = try run("curl", ["-s", "-D", "-", "-H", "X-Trace: t-42", "\(server.url)/users/ada/orders?q=milk"]).stdout
        #expect(
            first.contains("id=ada seg=users q=MILK m=GET url=/users/ada/orders?q=milk escaped=/users/ada/orders?q&#x3D;milk"), "\(first)")
        #expect(first.lowercased().contains("x-echo: t-42"), "\(first)")
        let echo = try run("curl", ["-s", "-d", #"{"user":{"name":"Ada"}}"#, "\(server.url)/echo"]).stdout
        #expect(echo == #"{"name":"Ada","size":"23"}"#)
        let random = try run("curl", ["-s", "\(server.url)/random"]).stdout.split(separator: " ")
        #expect(random.count == 3)
        #expect(random[0].count == 12 && random[0].allSatisfy(\.isNumber))
        #expect(random[1].count == 36 && random[1].split(separator: "-").map(\.count) == [8, 4, 4, 4, 12])
        let seconds = Int(random[2]) ?? 0
        #expect(abs(seconds - Int(Date().timeIntervalSince1970)) < 60)
        let later = Int(try run("curl", ["-s", "\(server.url)/later"]).stdout) ?? 0
        #expect(abs(later + 3 * 86_400 - Int(Date().timeIntervalSince1970)) < 60)
        // A request value cannot split the response: CR LF in a header template become spaces.
        let split = try run(
            "curl",
            [
                "-s", "-D", "-", "-o", "/dev/null", "-H", "X-Trace: a",
                "\(server.url)/users/x%0D%0AX-Injected:%201/orders?q=b%0D%0AX-Injected:%202",
            ]
        ).stdout
        #expect(split.hasPrefix("HTTP/1.1 200") && split.lowercased().contains("x-q: b x-injected: 2"), "\(split)")
        #expect(!split.lowercased().contains("\r\nx-injected"), "\(split)")
        // Without the transformer the braces are sent as written, as WireMock does.
        #expect(try run("curl", ["-s", "\(server.url)/plain"]).stdout == "{{request.path}}")
    }

    /// Native routes template with `"template": true`: the same engine, blocks included.
    @Test func nativeRoutesTemplateWhenAsked() throws {
        let stubs = try StubLoader.parse(
            #"""
            {"routes": [
              {"method": "POST", "path": "/orders/{id}", "template": true, "status": 201,
               "json": {"id": "{{request.path.id}}", "items": "{{#each (jsonPath request.body '$.items') as |item|}}{{item}}{{#unless @last}},{{/unless}}{{/each}}"},
               "responseHeaders": {"Location": "/orders/{{request.path.id}}"}},
              {"method": "GET", "path": "/plain", "body": "{{request.path}}"}
            ]}
            """#, file: "routes.json", directory: ".")
        let server = MockServer(stubs: stubs)
        let created = server.handle(HTTPRequest(method: "POST", target: "/orders/42", body: Array(#"{"items": ["tea", "milk"]}"#.utf8)))
        #expect(created.status == 201)
        #expect(String(decoding: created.body, as: UTF8.self) == #"{"id":"42","items":"tea,milk"}"#)
        #expect(created.headers["Location"] == "/orders/42")
        #expect(String(decoding: server.handle(HTTPRequest(method: "GET", target: "/plain")).body, as: UTF8.self) == "{{request.path}}")
        #expect(throws: StubError.self) {
            try StubLoader.parse(
                #"{"routes": [{"path": "/x", "template": true, "body": "{{#each request.query.a}}"}]}"#, file: "r.json", directory: ".")
        }
    }

    /// A client's big array under nested loops: the answer is a 500 naming the step budget (not a body cut
    /// short as if whole), and it does not run for hours.
    @Test func nestedLoopsOverAClientsArrayStopAtTheBudget() throws {
        let stubs = try StubLoader.parse(
            #"""
            {"routes": [{"method": "POST", "path": "/loop", "template": true,
              "body": "{{#each (jsonPath request.body '$.a')}}{{#each (jsonPath request.body '$.a')}}x{{/each}}{{/each}}"}]}
            """#, file: "routes.json", directory: ".")
        let array = "[" + Array(repeating: "1", count: 20_000).joined(separator: ",") + "]"
        let answer = MockServer(stubs: stubs).handle(HTTPRequest(method: "POST", target: "/loop", body: Array(#"{"a": \#(array)}"#.utf8)))
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 500 && text.contains("step (2,000,000 nodes and loop turns) budget"), "\(answer.status) \(text)")
    }

    /// R8a-A8: `request.cookies` as a whole was empty (#each, #with, #if, size) and a cookie sent twice printed its last
    /// value. Now a map of each name to its values, the first printed, as the WireMock 2.35.1 jar renders
    /// `Cookie: a=1; b=2; a=3` (`[1][a=1;b=2;][2][3][yes][2]`).
    @Test func cookiesAreACollectionAndARepeatedCookiePrintsItsFirstValue() throws {
        let template = try ResponseTemplate(
            "[{{request.cookies.a}}][{{#each request.cookies}}{{@key}}={{this}};{{/each}}][{{size request.cookies}}]"
                + "[{{request.cookies.a.[1]}}][{{#if request.cookies}}yes{{else}}no{{/if}}][{{#with request.cookies}}{{b}}{{/with}}]"
                + "[{{#each request.cookies.a}}{{this}},{{/each}}][{{size request.cookies.a}}]")
        let request = HTTPRequest(method: "GET", target: "/t", headers: ["Cookie": "a=1; b=2; a=3"])
        #expect(try template.render(request) == "[1][a=1;b=2;][2][3][yes][2][1,3,][2]")
        let none = try ResponseTemplate("[{{#each request.cookies}}x{{/each}}][{{size request.cookies}}]")
        #expect(try none.render(HTTPRequest(method: "GET", target: "/t")) == "[][0]")
    }
}
