import Foundation
import ProcessEngine
import Scenarios
import Testing

@testable import AutomationTesting

/// Output and requests in one ordered list (TestAbstraction's expect-then-wait, across both).
@Suite(.automationScope) struct ExpectationListTests {
    private func fetchServer() throws -> MockServer {
        try MockServerBuilder().route("GET /message") { _, _ in .ok(text: "hello") }.route("GET /image") { _, _ in .ok(text: "png") }
            .start()
    }

    @Test func outputAndRequestsInTheOrderTheyHappened() async throws {
        let server = try fetchServer()
        let app = SUTApplication(executable: myAppCLI)
        try app.launch(arguments: ["fetch"], server: server)
        try await app.waitFor(
            [.request("GET /message"), .output("message: 200 hello"), .request("GET /image"), .output("image: 200")],
            timeout: .seconds(10))
        // Without order, any order holds.
        try await app.waitFor([.output("image: 200"), .request("GET /message")], enforceOrder: false)
    }

    @Test(.enabled(if: hasCommand("curl"), "needs curl (apt-get install curl)"))
    func anItemThatCameBeforeThePreviousOneFailsNamingIt() async throws {
        let server = try fetchServer()
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", #"curl -s "$SUT_MOCK_SERVER_URL/message"; echo; sleep 0.3; echo done"#], server: server)
        let error = await #expect(throws: AutomationError.self) {
            try await app.waitFor([.output("done"), .request("GET /message")], timeout: .seconds(1))
        }
        let message = error?.message ?? ""
        // Ended by the deadline or by the program's exit, whichever came first: both say what was seen.
        #expect(message.hasPrefix("expected, in this order, within 1s") && message.contains(":\n  ✓ output \"done\" (at "), "\(message)")
        #expect(message.contains("  ✗ a request to GET /message: not after the item before"), "\(message)")
        #expect(message.contains("requests seen, in order:\n  GET /message"), "\(message)")
        // In the order it happened, the same list holds.
        try await app.waitFor([.request("GET /message"), .output("done")])
    }

    @Test func outputThatNeverComesFailsOnceTheProgramHasEnded() async throws {
        let app = SUTApplication(executable: myAppCLI)
        try app.launch(featureFlags: ["greeting": "ciao"], arguments: ["greet"])
        let error = await #expect(throws: AutomationError.self) {
            try await app.waitFor([.output("ciao, world"), .output("never printed")], timeout: .seconds(600))
        }
        // Not a timing check (on 2 cores the test's task waited 110 s for a thread while other tests blocked both):
        // the wait says it stopped because the program ended, not because its time was up.
        #expect(error?.message.contains("within 10m (the program ended: nothing more could come):") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("  ✓ output \"ciao, world\"") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("  ✗ output \"never printed\": not after the item before") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("--- last") == true)
    }

    @Test func requestsNeedTheServerGivenAtLaunch() async throws {
        let app = SUTApplication(executable: myAppCLI)
        try app.launch(arguments: ["greet"])
        await #expect(throws: AutomationError.self) { try await app.waitFor([.request("GET /x")]) }
    }
}

private func hasCommand(_ name: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
    }
}
