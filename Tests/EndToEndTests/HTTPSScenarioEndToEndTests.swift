import Foundation
import Testing

/// `sut-launch test --https` and `Given the mock server speaks HTTPS` as a user runs them: each scenario's programs
/// reach its own server over TLS with their own client (curl, Python) and no setting of their own, in parallel jobs,
/// each scenario with trust files of its own that are gone when the run ends.
@Suite(.enabled(if: CLI.hasCommand("curl"), "needs curl (scripts/install-test-deps.sh installs it, and libssl3)"))
struct HTTPSScenarioEndToEndTests {
    /// Four scenarios, each with its own route and answer, each fetching over HTTPS and printing where its trust is.
    static func feature(trustLog: String) -> String {
        var text = "Feature: HTTPS\n"
        for index in 1...4 {
            text += """

                  Scenario: fetch \(index)
                    Given the route "GET /x\(index)" answers 200 with:
                      \"\"\"
                      answer \(index)
                      \"\"\"
                    When I run "sh -c 'curl -sS --fail $SUT_MOCK_SERVER_URL/x\(index) && echo && echo url=$SUT_MOCK_SERVER_URL'"
                    Then the exit code is 0
                    And I see "answer \(index)"
                    And I see "url=https://127.0.0.1:"
                    And the server received 1 request to "GET /x\(index)"
                    When I run "sh -c 'echo $SSL_CERT_FILE $SUT_MOCK_SERVER_CA >> \(trustLog)'"

                """
        }
        return text
    }

