import AutomationTesting
import Foundation
import ProcessEngine
import Scenarios
import Testing

/// Closure routes read path parameters; sequences cycle; expect-then-wait (issue 16, first points).
@Suite(.automationScope) struct MockServerExpectationTests {
    private func curl(_ arguments: String) throws -> String {
        try SUTApplication.run("curl -s \(arguments)").stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func closureRoutesReadPathParametersAndTypedValues() throws {
        let server = try MockServerBuilder()
            .route("GET /users/{id}/orders/{order}") { request, _ in
                let id = request.pathParameter("id", as: Int.self).map(String.init) ?? "not a number"
                return .ok(
                    text:
                        "\(id) \(request.pathParameter("order") ?? "-") \(request.query("page", as: Int.self) ?? 0) \(request.cookie("s") ?? "-")"
                )
            }
            .start()
        #expect(try curl("-b s=abc '\(server.url)/users/42/orders/caf%C3%A9?page=3'") == "42 café 3 abc")
        #expect(try curl("'\(server.url)/users/ada/orders/1'") == "not a number 1 0 -")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func responsesCycleOrRepeatTheLast() throws {
        let server = try MockServerBuilder()
            .route("GET /cycle", responses: [.ok(text: "a"), .ok(text: "b")], then: .cycle)
            .route("GET /repeat", responses: [.ok(text: "a"), .ok(text: "b")])
            .start()
        #expect(try curl("\(server.url)/cycle \(server.url)/cycle \(server.url)/cycle") == "aba")
        #expect(try curl("\(server.url)/repeat \(server.url)/repeat \(server.url)/repeat") == "abb")
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"), "needs curl"))
    func declaredCallsAreWaitedForInOrder() async throws {
        let server = try MockServerBuilder()
            .route("POST /login") { _, _ in .ok(text: "t") }
            .route("GET /cities") { _, _ in .ok(text: "[]") }
            .start()
        server.expect("POST /login", times: 2)
        server.expect("GET /cities")
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(
            environment: ["URL": server.url],
            arguments: ["-c", "sleep 0.2; curl -s -X POST $URL/login; curl -s -X POST $URL/login; curl -s $URL/cities"])
        try await server.waitForExpectations(timeout: .seconds(10), enforceOrder: true)
        let request = try await server.waitForRequest("GET /cities", timeout: .seconds(1))
        #expect(request.path == "/cities")

        await #expect { try await server.waitForRequest("GET /never", timeout: .milliseconds(100)) } throws: {
            "\($0)".contains("expected a request to GET /never") && "\($0)".contains("POST /login")
        }
        let outOfOrder = try MockServerBuilder().route("GET /a") { _, _ in .ok(text: "") }.route("GET /b") { _, _ in .ok(text: "") }.start()
        outOfOrder.expect("GET /b")
        outOfOrder.expect("GET /a")
        _ = try curl("\(outOfOrder.url)/a \(outOfOrder.url)/b")
        await #expect { try await outOfOrder.waitForExpectations(timeout: .milliseconds(100), enforceOrder: true) } throws: {
            "\($0)".contains("expected GET /b before GET /a")
        }
        try await outOfOrder.waitForExpectations(timeout: .milliseconds(100))
        outOfOrder.expect("GET /a", times: 3)
        await #expect { try await outOfOrder.waitForExpectations(timeout: .milliseconds(100)) } throws: {
            "\($0)".contains("expected 3 requests to GET /a, got 1")
        }
    }

    /// Round 4b H, in the Swift API: an expectation that could never fail is refused by name, never waited on: a
    /// route the server never compares (a query string, a URL), and `times: 0` (at least none always holds).
    @Test func expectationsThatCouldNeverFailAreRefusedByName() async throws {
        for (route, times, problem) in [
            ("GET /x?a=1", 1, "holds a query string"), ("GET http://127.0.0.1/x", 1, "is a URL"), ("GET /x", 0, "could never fail"),
        ] {
            let server = try MockServerBuilder().route("GET /x") { _, _ in .ok(text: "") }.start()
            server.expect(route, times: times)
            await #expect { try await server.waitForExpectations(timeout: .seconds(5)) } throws: { "\($0)".contains(problem) }
        }
        let server = try MockServerBuilder().route("GET /x") { _, _ in .ok(text: "") }.start()
        let started = ContinuousClock.now
        await #expect { try await server.waitForRequest("GET /x#top", timeout: .seconds(30)) } throws: { "\($0)".contains("#fragment") }
        #expect(ContinuousClock.now - started < .seconds(20))
    }
}
