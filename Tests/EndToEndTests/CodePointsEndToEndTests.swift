import Foundation
import Testing

/// Text from requests and from users compares code point by code point, never by Unicode canonical equivalence
/// (Swift's `String ==`): a request sent in NFD does not satisfy an NFC expectation, and selections (`--tags`,
/// `--quarantine`) and an outline's placeholders agree with Cucumber's reference libraries (attack r6b findings 4, 13).
@Suite struct CodePointsEndToEndTests {
    static let nfc = "caf\u{E9}", nfd = "cafe\u{301}"

    /// Each request step and the inline route, against a request in NFD: the NFC expectation fails, the same text
    /// passes, and `0 requests to` the NFC path holds after a request to the NFD one.
    @Test func requestStepsAndRoutesCompareCodePoints() throws {
        try #require(CLI.hasCommand("curl"), "needs curl (apt-get install curl)")
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (nfc, nfd) = (Self.nfc, Self.nfd)
        func scenario(_ name: String, _ value: String, _ expected: String) -> String {
            """
              Scenario: \(name)
                Given the route "GET /h" answers 204
                Given the route "GET /q" answers 204
                Given the route "POST /u" answers 204
                When I run "curl -s -H 'X-N: \(value)' ${SUT_MOCK_SERVER_URL}/h"
                And I run "curl -s ${SUT_MOCK_SERVER_URL}/q?n=\(value == nfd ? "cafe%CC%81" : "caf%C3%A9")"
                And I run "curl -s -X POST -H 'Content-Type: application/json' --data-binary '{\\"n\\": \\"\(value)\\"}' ${SUT_MOCK_SERVER_URL}/u"
                Then the server received a request to "GET /h" with header "X-N" "\(expected)"
                And the server received a request to "GET /q" with query "n" "\(expected)"
                And the server received a request to "POST /u" with JSON body:
                  \"\"\"
                  {"n": "\(expected)"}
                  \"\"\"

            """
        }
        let feature = try CLI.write(
            "Feature: points\n" + scenario("header nfd against nfc", nfd, nfc) + scenario("same text passes", nfd, nfd)
                + """
                  Scenario: nfd header against nfc only
                    Given the route "GET /h" answers 204
                    When I run "curl -s -H 'X-N: \(nfd)' ${SUT_MOCK_SERVER_URL}/h"
                    Then the server received a request to "GET /h" with header "X-N" "\(nfc)"
                  Scenario: nfd query against nfc only
                    Given the route "GET /q" answers 204
                    When I run "curl -s ${SUT_MOCK_SERVER_URL}/q?n=cafe%CC%81"
                    Then the server received a request to "GET /q" with query "n" "\(nfc)"
                  Scenario: nfd body against nfc only
                    Given the route "POST /u" answers 204
                    When I run "curl -s -X POST -H 'Content-Type: application/json' --data-binary '{\\"n\\": \\"\(nfd)\\"}' ${SUT_MOCK_SERVER_URL}/u"
                    Then the server received a request to "POST /u" with JSON body:
                      \"\"\"
                      {"n": "\(nfc)"}
                      \"\"\"
                  Scenario: nfc route misses an nfd request
                    Given the route "GET /p/\(nfc)" answers 200 with:
                      \"\"\"
                      matched
                      \"\"\"
                    Given unexpected requests are allowed
                    When I run "curl -s -w ' %{http_code}' ${SUT_MOCK_SERVER_URL}/p/cafe%CC%81"
                    Then I see "404"
                    And the server received 0 requests to "GET /p/\(nfc)"
                    And the server received 1 request to "GET /p/\(nfd)"
                  Scenario: nfd route matches an nfd request
                    Given the route "GET /p/\(nfd)" answers 200 with:
                      \"\"\"
                      matched
                      \"\"\"
                    When I run "curl -s -w ' %{http_code}' ${SUT_MOCK_SERVER_URL}/p/cafe%CC%81"
                    Then I see "matched 200"
                    And the server received 1 request to "GET /p/\(nfd)"

                """, "points.feature", in: directory)
        let result = try CLI.run(["test", feature])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("7 scenarios: 3 passed, 4 failed"), "\(result.stdout)")
        for failed in ["header nfd against nfc", "nfd header against nfc only", "nfd query against nfc only", "nfd body against nfc only"] {
            #expect(result.stdout.contains("✗ points: \(failed)"), "\(failed)\n\(result.stdout)")
        }
        for passed in ["same text passes", "nfc route misses an nfd request", "nfd route matches an nfd request"] {
            #expect(result.stdout.contains("✓ points: \(passed)"), "\(passed)\n\(result.stdout)")
        }
    }

    /// `--tags` and `--quarantine` select by code points (as `--name` and Cucumber's tag library do), and an outline's
    /// `<café>` in NFD is no placeholder of an NFC header (Cucumber's compiler leaves it; sut-launch refuses it).
    @Test func selectionsAndPlaceholdersCompareCodePoints() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (nfc, nfd) = (Self.nfc, Self.nfd)
        let tagged = try CLI.write(
            """
            Feature: tags
              @\(nfd)
              Scenario: tagged nfd
                When I run "true"
              Scenario: untagged
                When I run "true"
            """, "t.feature", in: directory)
        let none = try CLI.run(["test", "--list", "--tags", "@\(nfc)", tagged])
        #expect(none.status == 5, "\(none.stdout)\(none.stderr)")
        let not = try CLI.run(["test", "--list", "--tags", "not @\(nfc)", tagged])
        #expect(not.status == 0 && not.stdout.contains("tagged nfd") && not.stdout.contains("untagged"), "\(not.stdout)")
        let same = try CLI.run(["test", "--list", "--tags", "@\(nfd)", tagged])
        #expect(same.status == 0 && same.stdout.contains("tagged nfd") && !same.stdout.contains("untagged"), "\(same.stdout)")

        let named = try CLI.write(
            """
            Feature: names
              Scenario: \(nfd) fails
                When I run "false"
                Then the exit code is 0
              Scenario: other
                When I run "true"
            """, "n.feature", in: directory)
        let list = try CLI.write("\(nfc) fails\n", "q-nfc", in: directory)
        let refused = try CLI.run(["test", "--quarantine", list, named])
        #expect(refused.status == 2, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("no scenario of this run is named"), "\(refused.stderr)")
        let exact = try CLI.write("\(nfd) fails\n", "q-nfd", in: directory)
        let quarantined = try CLI.run(["test", "--quarantine", exact, named])
        #expect(quarantined.status == 0 && quarantined.stdout.contains("1 quarantined (1 of them failed)"), "\(quarantined.stdout)")

        let outline = try CLI.write(
            """
            Feature: o
              Scenario Outline: o
                When I run "echo <\(nfd)>"
                Then I see "<\(nfd)>"
                Examples:
                  | \(nfc) |
                  | 1 |
            """, "o.feature", in: directory)
        let unfilled = try CLI.run(["test", outline])
        #expect(unfilled.status == 3, "\(unfilled.stdout)\(unfilled.stderr)")
        #expect(unfilled.stderr.contains("names no column of the Examples"), "\(unfilled.stderr)")
        #expect(unfilled.stderr.contains("another Unicode normalization"), "\(unfilled.stderr)")
    }
}
