import Foundation
import Testing

/// Issue 24, paths in steps: a path that names an input (the program, stubs, a fixture tree) is relative to the
/// feature file's directory, wherever `sut-launch test` runs from; files the scenario writes and reads are in its
/// own directory.
@Suite struct ScenarioPathsEndToEndTests {
    /// `features/sub/` holds the feature, its program, stubs and fixture tree; `elsewhere/` (the current
    /// directory of the run) holds a program and a fixture tree of the same names that must not be picked.
    static func layout(in directory: URL) throws -> (feature: String, cwd: URL) {
        let script = { (said: String) in "#!/bin/sh\necho \"\(said)\"\n" }
        for (place, said) in [("features/sub", "beside the feature"), ("elsewhere", "from the current directory")] {
            let program = try CLI.write(script(said), "\(place)/client.sh", in: directory)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
            _ = try CLI.write(said + "\n", "\(place)/fixture/note.txt", in: directory)
            _ = try CLI.write(#"{ "routes": [ { "path": "/where", "body": "\#(said)" } ] }"#, "\(place)/stubs.json", in: directory)
        }
        let feature = try CLI.write(
            """
            Feature: paths
              Scenario: the program beside the feature
                Given the program "./client.sh"
                When I launch the program
                Then I see "beside the feature"
                And I do not see "from the current directory"
                And the exit code is 0

              Scenario: a fixture tree and stubs beside the feature, files in the scenario's directory
                Given the files from "fixture"
                And the stubs "./stubs.json"
                When I run "cat note.txt"
                Then I see "beside the feature"
                When I run "sh -c 'curl -s $SUT_MOCK_SERVER_URL/where > got.txt'"
                Then the file "got.txt" contains "beside the feature"

            """, "features/sub/paths.feature", in: directory)
        let cwd = directory.appendingPathComponent("elsewhere")
        return (feature, cwd)
    }

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl"))
    func inputPathsAreRelativeToTheFeatureFileNotTheCurrentDirectory() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, cwd) = try Self.layout(in: directory)
        // A relative feature path, so the feature's directory is relative to the current directory too.
        let result = try CLI.run(["test", "../features/sub/paths.feature"], cwd: cwd)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 passed"), "\(result.stdout)")
    }

    @Test func aPathFromAVariableIsTakenAsTheValueGivesIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, cwd) = try Self.layout(in: directory)
        let feature = try CLI.write(
            """
            Feature: variable
              Scenario: the program from a define
                Given the program "${APP}"
                When I launch the program
                Then I see "from the current directory"

            """, "features/sub/variable.feature", in: directory)
        let result = try CLI.run(["test", "-D", "APP=./client.sh", feature], cwd: cwd)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// R9B-2: a value the feature sets itself (`Given the environment variable`) at the start of an input path is the
    /// feature's, relative to its directory (it was taken from the current directory); a `-D` value stays the
    /// current directory's, and a missing directory's message names the base it used (it claimed the feature file's).
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl"))
    func aValueTheFeatureSetsIsRelativeToTheFeatureAndTheMessageNamesTheBase() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, cwd) = try Self.layout(in: directory)
        let feature = try CLI.write(
            """
            Feature: set here
              Scenario: fixture and stubs through a variable the feature sets
                Given the environment variable "FX" is "fixture"
                And the environment variable "S" is "stubs.json"
                And the files from "${FX}"
                And the stubs "${S}"
                When I run "cat note.txt"
                Then I see "beside the feature"
                When I run "sh -c 'curl -s $SUT_MOCK_SERVER_URL/where > got.txt'"
                Then the file "got.txt" contains "beside the feature"

            """, "features/sub/set.feature", in: directory)
        let result = try CLI.run(["test", feature], cwd: cwd)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let missing = try CLI.write(
            "Feature: m\n  Scenario: s\n    Given the files from \"${FX}\"\n", "features/sub/missing.feature", in: directory)
        let refused = try CLI.run(["test", "-D", "FX=nowhere", missing], cwd: cwd)
        #expect(refused.status == 1, "\(refused.stdout)\(refused.stderr)")
        #expect(
            refused.stdout.contains(
                "nowhere: no such directory (a path that starts with ${FX} is its value, relative to the current directory "),
            "\(refused.stdout)")
    }

    @Test func theStepListStatesBothPathRules() throws {
        let help = try CLI.run(["help", "steps"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("relative to the feature file's directory"), "\(help.stdout)")
        #expect(help.stdout.contains("relative to the scenario's directory"), "\(help.stdout)")
    }
}
