import Foundation
import Testing

/// The mock server's findings of attack r8a, each replayed against the built binary: a control message handed to a
/// poller whose client was gone (A2), refusals of control and admin calls a strict run did not count (A3), and an
/// `equalToJson` integer past 64 bits read as its nearest double (A12).
@Suite struct MockServerR8aEndToEndTests {
    /// A2: the program's first poll dies (its curl SIGKILLed) while it waits; the step's message went to that dead
    /// connection, the step passed, and the program's next poll got nothing. Now the dead poll takes nothing: the
    /// step waits until the live poll has the message, and the program prints it.
    @Test func aControlMessageIsNotHandedToAPollWhoseClientWasKilled() throws {
        guard CLI.hasCommand("curl") else { return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = try CLI.write(
            """
            #!/bin/sh
            H='Content-Type: application/octet-stream'
            curl -s -H "$H" "$SUT_CONTROL_URL&timeoutMs=20000" > /dev/null & CP=$!
            sleep 1; kill -9 $CP; wait $CP; echo ready
            sleep 1
            curl -s -H "$H" "$SUT_CONTROL_URL&timeoutMs=10000" > got.txt
            echo "second poll got: [$(cat got.txt)]"
            """, "dead.sh", in: directory)
        chmod(script, 0o755)
        let feature = try CLI.write(
            """
            Feature: dead poller
              Scenario: a message the program's first poll never lived to read
                Given the route "GET /x" answers 204
                And the program "./dead.sh"
                When I launch the program
                Then I see "ready" within 10s
                When I send the control message "refresh"
                Then I see "second poll got: [refresh]" within 15s
            """, "dead.feature", in: directory)
        let result = try CLI.run(["test", feature], cwd: directory)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    /// A3: with --strict, control calls refused 400/405/410/413 and an acknowledgement of no message (404), and an
    /// admin call refused 400, were not unexpected (exit 0) while 403/415 were. Every refusal counts now.
    @Test func everyRefusedControlOrAdminCallFailsAStrictRun() throws {
        guard CLI.hasCommand("curl") else { return }
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(#"{"routes":[{"method":"GET","path":"/ok","body":"ok"}]}"#, "s.json", in: directory)
        let calls = [
            #"curl -s -o /dev/null -H "$H" --data-binary @big.bin "$C""#,
            #"printf '\377' | curl -s -o /dev/null -H "$H" --data-binary @- "$C""#,
            #"curl -s -o /dev/null -H "$H" --data-binary hi "$C&waitForAck=3000""#,
            #"curl -s -o /dev/null -X PUT -H "$H" --data-binary hi "$C""#,
            #"curl -s -o /dev/null -H "$H" --data-binary x "$(echo "$C" | sed 's,control?,control/ack?,')&id=77""#,
            #"curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/__admin/requests?limit=-1""#,
            #"curl -s -o /dev/null -H "$H" "$(echo "$C" | sed 's,channel=,channel=0,')""#,
        ]
        for call in calls {
            let result = try CLI.run(
                [
                    "--strict", "--port", "0", "--stub", stubs, "sh", "-c",
                    #"H="Content-Type: application/octet-stream"; C="$SUT_CONTROL_URL"; head -c 1100000 /dev/zero > big.bin; "#
                        + call + #"; curl -s -o /dev/null "$SUT_MOCK_SERVER_URL/ok""#,
                ], cwd: directory)
            #expect(result.status == 4, "\(call): \(result.stderr)")
            #expect(result.stderr.contains("1 unexpected") && result.stderr.contains("refused 4"), "\(call): \(result.stderr)")
        }
    }

    /// A12: `{"id":100000000000000000001}` in equalToJson was read as 1e20: `check` said ok and a request with
    /// 100000000000000000000 matched (WireMock: no match). Refused at load, naming the file and the number's place,
    /// in the object form and in the string form.
    @Test func anEqualToJsonIntegerPastSixtyFourBitsIsALoadError() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let inObject = try CLI.write(
            #"{"request":{"method":"POST","url":"/n","bodyPatterns":[{"equalToJson":{"id":100000000000000000001}}]},"response":{"status":200}}"#,
            "big-lit.json", in: directory)
        let inText = try CLI.write(
            #"{"request":{"method":"POST","url":"/n","bodyPatterns":[{"equalToJson":"{\"id\":-9223372036854775809}"}]},"response":{"status":200}}"#,
            "big-text.json", in: directory)
        let object = try CLI.run(["check", inObject])
        #expect(object.status == 3, "\(object.stdout)\(object.stderr)")
        #expect(object.stderr.contains("big-lit.json:1:"), "\(object.stderr)")
        #expect(object.stderr.contains("an integer past 64 bits, read as the double 1e+20"), "\(object.stderr)")
        let string = try CLI.run(["check", inText])
        #expect(string.status == 3, "\(string.stdout)\(string.stderr)")
        #expect(string.stderr.contains("big-text.json:1:") && string.stderr.contains("9223372036854775809"), "\(string.stderr)")
        let exact = try CLI.write(
            #"{"request":{"method":"POST","url":"/n","bodyPatterns":[{"equalToJson":{"id":9223372036854775807,"x":1.5}},{"equalToJson":"{\"y\":1e300}"}]},"response":{"status":200}}"#,
            "exact.json", in: directory)
        let fine = try CLI.run(["check", exact])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