    /// Each scenario's programs write where their trust files are into a log outside the scenarios, so the test
    /// sees that no two scenarios shared them and that none outlived the run.
    @Test func testDashDashHTTPSServesEveryScenarioOverTLSInParallelJobsAndRemovesTheTrustFiles() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let trustLog = directory.appendingPathComponent("trust.log").path
        let text = Self.feature(trustLog: trustLog)
        let featurePath = try CLI.write(text, "https.feature", in: directory)
        let result = try CLI.run(["test", "--https", "--jobs", "2", featurePath])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("4 scenarios: 4 passed"), "\(result.stdout)")
        let lines = try String(contentsOfFile: trustLog, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 4)
        let paths = lines.flatMap { $0.split(separator: " ").map(String.init) }
        // Every scenario had its own directory (parallel jobs share none), and none of it outlived the run.
        let directories = Set(paths.map { ($0 as NSString).deletingLastPathComponent })
        #expect(directories.count == 4, "\(paths)")
        for path in paths + directories { #expect(!FileManager.default.fileExists(atPath: path), "\(path) outlived the run") }
    }

    @Test func theStepTurnsHTTPSOnForOneScenarioAndPlainHTTPStaysForTheOthers() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            Feature: mixed

              Scenario: over HTTPS
                Given the mock server speaks HTTPS
                And the route "GET /x" answers 200 with:
                  \"\"\"
                  secure
                  \"\"\"
                When I run "curl -sS --fail ${SUT_MOCK_SERVER_URL}/x"
                Then the exit code is 0
                And I see "secure"
                When I run "curl -sS --fail --cacert ${SUT_MOCK_SERVER_CA} ${SUT_MOCK_SERVER_URL}/x"
                Then the exit code is 0
                And I see "secure"

              Scenario: plain
                Given the route "GET /x" answers 200 with:
                  \"\"\"
                  plain
                  \"\"\"
                When I run "sh -c 'echo $SUT_MOCK_SERVER_URL; echo ca=$SUT_MOCK_SERVER_CA; echo step-ca=${SUT_MOCK_SERVER_CA}; curl -sS --fail $SUT_MOCK_SERVER_URL/x'"
                Then the exit code is 0
                And I see "http://127.0.0.1:"
                And I see "ca="
                And I see "step-ca="
                And I see "plain"
                And I do not see "https://"
            """
        let result = try CLI.run(["test", "--jobs", "2", try CLI.write(text, "mixed.feature", in: directory)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 scenarios: 2 passed"), "\(result.stdout)")
    }

    @Test(.enabled(if: CLI.hasCommand("python3"))) func pythonsUrllibTrustsTheScenariosServerWithNoSetting() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            Feature: python

              Scenario: urllib over HTTPS
                Given the mock server speaks HTTPS
                And the route "GET /py" answers 200 with:
                  \"\"\"
                  from python
                  \"\"\"
                And a file "fetch.py" with:
                  \"\"\"
                  import os, urllib.request
                  url = os.environ["SUT_MOCK_SERVER_URL"] + "/py"
                  print(urllib.request.urlopen(url, timeout=10).read().decode())
                  \"\"\"
                When I run "python3 fetch.py"
                Then the exit code is 0
                And I see "from python"
            """
        let result = try CLI.run(["test", try CLI.write(text, "py.feature", in: directory)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func aProgramThatDoesNotTrustTheAuthorityFailsTheScenario() throws {
        // The control: curl told to use only the system's authorities refuses the server, so a pass above is the
        // injected trust at work, not verification off.
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            Feature: control

              Scenario: system authorities only
                Given the mock server speaks HTTPS
                And the route "GET /x" answers 200
                When I run "curl -sS --cacert /etc/ssl/certs/ca-certificates.crt ${SUT_MOCK_SERVER_URL}/x"
                Then the exit code is 0
            """
        let result = try CLI.run(["test", "--quiet", try CLI.write(text, "control.feature", in: directory)])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("exit code"), "\(result.stdout)")
    }

    @Test func theStepAfterTheFirstLaunchAndHTTPSHostWithoutHTTPSAreRefused() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            Feature: late

              Scenario: too late
                Given the route "GET /x" answers 200
                When I run "true"
                Given the mock server speaks HTTPS
            """
        let featurePath = try CLI.write(text, "late.feature", in: directory)
        let late = try CLI.run(["test", featurePath])
        #expect(late.status == 1, "\(late.stdout)")
        #expect(late.stdout.contains("the mock server already runs over HTTP: say so before the first launch"), "\(late.stdout)")
        let usage = try CLI.run(["test", "--https-host", "api.test", featurePath])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--https-host is for an HTTPS mock server: add --https"), "\(usage.stderr)")
        let bad = try CLI.run(["test", "--https", "--https-host", "a,b", featurePath])
        #expect(bad.status == 2, "\(bad.stderr)")
    }

    @Test func httpsHostNamesReachTheCertificateOfEveryScenario() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = """
            Feature: names

              Scenario: a name of the user's
                Given the route "GET /n" answers 200 with:
                  \"\"\"
                  by name
                  \"\"\"
                When I run "sh -c 'port=$(echo $SUT_MOCK_SERVER_URL | cut -d: -f3); curl -sS --fail --resolve api.test:$port:127.0.0.1 https://api.test:$port/n'"
                Then the exit code is 0
                And I see "by name"
            """
        let result = try CLI.run(["test", "--https", "--https-host", "api.test", try CLI.write(text, "names.feature", in: directory)])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// Ctrl-C in the middle of an HTTPS scenario: the run stops its programs, writes its reports, and removes the
    /// scenario's trust files too (they are registered while the scenario runs).
    @Test func anInterruptedRunRemovesTheTrustFilesOfTheScenariosStillRunning() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appendingPathComponent("trust.log").path
        let text = """
            Feature: interrupted

              Scenario: slow over HTTPS
                Given the route "GET /x" answers 200
                When I run "sh -c 'echo $SSL_CERT_FILE >> \(log); sleep 30'"
            """
        let featurePath = try CLI.write(text, "slow.feature", in: directory)
        let result = try CLI.run(["test", "--https", "--step-timeout", "60s", featurePath]) { process, _ in
            _ = CLI.eventually(20) { ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").hasSuffix("\n") }
            kill(process.processIdentifier, SIGINT)
        }
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        let bundle = try String(contentsOfFile: log, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(bundle.hasSuffix("/bundle.pem"), "\(bundle)")
        #expect(!FileManager.default.fileExists(atPath: bundle), "the trust files outlived an interrupted run")
        #expect(!FileManager.default.fileExists(atPath: (bundle as NSString).deletingLastPathComponent))
    }
}
