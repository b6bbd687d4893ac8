import Foundation
import Testing

@testable import AutomationTesting

/// `SUTApplication(coverageDirectory:)`: every launch profiled, ``SUTApplication/writeCoverage(threshold:)`` merges.
@Suite(.automationScope) struct CoverageTests {
    /// A one-line Swift program built instrumented (swiftc, well under a second); nil when swiftc fails.
    static let program: String? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-coverage-\(UUID().uuidString)")
        let file = directory.appendingPathComponent("hello.swift")
        let binary = directory.appendingPathComponent("hello").path
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil,
            (try? Data("print(CommandLine.arguments.count > 1 ? \"twice\" : \"once\")\n".utf8).write(to: file)) != nil
        else { return nil }
        let build = Process()
        build.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        build.arguments = ["swiftc", "-profile-generate", "-profile-coverage-mapping", file.path, "-o", binary]
        build.standardOutput = FileHandle.nullDevice
        build.standardError = FileHandle.nullDevice
        guard (try? build.run()) != nil else { return nil }
        build.waitUntilExit()
        return build.terminationStatus == 0 ? binary : nil
    }()

    @Test(.enabled(if: program != nil, "needs swiftc"))
    func twoLaunchesMergeIntoOneReport() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-cov-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = SUTApplication(executable: Self.program!, coverageDirectory: directory)
        try app.launch()
        try await app.waitForOutput(containing: "once")
        _ = try app.writeCoverage() // the first launch alone
        try app.launch(arguments: ["again"])
        try await app.waitForOutput(containing: "twice")
        let line = try app.writeCoverage(threshold: 50)
        #expect(line.contains("coverage: lines 100.0%"), "\(line)")
        #expect(line.contains("(2 profiles of 2 launches)"), "\(line)")
        #expect(FileManager.default.fileExists(atPath: directory + "/coverage.xml"))
    }

    @Test func aProgramNotBuiltInstrumentedThrowsSayingHowToBuildIt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sut-cov-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let app = SUTApplication(executable: "/bin/echo", coverageDirectory: directory)
        try app.launch(arguments: ["hi"])
        try await app.waitForOutput(containing: "hi")
        do {
            _ = try app.writeCoverage()
            Issue.record("writeCoverage passed on a program that wrote no profile")
        } catch {
            #expect("\(error)".contains("echo wrote no profile: build it with -profile-generate -profile-coverage-mapping"), "\(error)")
        }
        #expect(throws: AutomationError.self) { try app.writeCoverage() } // nothing launched since
    }
}
