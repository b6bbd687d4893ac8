import Foundation
import ProcessEngine
import Scenarios
import Testing

@testable import AutomationTesting

/// Round 4b W, V and H in the Swift API: a wait that could never fail is refused by name, never passed: stderr in a
/// pseudo-terminal (the program's stderr is the terminal), an empty text or a pattern that matches empty text, a
/// request that could never match or is expected 0 times.
@Suite(.automationScope) struct WaitsThatCouldNeverFailTests {
    @Test func stderrInAPseudoTerminalIsRefused() async throws {
        let app = SUTApplication(executable: "/bin/sh", terminal: .pseudo())
        try app.launch(arguments: ["-c", "echo fatal-error >&2; echo out; sleep 0.3"])
        defer { app.terminate() }
        await #expect { try await app.waitForOutput(notContaining: "fatal-error", on: .stderr, for: .milliseconds(100)) } throws: {
            "\($0)".contains("pseudo-terminal")
        }
        await #expect { try await app.waitForOutput(containing: "x", on: .stderr) } throws: { "\($0)".contains("pseudo-terminal") }
        await #expect { try await app.waitFor([.output("out"), .output("fatal-error", on: .stderr)]) } throws: {
            "\($0)".contains("pseudo-terminal")
        }
        try await app.waitForOutput(containing: "fatal-error") // where it went: the terminal, with stdout
    }

    @Test func waitsThatMatchAnythingAreRefused() async throws {
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "echo hello; sleep 0.3"])
        defer { app.terminate() }
        await #expect { try await app.waitForOutput(containing: "") } throws: { "\($0)".contains("empty") }
        for pattern in ["", "x*", "error: .*|"] {
            await #expect { try await app.waitForOutput(matching: pattern) } throws: { "\($0)".contains("can match empty text") }
        }
        await #expect { try await app.waitFor([.request("GET /x?a=1")]) } throws: { "\($0)".contains("query string") }
        await #expect { try await app.waitFor([.request("GET /x", times: 0)]) } throws: { "\($0)".contains("could never fail") }
        #expect(try await app.waitForOutput(matching: "^hello$") == "hello")
    }
}
