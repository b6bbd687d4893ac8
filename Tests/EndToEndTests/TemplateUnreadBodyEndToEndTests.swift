import Foundation
import Testing

/// A request body WireMock 2.35 reads but this server's readers do not (r10a C5): JSON nested past 128 levels, a key
/// given twice, XML nested past libxml2's 256 levels. Each helper that parses a body (`jsonPath`, `parseJson`,
/// `jsonMerge`, `xPath`) answers a 500 or 400 naming why, never an empty value (`{{#if}}` taking its else branch) and
/// never WireMock's "not valid XML" text; within the limits the answer is WireMock's. The built `sut-launch serve`,
/// python3's http.client.
@Suite(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
struct TemplateUnreadBodyEndToEndTests {
    @Test func aBodyPastTheReadersLimitsIsANamedAnswerInEveryHelper() throws {
        let routes = #"""
            {"routes": [
              {"method": "POST", "path": "/jp", "template": true,
               "body": "id={{jsonPath request.body '$.id'}} {{#if (jsonPath request.body '$.id')}}has-id{{else}}no-id{{/if}}"},
              {"method": "POST", "path": "/pj", "template": true, "body": "{{size (parseJson request.body)}}"},
              {"method": "POST", "path": "/jm", "template": true, "body": "{{jsonMerge request.body '{\"z\":1}'}}"},
              {"method": "POST", "path": "/xp", "template": true, "body": "id={{xPath request.body '/r/id/text()'}}"}
            ]}
            """#
        let client =
            TemplateTrustEndToEndTests.pythonClient + #"""
                def deep(n): return ('{"id":5,"deep":' + '[' * (n - 1) + ']' * (n - 1) + '}').encode()
                def xml(n): return ('<r><id>5</id>' + '<a>' * (n - 1) + '</a>' * (n - 1) + '</r>').encode()
                for path, body in [("/jp", deep(128)), ("/jp", deep(129)), ("/pj", deep(129)), ("/jm", deep(900)), ("/jp", b'{"id":5,"id":6}'),
                                   ("/pj", b'{"id":5,"id":6}'), ("/jp", b"hello"), ("/xp", xml(200)), ("/xp", xml(300))]:
                    status, text, _ = ask("POST", path, body)
                    print(path, status, text.strip()[:220])
                """#
        let (output, alive, _) = try TemplateTrustEndToEndTests.serve(routes, client: client)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(alive)
        #expect(lines.count == 9, "\(output)")
        guard lines.count == 9 else { return }
        #expect(lines[0] == "/jp 200 id=5 has-id")
        for line in lines[1...3] {
            #expect(line.contains(" 500 template: {{") && line.contains("the JSON nests deeper than 128 levels"), "\(line)")
        }
        for line in lines[4...5] {
            #expect(line.contains(" 400 template: {{") && line.contains("WireMock reads a repeated key's last value"), "\(line)")
        }
        #expect(lines[6] == "/jp 200 id= no-id") // not JSON for WireMock either: nothing, as there
        #expect(lines[7] == "/xp 200 id=5")
        #expect(lines[8].hasPrefix("/xp 500 template: {{xPath}}: the XML is past this server's reader's limits"), "\(lines[8])")
    }
}
