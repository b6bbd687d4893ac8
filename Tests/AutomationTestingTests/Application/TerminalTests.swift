import Foundation
import ProcessEngine
import Scenarios
import Testing

@testable import AutomationTesting

/// Programs on a pseudo-terminal: they see a terminal of the asked size, their redraws are read as a
/// terminal shows them, keys (Ctrl-C included) act as a user's, and a resize reaches them as SIGWINCH.
@Suite(.automationScope) struct TerminalTests {
    @Test func theProgramSeesATerminalOfTheAskedSizeAndItsRedrawsAreRendered() async throws {
        let app = SUTApplication(executable: "/bin/sh", terminal: .pseudo(columns: 100, rows: 30))
        try app.launch(arguments: ["-c", #"[ -t 0 ] && [ -t 1 ] && [ -t 2 ] && echo tty; stty size; printf 'loading...\r\033[Kready\n'"#])
        #expect(try await app.exitCode == 0)
        try await app.waitForScreen(containing: "ready")
        #expect(app.screenText == "tty\n30 100\nready")
        #expect(app.output().contains("loading...")) // the raw output keeps what the screen overwrote
    }

    @Test func typedTextIsEchoedAndReadAsALine() async throws {
        let app = SUTApplication(executable: myAppCLI, terminal: .pseudo())
        try app.launch(arguments: ["login"])
        try await app.waitForScreen(containing: "username:")
        try app.type("ada")
        try app.press(.enter)
        try await app.waitForScreen(containing: "logged in as ada")
        #expect(app.screenText.contains("username:\nada\nlogged in as ada"))
        #expect(try await app.exitCode == 0)
    }

    @Test func controlCInterruptsTheProgramAsAUsersWould() async throws {
        let app = SUTApplication(executable: "/bin/sh", terminal: .pseudo())
        try app.launch(arguments: ["-c", #"trap 'echo interrupted; exit 3' INT; echo waiting; while :; do sleep 0.05; done"#])
        try await app.waitForScreen(containing: "waiting")
        try app.press(.control("c"))
        #expect(try await app.exitCode == 3)
        try await app.waitForScreen(containing: "interrupted")
    }

    @Test func aResizeReachesTheProgramAsSIGWINCH() async throws {
        let app = SUTApplication(executable: "/bin/sh", terminal: .pseudo(columns: 80, rows: 24))
        try app.launch(arguments: ["-c", #"trap 'stty size; exit 0' WINCH; echo ready; while :; do sleep 0.05; done"#])
        try await app.waitForScreen(containing: "ready")
        try app.resize(columns: 90, rows: 20)
        try await app.waitForScreen(containing: "20 90")
        #expect(try await app.exitCode == 0)
    }

    @Test func aScreenWaitThatFailsShowsTheScreen() async throws {
        let app = SUTApplication(executable: "/bin/sh", terminal: .pseudo(columns: 20, rows: 5))
        try app.launch(arguments: ["-c", #"printf 'old\r\033[Knew\n'"#])
        let error = await #expect(throws: AutomationError.self) {
            try await app.waitForScreen(containing: "old", timeout: .milliseconds(300))
        }
        #expect(error?.message.contains("--- screen (20x5) ---\nnew") == true, "\(error?.message ?? "")")
    }

    @Test func onPipesTheScreenIsRefusedByName() async throws {
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", "echo hi"])
        await #expect(throws: AutomationError.self) { try await app.waitForScreen(containing: "hi") }
        #expect(throws: AutomationError.self) { try app.resize(columns: 10, rows: 10) }
    }
}

/// Issue 16: AutomationTesting's public API documented at least 90 % (scripts/doc-coverage.sh counts it).
@Test func theTestingAPIIsDocumented() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let process = Process()
    process.executableURL = root.appendingPathComponent("scripts/doc-coverage.sh")
    process.arguments = ["AutomationTesting"]
    process.environment = ProcessInfo.processInfo.environment.merging(["MIN": "90"]) { $1 }
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let report = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "\(report)")
    #expect(report.hasPrefix("AutomationTesting: "))
}
