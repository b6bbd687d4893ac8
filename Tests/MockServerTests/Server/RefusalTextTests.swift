import Foundation
import Testing

@testable import MockServer

/// R8a-A6: a 400 for a bad number or date in a control or admin query quoted the decoded value raw (NUL, ESC, CR LF):
/// a client or CI log printing the refusal cleared the screen. Escaped now, as the server's other refusals are.
@Suite struct RefusalTextTests {
    @Test func badQueryNumbersAndDatesAreQuotedEscaped() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let octets = "Content-Type: application/octet-stream"
        let hostile = "%00%1b%5b2J%0d%0aX:%201"
        let answers = [
            try run("curl", ["-s", "-H", octets, "\(test.url)/__sut/control?timeoutMs=1\(hostile)"]),
            try run("curl", ["-s", "-H", octets, "--data-binary", "m", "\(test.url)/__sut/control?waitForAckMs=1\(hostile)"]),
            try run("curl", ["-s", "-H", octets, "--data-binary", "r", "\(test.url)/__sut/control/ack?id=1\(hostile)"]),
            try run("curl", ["-s", "\(test.url)/__admin/requests?limit=1\(hostile)"]),
            try run("curl", ["-s", "\(test.url)/__admin/requests?since=2020\(hostile)"]),
        ]
        for answer in answers {
            let text = answer.stdout
            #expect(!text.dropLast().contains { $0.asciiValue.map { $0 < 0x20 } ?? false }, "\(text.debugDescription)")
            #expect(text.contains(#"\u{1B}[2J"#) && text.contains(#"\r\n"#), "\(text.debugDescription)")
        }
    }

    /// r9a B11: the 422 for an invalid regex, XPath or JSONPath echoed the posted pattern raw (LF, ESC), in `POST
    /// /__admin/mappings`, the searches and the metadata searches. Every refusal text of the admin API is made visible.
    @Test func aRefusedPatternIsEchoedVisibly() throws {
        let test = try TestServer(#"{"routes": []}"#)
        defer { test.stop() }
        let json = ["-s", "-H", "Content-Type: application/json", "--data-binary"]
        let patterns = [
            #"{"matchesXPath":"//a[\n::warning::x\u001b[2J"}"#, #"{"matches":"(\n::warning::x\u001b[2J"}"#,
            #"{"matchesJsonPath":"$[\n::warning::x\u001b[2J"}"#,
        ]
        var answers: [String] = []
        for pattern in patterns {
            let count = #"{"method":"GET","url":"/n","bodyPatterns":[\#(pattern)]}"#
            let mapping = #"{"request":{"url":"/z","bodyPatterns":[\#(pattern)]},"response":{"status":200}}"#
            answers.append(try run("curl", json + [count, "\(test.url)/__admin/requests/count"]).stdout)
            answers.append(try run("curl", json + [mapping, "\(test.url)/__admin/mappings"]).stdout)
            answers.append(try run("curl", json + [pattern, "\(test.url)/__admin/mappings/find-by-metadata"]).stdout)
        }
        answers.append(try run("curl", json + [#"{"\u001b[2J\n::warning::x":1}"#, "\(test.url)/__admin/settings"]).stdout)
        for text in answers {
            #expect(
                text.hasSuffix("\n") && !text.dropLast().contains { $0.asciiValue.map { $0 < 0x20 } ?? false }, "\(text.debugDescription)")
            #expect(text.contains(#"\u{1B}[2J"#) && text.contains(#"\n::warning::x"#), "\(text.debugDescription)")
        }
    }
}
