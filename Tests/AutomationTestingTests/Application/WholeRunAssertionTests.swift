import MockServer
import Testing

@testable import AutomationTesting

/// `assertNoUnexpectedRequests(server)` judges at once; `assertNoUnexpectedRequests(server, after: app)` judges the
/// program's whole run (a request sent after the first form passed was missed by it).
@Suite(.automationScope) struct WholeRunAssertionTests {
    @Test func theWholeRunFormCatchesARequestSentAfterTheImmediateFormPassed() async throws {
        let server = try MockServerBuilder().route("GET /ok") { _, _ in .ok(text: "ok") }.lenient().start()
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "sleep 1; curl -s -o /dev/null \"$SUT_MOCK_SERVER_URL/late\""], server: server)
        assertNoUnexpectedRequests(server) // at once: nothing has arrived yet, so it passes (what it documents)
        await withKnownIssue {
            await assertNoUnexpectedRequests(server, after: app)
        } matching: { issue in
            let text = issue.comments.first?.rawValue ?? ""
            return text.hasPrefix("unexpected requests:\n") && text.contains("/late")
        }
        #expect(!app.isRunning)
    }

    @Test func aProgramStillRunningAtTheDeadlineIsAnIssueOfItsOwn() async throws {
        let server = try MockServerBuilder().route("GET /ok") { _, _ in .ok(text: "ok") }.lenient().start()
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "sleep 30"], server: server)
        await withKnownIssue {
            await assertNoUnexpectedRequests(server, after: app, timeout: .milliseconds(300))
        } matching: { issue in
            let text = issue.comments.first?.rawValue ?? ""
            return text.hasPrefix("the whole run could not be judged for unexpected requests: ") && text.contains("still running after")
        }
        app.terminate(grace: .milliseconds(100))
    }

    @Test func aCleanWholeRunPasses() async throws {
        let server = try MockServerBuilder().route("GET /ok") { _, _ in .ok(text: "ok") }.start()
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "sleep 0.3; curl -s -o /dev/null \"$SUT_MOCK_SERVER_URL/ok\""], server: server)
        await assertNoUnexpectedRequests(server, after: app)
        assertReceived(server, "GET /ok", times: 1)
    }
}
