import Foundation
import Testing

/// R9a B2 with the built binary: `{{request.path}}` and `{{request.pathSegments}}` are the path as WireMock 2.35's
/// `UrlPath` holds it, percent-decoded by Java's `URI.getPath()` (`%2F` splits a segment, `%25` is `%`, bad UTF-8 is
/// U+FFFD); they were the path as sent, so `/users/John%20Doe` answered `John%20Doe` where WireMock says `John Doe`.
/// The expected answers are WireMock 2.35.1's, asked the same requests.
@Suite struct TemplateRequestPathEndToEndTests {
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl as the program (apt-get install curl)"))
    func requestPathAndSegmentsAreDecodedAsWireMockDecodesThem() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let template =
            "[{{request.path}}][{{request.pathSegments.[1]}}][{{#each request.pathSegments}}<{{this}}>{{/each}}]"
            + "[{{size request.path}}][{{request.path.[1]}}][{{request.url}}]"
        let mapping: [String: Any] = [
            "request": ["urlPathPattern": "/s/.*"],
            "response": ["status": 200, "body": template, "transformers": ["response-template"]],
        ]
        let file = try CLI.write(
            String(decoding: try JSONSerialization.data(withJSONObject: mapping), as: UTF8.self), "path.json", in: directory)
        let script = #"""
            for t in /s/caf%C3%A9 /s/a%20b /s/a%2Fb /s/a%3Fb /s/%25zz /s/%2e%2e /s/%C3 /s/a+b /s/%2F%2F/x /s/a//b; do
              curl -s "$SUT_MOCK_SERVER_URL$t"; echo; done
            """#
        let result = try CLI.run(["-q", "--port", "0", "--stub", file, "sh", "-c", script])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = [
            "[/s/café][café][<s><café>][2][café][/s/caf%C3%A9]",
            "[/s/a b][a b][<s><a b>][2][a b][/s/a%20b]",
            "[/s/a/b][a][<s><a><b>][3][a][/s/a%2Fb]",
            "[/s/a?b][a?b][<s><a?b>][2][a?b][/s/a%3Fb]",
            "[/s/%zz][%zz][<s><%zz>][2][%zz][/s/%25zz]",
            "[/s/..][..][<s><..>][2][..][/s/%2e%2e]",
            "[/s/\u{FFFD}][\u{FFFD}][<s><\u{FFFD}>][2][\u{FFFD}][/s/%C3]",
            "[/s/a+b][a+b][<s><a+b>][2][a+b][/s/a+b]",
            "[/s////x][x][<s><x>][2][x][/s/%2F%2F/x]",
            "[/s/a//b][a][<s><a><b>][3][a][/s/a//b]",
        ]
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (index, line) in expected.enumerated() {
            #expect(index < lines.count && lines[index] == line, "\(index < lines.count ? lines[index] : "(missing)")")
        }
    }
}
