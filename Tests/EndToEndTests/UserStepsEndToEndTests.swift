import Foundation
import Testing

/// Steps a team defines as shell commands in *.steps.json (issue 14, the shell half).
@Suite struct UserStepsEndToEndTests {
    private func project() throws -> (URL, String) {
        let directory = try CLI.temporaryDirectory()
        _ = try CLI.write(
            """
            [
              { "step": "a user {string} exists", "run": ["./scripts/add-user.sh", "{1}"] },
              { "step": "the user list has {int} entries", "run": ["sh", "-c", "test $(wc -l < users.txt) -eq {1}"] },
              { "step": "the users are:", "run": ["sh", "-c", "cat > users.txt"] }
            ]
            """, "users.steps.json", in: directory)
        let script = try CLI.write("#!/bin/sh\necho \"$1\" >> users.txt\n", "scripts/add-user.sh", in: directory)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script)
        let feature = try CLI.write(
            """
            Feature: users
              Scenario: two users
                Given a user "ada" exists
                And a user 'grace' exists
                Then the user list has 2 entries
                And the file "users.txt" is:
                  \"\"\"
                  ada
                  grace
                  \"\"\"

              Scenario: a doc string on stdin
                Given the users are:
                  \"\"\"
                  linus
                  \"\"\"
                Then the user list has 1 entries
            """, "users.feature", in: directory)
        return (directory, feature)
    }

    @Test func stepFilesBesideTheFeaturesDefineSteps() throws {
        let (directory, feature) = try project()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLI.run(["test", feature])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 2 passed"))
        #expect(try CLI.run(["check", feature]).status == 0)
    }

    @Test func aFailingCommandFailsItsStepWithItsOutput() throws {
        let (directory, _) = try project()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write("Feature: f\n  Scenario: s\n    Then the user list has 5 entries\n", "f.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "the step's command sh -c test $(wc -l < users.txt) -eq 5 exited with code 2 (\(directory.path)/users.steps.json:3)"),
            "\(result.stdout)")
        #expect(result.stdout.contains("cannot open users.txt"))
    }

    @Test func clashesAndDuplicatesAreLoadErrorsAndUndefinedStepsGetASnippet() throws {
        let (directory, feature) = try project()
        defer { try? FileManager.default.removeItem(at: directory) }
        let extra = try CLI.write(
            #"[ { "step": "I run {string}", "run": ["true"] }, { "step": "a user {string} exists", "run": ["true"] } ]"#,
            "extra.json", in: directory)
        let clash = try CLI.run(["test", "--steps", extra, feature])
        #expect(clash.status == 3)
        #expect(clash.stderr.contains("step \"I run {string}\" clashes with the built-in step \"When I run \"sort input.txt\"\""))
        #expect(clash.stderr.contains("clashes with \"a user {string} exists\""))
        let undefined = try CLI.write("Feature: u\n  Scenario: s\n    Given the moon is \"full\" at 12\n", "u.feature", in: directory)
        let check = try CLI.run(["check", undefined])
        #expect(check.status == 3)
        #expect(
            check.stderr.contains(#"{ "step": "the moon is {string} at {int}", "run": ["./steps/the-moon-is-at.sh"] }"#), "\(check.stderr)")
        #expect(try CLI.run(["test", "--steps", directory.appendingPathComponent("none.json").path, feature]).status == 2)
    }
}
