import Foundation
import ProcessEngine
import Scenarios
import Testing

@testable import AutomationTesting

/// Issue 24 in the Swift test API: output waits and `output()` read the whole stream, past the memory
/// capture; none passes on a prefix. The capture is made small here (1 MiB) so the test is fast.
@Suite(.automationScope) struct OutputPastTheCaptureTests {
    /// 2 MiB of x lines, then FATAL and DONE (CRLF), then it exits.
    static func launchBig() throws -> SUTApplication {
        let app = SUTApplication(executable: "/bin/sh", defaultTimeout: .seconds(20))
        app.memoryCaptureLimit = 1 << 20
        try app.launch(arguments: ["-c", "head -c 2200000 /dev/zero | tr '\\0' x | fold -w 99; printf 'FATAL\\r\\nDONE\\r\\n'"])
        return app
    }

    @Test func waitsSeeOutputPastTheMemoryCapture() async throws {
        let app = try Self.launchBig()
        try await app.waitForOutput(containing: "FATAL")
        #expect(try await app.waitForOutput(matching: "^DONE$") == "DONE")
        try await app.waitFor([.output("FATAL"), .output("DONE")])
        #expect(try await app.exitCode == 0)
        let output = app.output()
        #expect(output.utf8.count > 2_200_000 && output.hasSuffix("FATAL\r\nDONE\r\n"))
    }

    @Test func notContainingFailsOnOutputPastTheMemoryCapture() async throws {
        let app = try Self.launchBig()
        _ = try await app.waitForExit()
        await #expect { try await app.waitForOutput(notContaining: "FATAL", for: .seconds(2)) } throws: {
            "\($0)".contains("\"FATAL\" appeared on stdout")
        }
        try await app.waitForOutput(notContaining: "NEVER PRINTED", for: .milliseconds(100))
    }
}
