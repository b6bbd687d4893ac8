import Foundation
import Testing

/// Values in steps, run by the built binary (hostile review r4b, findings C, D, E, P): `${NAME}` reaches every
/// built-in step, an empty value anywhere in an expected text fails, a value in a regular expression is literal,
/// and `${HOME}`/`${TMPDIR}` are the scenario's own.
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it)"))
struct StepValuesEndToEndTests {
    /// C: an absence asserted on `DELETE /users/${ID}` was compared with the text as written and passed after the
    /// program sent `DELETE /users/7`; query, JSON body and header values kept `${Q}` too.
    @Test func requestAssertionsCompareTheExpandedValue() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: R7
              Scenario: user 7 must not be deleted
                Given the route "DELETE /users/{id}" answers 204
                When I run "curl -s -X DELETE ${SUT_MOCK_SERVER_URL}/users/7"
                Then the exit code is 0
                And the server received 0 requests to "DELETE /users/${ID}"
              Scenario: one request to the expanded path
                Given the route "GET /x/{id}" answers 204
                When I run "curl -s ${SUT_MOCK_SERVER_URL}/x/7"
                Then the server received 1 request to "GET /x/${ID}"
              Scenario: query
                Given the route "GET /x" answers 204
                When I run "curl -s ${SUT_MOCK_SERVER_URL}/x?q=v1"
                Then the server received a request to "GET /x" with query "q" "${Q}"
              Scenario: header
                Given the route "GET /x" answers 204
                When I run "curl -s -H 'X-Version: 9.9.v1' ${SUT_MOCK_SERVER_URL}/x"
                Then the server received a request to "GET /x" with header "X-Version" "9.9.${Q}"
              Scenario: body
                Given the route "POST /x" answers 204
                When I run "curl -s -d '{\\"a\\":\\"v1\\"}' ${SUT_MOCK_SERVER_URL}/x"
                Then the server received a request to "POST /x" with JSON body:
                  \"\"\"
                  { "a": "${Q}" }
                  \"\"\"
            """, "r7.feature", in: directory)
        let result = try CLI.run(["test", "-D", "ID=7", "-D", "Q=v1", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("5 scenarios: 4 passed, 1 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("✗ R7: user 7 must not be deleted"))
        #expect(result.stdout.contains("expected 0 requests to DELETE /users/7, the server received 1"), "\(result.stdout)")
    }

    /// C (cont.): flag keys, entry points, routes and snapshot names reached the program (or the disk) as `${K}`.
    @Test func setupStepsAndSnapshotNamesGetTheExpandedValue() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: R8
              Scenario: flags, entry point and route
                Given the program "/bin/sh"
                Given the feature flag "${K}" is "${V}"
                Given the automation flags:
                  | a${K} | ${V} |
                Given the entry point "${V}"
                Given the flags travel in the environment
                Given the route "GET /r/${V}" answers 200 with:
                  \"\"\"
                  body-${V}
                  \"\"\"
                When I launch the program with "-c 'echo E=$SUT_EPHEMERAL; echo A=$SUT_AUTOMATION; curl -s $SUT_MOCK_SERVER_URL/r/vv'"
                Then I see "E={\\"kk\\":\\"vv\\"}"
                And I see "\\"akk\\":\\"vv\\""
                And I see "\\"entryPoint\\":\\"vv\\""
                And I see "body-vv"
              Scenario: snapshot name
                When I run "echo snap"
                Then the output matches the snapshot "${S}"
            """, "r8.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["CI"] = nil
        let update = try CLI.run(
            ["test", "--update-snapshots", "-D", "K=kk", "-D", "V=vv", "-D", "S=named", feature], environment: environment)
        #expect(update.status == 0, "\(update.stdout)\(update.stderr)")
        let snapshots = directory.appendingPathComponent("__snapshots__/r8.feature")
        #expect(FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("named.txt").path))
        #expect(!FileManager.default.fileExists(atPath: snapshots.appendingPathComponent("${S}.txt").path))
        // Another name is another snapshot: missing, so the step fails (it once passed, reading `${S}.txt`).
        let other = try CLI.run(["test", "-D", "K=kk", "-D", "V=vv", "-D", "S=other", feature], environment: environment)
        #expect(other.status == 1, "\(other.stdout)")
        #expect(other.stdout.contains("2 scenarios: 1 passed, 1 failed"), "\(other.stdout)")
    }

    /// D: with `-D VERSION=` (the CI idiom with the variable unset), an expected text holding `${VERSION}` anywhere
    /// checked only the rest of it and passed; it fails naming the variable, in every assertion.
    @Test func anEmptyValueAnywhereInAnExpectedTextFails() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: R5
              Scenario: whole value
                When I run "echo sut-launch 9.9.9"
                Then I see "${VERSION}"
              Scenario: partial value
                When I run "echo sut-launch 9.9.9"
                Then I see "sut-launch ${VERSION}"
              Scenario: partial in file contains
                Given a file "v.txt" with:
                  \"\"\"
                  app 9.9.9
                  \"\"\"
                Then the file "v.txt" contains "app ${VERSION}"
              Scenario: partial in output is
                When I run "echo app 9.9.9"
                Then the output is:
                  \"\"\"
                  app [..]${VERSION}
                  \"\"\"
              Scenario: partial in a regular expression
                When I run "echo app 9.9.9"
                Then I see a line matching "app .*${VERSION}"
              Scenario: partial in a request path
                Given the route "GET /v/{v}" answers 204
                When I run "curl -s ${SUT_MOCK_SERVER_URL}/v/9"
                Then the server received 0 requests to "GET /v/${VERSION}"
            """, "r5.feature", in: directory)
        let result = try CLI.run(["test", "-D", "VERSION=", feature])
        #expect(result.status == 1)
        #expect(result.stdout.contains("6 scenarios: 0 passed, 6 could not run"), "\(result.stdout)")
        #expect(result.stdout.contains("\"sut-launch ${VERSION}\": ${VERSION} is empty, so this step would check less than it says"))
    }

    /// E: `${V}` in a regular expression was refused as an invalid pattern (exit 3); it is the value, matched literally.
    @Test func aValueInARegularExpressionIsMatchedLiterally() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = try CLI.write(
            """
            Feature: R3
              Scenario: define in regex
                When I run "echo version 1.2"
                Then I see a line matching "^version ${V}$"
              Scenario: the dot is a dot
                When I run "echo version 1x2"
                Then I see a line matching "^version ${V}$"
            """, "r3.feature", in: directory)
        let check = try CLI.run(["check", "-D", "V=1.2", feature])
        #expect(check.status == 0, "\(check.stderr)")
        let result = try CLI.run(["test", "-D", "V=1.2", feature])
        #expect(result.stdout.contains("2 scenarios: 1 passed, 1 failed"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("matching /^version 1\\.2$/"), "\(result.stdout)")
    }

    /// P: `${HOME}` was the caller's real home (a step wrote `${HOME}/.app-conf` there) and `${TMPDIR}` was not
    /// defined though every program gets one; both are the scenario's, and `-D` of them is exit 2.
    @Test func homeAndTmpdirInStepsAreTheScenarios() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let realHome = directory.appendingPathComponent("realhome")
        try FileManager.default.createDirectory(at: realHome, withIntermediateDirectories: true)
        let feature = try CLI.write(
            """
            Feature: HD2
              Scenario: a step names the config under ${HOME}
                When I run "sh -c 'echo v=2 > ${HOME}/.app-conf; test \\"$HOME\\" = ${HOME} && test \\"$TMPDIR\\" = ${TMPDIR} && echo same'"
                Then I see "same"
                When I run "cat ${HOME}/.app-conf"
                Then I see "v=2"
            """, "hd2.feature", in: directory)
        var environment = CLI.localEnvironment
        environment["HOME"] = realHome.path
        environment["TMPDIR"] = nil
        let result = try CLI.run(["test", feature], environment: environment)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: realHome.path).isEmpty)
        for name in ["HOME", "TMPDIR", "XDG_CONFIG_HOME"] {
            let defined = try CLI.run(["test", "-D", "\(name)=/x", feature], environment: environment)
            #expect(defined.status == 2, "\(name): \(defined.stderr)")
            #expect(
                defined.stderr.contains("-D \(name)=… (argument 1): \(name) is set by sut-launch for each scenario"), "\(defined.stderr)")
        }
    }
}
