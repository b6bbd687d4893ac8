import ProcessEngine
import Scenarios
import XCTest

@testable import AutomationTesting

/// The same helpers under XCTest: a scope per test, teardown, released properties.
final class AutomationTestCaseTests: AutomationTestCase {
    @Released var app: SUTApplication?

    func testLaunchWaitAndExitUnderXCTest() async throws {
        let app = SUTApplication(executable: myAppCLI)
        self.app = app
        XCTAssertTrue(AutomationScope.current === scope)
        try app.launch(featureFlags: ["greeting": "ciao"], arguments: ["greet"])
        try await app.waitForOutput(containing: "ciao, world")
        let code = try await app.exitCode
        XCTAssertEqual(code, 0)
        XCTAssertEqual(scope.applications.count, 1)
    }

    func testAMockServerUnderXCTest() async throws {
        let server = try MockServerBuilder().route("GET /message") { _, _ in .ok(text: "x") }.route("GET /image") { _, _ in .ok(text: "y") }
            .start()
        let app = SUTApplication(executable: myAppCLI)
        try app.launch(arguments: ["fetch"], server: server)
        let code = try await app.exitCode
        XCTAssertEqual(code, 0)
        assertReceived(server, "GET /message", times: 1)
    }

    func testTheControlChannelUnderXCTest() async throws {
        let app = SUTApplication(executable: myAppCLI)
        self.app = app
        try app.launch(arguments: ["listen"])
        try await app.waitForOutput(containing: "listening for control messages")
        let reply = try await app.setFlag("greeting", "salve", waitForAck: .seconds(5))
        XCTAssertEqual(reply, "salve")
        try await app.waitForOutput(containing: "greeting is now salve")
        try await app.send("quit", waitForAck: .seconds(5))
        let code = try await app.exitCode
        XCTAssertEqual(code, 0)
    }

    func testReleasedPropertiesAreLetGo() {
        let owner = Owner()
        owner.value = "kept until released"
        releaseReleasedProperties(in: owner)
        XCTAssertNil(owner.value)
    }

    final class Owner {
        @Released var value: String?
    }
}
