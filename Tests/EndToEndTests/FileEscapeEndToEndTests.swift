import Foundation
import Testing

/// Hostile class 3 (escapes) on every file the product writes, from the outside: links planted inside→outside,
/// dangling links, links to directories, hard links, a file where a directory is expected. Each test keeps an
/// `outside` directory beside the scenario and checks nothing appeared in it (issue 24).
@Suite struct FileEscapeEndToEndTests {
    /// A temporary directory with an empty `outside/`; `body` gets both, and the directory is removed after.
    private func withDirectory(_ body: (URL, URL) throws -> Void) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outside = directory.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try body(directory, outside)
    }

    private func contents(_ directory: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    private var environment: [String: String] {
        var environment = CLI.localEnvironment
        environment["CI"] = nil
        environment["SUT_UPDATE_SNAPSHOTS"] = nil
        return environment
    }

    @Test func aFixtureLinkOutOfTheCopyIsRefusedAndTheNextFileStepWritesNothingOutside() throws {
        try withDirectory { directory, outside in
            let fixture = directory.appendingPathComponent("fixtures/project")
            try FileManager.default.createDirectory(at: fixture, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: fixture.appendingPathComponent("data").path, withDestinationPath: outside.path)
            let feature = try CLI.write(
                """
                Feature: escape
                  Scenario: copy then write
                    Given the files from "fixtures/project"
                    And a file "data/config.json" with:
                      \"\"\"
                      pwned
                      \"\"\"
                """, "a.feature", in: directory)
            let result = try CLI.run(["test", feature])
            #expect(result.status == 1, "\(result.stdout)")
            #expect(result.stdout.contains("is a symbolic link to \(outside.path), out of the copied directory"), "\(result.stdout)")
            #expect(contents(outside).isEmpty)
        }
    }

    @Test func aFixtureKeepsLinksThatStayInsideAndModesAndALinkLoopIsCopiedOnce() throws {
        try withDirectory { directory, outside in
            let fixture = directory.appendingPathComponent("fixtures/project")
            try FileManager.default.createDirectory(at: fixture.appendingPathComponent("sub"), withIntermediateDirectories: true)
            _ = try CLI.write("#!/bin/sh\necho run\n", "fixtures/project/sub/run.sh", in: directory)
            chmod(fixture.appendingPathComponent("sub/run.sh").path, 0o755)
            try FileManager.default.createSymbolicLink(atPath: fixture.appendingPathComponent("inner").path, withDestinationPath: "sub")
            try FileManager.default.createSymbolicLink(
                atPath: fixture.appendingPathComponent("sub/up").path, withDestinationPath: "../sub/run.sh")
            try FileManager.default.createSymbolicLink(atPath: fixture.appendingPathComponent("sub/loop").path, withDestinationPath: ".")
            let feature = try CLI.write(
                """
                Feature: fixtures
                  Scenario: links inside stay links
                    Given the files from "fixtures/project"
                    When I run "sh -c 'readlink inner; readlink sub/up; readlink sub/loop; ./inner/run.sh'"
                    Then the output is:
                      \"\"\"
                      sub
                      ../sub/run.sh
                      .
                      run
                      \"\"\"
                """, "a.feature", in: directory)
            let result = try CLI.run(["test", feature])
            #expect(result.status == 0, "\(result.stdout)")
            #expect(contents(outside).isEmpty)
        }
    }

    @Test func aFileStepNeverWritesThroughALinkAProgramPlanted() throws {
        try withDirectory { directory, outside in
            let feature = try CLI.write(
                """
                Feature: planted
                  Scenario: a link to a directory on the way
                    When I run "ln -s \(outside.path) data"
                    Given a file "data/config.json" with:
                      \"\"\"
                      pwned
                      \"\"\"

                  Scenario: a link at the name itself, and a hard link
                    When I run "sh -c 'ln -s \(outside.path)/target.txt out.txt; echo original > \(outside.path)/hard.txt; ln \(outside.path)/hard.txt hard.txt'"
                    Given a file "out.txt" with:
                      \"\"\"
                      mine
                      \"\"\"
                    And a file "hard.txt" with:
                      \"\"\"
                      mine
                      \"\"\"
                    When I run "sh -c 'test ! -L out.txt && cat out.txt hard.txt'"
                    Then the output is:
                      \"\"\"
                      mine
                      mine
                      \"\"\"

                  Scenario: a file where a directory is expected
                    When I run "touch data"
                    Given a file "data/config.json" with:
                      \"\"\"
                      x
                      \"\"\"
                """, "a.feature", in: directory)
            let result = try CLI.run(["test", feature])
            #expect(
                result.stdout.contains("\"data\" in ") && result.stdout.contains("is a symbolic link; sut-launch does not write"),
                "\(result.stdout)")
            #expect(result.stdout.contains("is not a directory"), "\(result.stdout)")
            #expect(result.stdout.contains("3 scenarios: 1 passed"), "\(result.stdout)")
            #expect(contents(outside) == ["hard.txt"])
            #expect(try String(contentsOf: outside.appendingPathComponent("hard.txt"), encoding: .utf8) == "original\n")
        }
    }

    @Test func updatingSnapshotsNeverWritesThroughALinkInSnapshots() throws {
        try withDirectory { directory, outside in
            let feature = try CLI.write(
                """
                Feature: snapshots
                  Scenario: a
                    When I run "echo pwned"
                    Then the output matches the snapshot "out"
                """, "a.feature", in: directory)
            let snapshots = directory.appendingPathComponent("__snapshots__")
            try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: snapshots.appendingPathComponent("a.feature").path, withDestinationPath: outside.path)
            let linked = try CLI.run(["test", "--update-snapshots", feature], environment: environment)
            #expect(linked.status == 1 && linked.stdout.contains("is a symbolic link"), "\(linked.stdout)")
            #expect(contents(outside).isEmpty)

            // The snapshot file itself a link to a file outside: neither read nor written through.
            try FileManager.default.removeItem(at: snapshots.appendingPathComponent("a.feature"))
            try FileManager.default.createDirectory(at: snapshots.appendingPathComponent("a.feature"), withIntermediateDirectories: true)
            _ = try CLI.write("secret\n", "outside/secret.txt", in: directory)
            try FileManager.default.createSymbolicLink(
                atPath: snapshots.appendingPathComponent("a.feature/out.txt").path,
                withDestinationPath: outside.appendingPathComponent("secret.txt").path)
            let final = try CLI.run(["test", "--update-snapshots", feature], environment: environment)
            #expect(final.status == 1 && final.stdout.contains("not a regular file"), "\(final.stdout)")
            #expect(!final.stdout.contains("secret"))
            #expect(try String(contentsOf: outside.appendingPathComponent("secret.txt"), encoding: .utf8) == "secret\n")

            // A snapshot name over 251 bytes is refused by check, before anything runs.
            let long = try CLI.write(
                """
                Feature: long
                  Scenario: a
                    When I run "echo x"
                    Then the output matches the snapshot "\(String(repeating: "é", count: 130))"
                """, "long.feature", in: directory)
            let refused = try CLI.run(["check", long])
            #expect(refused.status == 3 && refused.stderr.contains("is 260 bytes long; at most 251"), "\(refused.stdout)\(refused.stderr)")
        }
    }

    @Test func initNeverWritesThroughALinkOrOverADanglingOne() throws {
        try withDirectory { directory, outside in
            let project = directory.appendingPathComponent("project")
            try FileManager.default.createDirectory(at: project.appendingPathComponent("features"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: project.appendingPathComponent("features/example.feature").path,
                withDestinationPath: outside.appendingPathComponent("planted.feature").path)
            let dangling = try CLI.run(["init", project.path])
            #expect(dangling.status == 2 && dangling.stderr.contains("example.feature (a symbolic link)"), "\(dangling.stderr)")

            let linked = directory.appendingPathComponent("linked")
            try FileManager.default.createDirectory(at: linked, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: linked.appendingPathComponent("stubs").path, withDestinationPath: outside.path)
            let throughDirectory = try CLI.run(["init", linked.path])
            #expect(
                throughDirectory.status == 2 && throughDirectory.stderr.contains("stubs (a symbolic link)"), "\(throughDirectory.stderr)")
            #expect(contents(outside).isEmpty)
            #expect(!FileManager.default.fileExists(atPath: linked.appendingPathComponent("features").path))

            let fresh = try CLI.run(["init", directory.appendingPathComponent("fresh/nested").path])
            #expect(fresh.status == 0, "\(fresh.stderr)")
            #expect(contents(directory.appendingPathComponent("fresh/nested/features")) == ["example.feature"])
        }
    }

    @Test func theScenarioDirectoryIsRemovedWithoutFollowingLinksWhateverTheProgramLeft() throws {
        try withDirectory { directory, outside in
            let temporary = directory.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
            _ = try CLI.write("keep\n", "outside/keep.txt", in: directory)
            let feature = try CLI.write(
                """
                Feature: cleanup
                  Scenario: a program leaves links, a read-only directory, odd names and depth
                    When I run "sh -c 'ln -s \(outside.path) out; ln -s / root; mkdir -p ro/x && touch ro/x/f && chmod 500 ro/x ro; touch \\\"$(printf bad\\\\377name)\\\"; d=deep; for i in $(seq 1 300); do d=$d/d; done; mkdir -p $d'"
                    Then the exit code is 0
                """, "a.feature", in: directory)
            var environment = self.environment
            environment["TMPDIR"] = temporary.path
            let result = try CLI.run(["test", feature], environment: environment)
            #expect(result.status == 0, "\(result.stdout)")
            #expect(contents(temporary).isEmpty, "left behind: \(contents(temporary))")
            #expect(contents(outside) == ["keep.txt"])
        }
    }
}
