import AutomationTesting
import Foundation
import Testing

// This file imports AutomationTesting (and Testing, Foundation) only, as a user's test does: every type the test API's
// signatures use must be reachable by name through `import AutomationTesting` (the engine modules are not
// products a user can import), and the engine's other types must stay out of sight.

/// The chosen types re-exported by name work in a real launch on pipes and on a pseudo-terminal.
@Suite(.automationScope) struct PublicSurfaceTests {
    @Test func theTypesTheSignaturesUseAreReachableByName() async throws {
        let backend: LauncherBackend = .spawn
        let app = SUTApplication(executable: "/bin/sh", launcher: backend)
        try app.launch(arguments: ["-c", "echo out; echo err >&2; exit 3"])
        let status: ProcessStatus = try await app.waitForExit()
        #expect(status == .exited(3) && status.shellExitCode == 3)
        let stream: StandardStream = .stderr
        #expect(app.output(stream) == "err\n" && app.output() == "out\n")

        let terminal = SUTApplication(executable: "/bin/sh", terminal: .pseudo(columns: 20, rows: 4))
        try terminal.launch(arguments: ["-c", "read line; echo got $line"])
        let key: TerminalKey = .enter
        try terminal.type("hi")
        try terminal.press(key)
        #expect(try await terminal.waitForExit() == .exited(0))
        let screen: TerminalScreen = terminal.screen()
        let size: TerminalSize = screen.size
        #expect(size.columns == 20 && size.rows == 4 && screen.text.contains("got hi"), "\(screen.text)")
    }

    @Test func scenarioTypesAreReachableByName() {
        let options = ScenarioOptions()
        let step: @Sendable (StepContext) throws -> Void = { _ in }
        let library = StepLibrary()
        library.step("a step the surface test defines", step)
        let pickles: [Pickle] = []
        #expect(pickles.isEmpty && options.jobs >= 1)
    }

    /// The other side: ProcessEngine and Scenarios declare nothing else public at the top level, so re-exporting
    /// them (Exports.swift) shows users these nine types and nothing of the engine's insides.
    @Test func theEngineModulesMakeOnlyTheChosenTypesPublic() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let declaration = try Regex(#"^public (?:final |indirect )?(?:struct|enum|class|protocol|actor|typealias|func|var|let) (\w+)"#)
            .anchorsMatchLineEndings()
        var found: Set<String> = []
        for module in ["ProcessEngine", "Scenarios"] {
            let directory = root.appendingPathComponent("Sources/\(module)")
            let files = FileManager.default.enumerator(atPath: directory.path)?.compactMap { $0 as? String } ?? []
            #expect(files.contains { $0.hasSuffix(".swift") }, "no sources under \(directory.path)")
            for file in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for match in text.matches(of: declaration) { found.insert(String(text[match.output[1].range!])) }
            }
        }
        let chosen: Set = [
            "ProcessStatus", "StandardStream", "LauncherBackend", "TerminalSize", "TerminalScreen", "TerminalKey",
            "Pickle", "ScenarioOptions", "StepContext",
        ]
        #expect(
            found == chosen,
            "public beyond the chosen types: \(found.subtracting(chosen).sorted()); missing: \(chosen.subtracting(found).sorted())")
    }
}
