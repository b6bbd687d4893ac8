import Foundation
import Testing

/// The scenario's mock server as steps shape it after it started: routes added after the first launch, JSON doc
/// strings with `${NAME}`, a server named before any route (third hostile review: D2 and D7).
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it)"))
struct ScenarioServerEndToEndTests {
    /// A route given after the server started was merged into the scenario's list and never reached the running
    /// server: its requests were unexpected 404s. A JSON doc string kept `${NAME}` literally.
    @Test func aRouteAfterTheFirstLaunchIsAnsweredAndJSONDocStringsSubstituteInsideStrings() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = """
            Feature: late routes
              Scenario: a route after the first launch
                Given the route "GET /a" answers 200 with:
                  \"\"\"
                  a
                  \"\"\"
                When I run "true"
                Given the route "GET /b" answers 200 with JSON:
                  \"\"\"
                  { "self": "${SUT_MOCK_SERVER_URL}/b", "${KEY}": "${QUOTE}" }
                  \"\"\"
                When I run "sh -c 'curl -sS --fail $SUT_MOCK_SERVER_URL/b > ${OUT}'"
                Then the exit code is 0
                And the server received 1 request to "GET /b"
            """
        let path = try CLI.write(feature, "late.feature", in: directory)
        let out = directory.appendingPathComponent("answer.json").path
        let result = try CLI.run(["test", "-D", #"QUOTE=say "hi"}, "x": {"#, "-D", "KEY=name", "-D", "OUT=\(out)", path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // The value's quote and brace stayed inside its string: the answer has the same two members.
        let answer = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out))) as? [String: String]
        #expect(answer?.keys.sorted() == ["name", "self"], "\(String(describing: answer))")
        #expect(answer?["name"] == #"say "hi"}, "x": {"#)
        #expect(answer?["self"]?.hasPrefix("http://127.0.0.1:") == true && answer?["self"]?.hasSuffix("/b") == true)
    }

    @Test func aJSONDocStringThatIsNotJSONIsAnErrorNamingIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = """
            Feature: bad JSON
              Scenario: not JSON
                Given the route "GET /b" answers 200 with JSON:
                  \"\"\"
                  { "a": ${X}, }
                  \"\"\"
                When I run "true"
            """
        let path = try CLI.write(feature, "bad.feature", in: directory)
        let result = try CLI.run(["test", "-D", "X=1", path])
        // Checked when the file loads (r8b R8B-6): exit 3, nothing run.
        #expect(
            result.status == 3 && (result.stdout + result.stderr).contains("the doc string is not JSON"), "\(result.stdout)\(result.stderr)"
        )
    }

    /// `${SUT_MOCK_SERVER_URL}` in a scenario with no route was empty: curl fetched `/x` from nowhere and the scenario
    /// could pass. Naming the server starts one; every request to it is then unexpected.
    @Test func namingTheServerWithNoRouteStartsOneAndItsRequestsAreUnexpected() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let feature = """
            Feature: no route
              Scenario: named
                When I run "sh -c 'curl -sS -o /dev/null -w %{http_code} ${SUT_MOCK_SERVER_URL}/x'"
                Then I see "404"
            """
        let path = try CLI.write(feature, "named.feature", in: directory)
        let result = try CLI.run(["test", path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stdout.contains("unexpected request GET /x"), "\(result.stdout)")
    }
}
