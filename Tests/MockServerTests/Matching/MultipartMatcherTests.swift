import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// WireMock 2.35's `multipartPatterns` (its documentation's example first), with bodies split as Commons FileUpload
/// splits them, and the hostile bodies: many parts, long headers, no end, a boundary made to be searched slowly.
@Suite struct MultipartMatcherTests {
    static let documented = #"""
        {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{
          "matchingType": "ANY",
          "headers": {"Content-Disposition": {"contains": "name=\"info\""}, "Content-Type": {"contains": "charset"}},
          "bodyPatterns": [{"equalToJson": "{}"}]}]}
        """#

    /// A multipart/form-data body: each part's header lines and body, then the closing boundary.
    static func body(_ parts: [(headers: [String], body: String)], boundary: String = "XyZ") -> [UInt8] {
        var text = "preamble to skip\r\n"
        for part in parts { text += "--\(boundary)\r\n" + part.headers.map { $0 + "\r\n" }.joined() + "\r\n" + part.body + "\r\n" }
        return Array((text + "--\(boundary)--\r\nepilogue").utf8)
    }

    static func form(_ name: String, _ body: String, type: String? = nil) -> (headers: [String], body: String) {
        (["Content-Disposition: form-data; name=\"\(name)\""] + (type.map { ["Content-Type: \($0)"] } ?? []), body)
    }

    private func ask(_ server: MockServer, _ body: [UInt8], type: String = "multipart/form-data; boundary=XyZ") -> (
        matched: Bool, text: String
    ) {
        Mappings.ask(server, method: "POST", "/upload", headers: [("Content-Type", type)], body: body)
    }

    @Test func theDocumentedPatternMatchesAnyPartWithThoseHeadersAndBody() throws {
        let server = try Mappings.server(Self.documented)
        let info = Self.form("info", "{}", type: "application/json; charset=utf-8")
        #expect(ask(server, Self.body([Self.form("file", "bytes"), info])).matched)
        #expect(ask(server, Self.body([info]), type: "multipart/form-data; boundary=\"XyZ\"").matched)
        // FileUpload splits parameters at the first of ';' and ',' only: here the boundary is in "charset" (WireMock: 500).
        #expect(!ask(server, Self.body([info]), type: "multipart/mixed; charset=x, boundary=XyZ").matched)
        #expect(ask(server, Self.body([info]), type: "multipart/mixed, boundary=XyZ").matched)
        #expect(!ask(server, Self.body([Self.form("info", "{}", type: "application/json")])).matched) // no charset
        #expect(!ask(server, Self.body([Self.form("info", "{\"a\": 1}", type: "application/json; charset=utf-8")])).matched)
        #expect(!ask(server, Self.body([info]), type: "application/json").matched)
        #expect(!Mappings.ask(server, method: "POST", "/upload", body: Self.body([info])).matched)
    }

    /// FileUpload's header lines: a line starting with a space or tab continues the one before (joined by a space), a
    /// line without `:` is skipped, names and values trimmed; a part's header may be repeated.
    @Test func partHeaderLinesAreReadAsFileUploadReadsThem() throws {
        let parsed = MultipartBody.parse(
            contentType: "multipart/form-data; boundary=XyZ",
            body: Self.body([
                (
                    [
                        " stray", "Content-Disposition: form-data;", "\t name=\"doc\"", "no colon here", "X-A:  1 ", "x-a:2", "X-B: b",
                        "  c ",
                    ], "{}"
                )
            ]))
        guard case .parts(let parts) = parsed, let part = parts.first else {
            Issue.record("not parsed: \(parsed)")
            return
        }
        #expect(parts.count == 1)
        // " stray" (nothing to continue) and "no colon here" have no `:`: skipped.
        #expect(
            part.headers.entries.map { "\($0.name)|\($0.value)" } == [
                "Content-Disposition|form-data; name=\"doc\"", "X-A|1", "x-a|2", "X-B|b c",
            ])
        #expect(MultipartBody.fieldName(part.headers) == "doc")
        #expect(part.headers.first("x-A") == ("1", true))
        #expect(part.headers.first("X-B") == ("b c", false))
        #expect(part.headers.first("X-C") == (nil, false))
    }

    @Test func allNeedsEveryPartAndPartsWithoutAFormDataNameAreSkipped() throws {
        let server = try Mappings.server(
            #"{"urlPath": "/upload", "multipartPatterns": [{"matchingType": "ALL", "headers": {"Content-Type": {"equalTo": "text/plain"}}}]}"#
        )
        #expect(ask(server, Self.body([Self.form("a", "1", type: "text/plain"), Self.form("b", "2", type: "text/plain")])).matched)
        #expect(!ask(server, Self.body([Self.form("a", "1", type: "text/plain"), Self.form("b", "2")])).matched)
        // FileUpload keeps only form-data parts with a name: an attachment part is not one of "all".
        let attachment = (headers: ["Content-Disposition: attachment; filename=\"x\"", "Content-Type: image/png"], body: "png")
        #expect(ask(server, Self.body([Self.form("a", "1", type: "text/plain"), attachment])).matched)
        #expect(!ask(server, Self.body([attachment])).matched) // no parts: ALL does not hold (WireMock: 500)
        #expect(!ask(server, Self.body([])).matched)
    }

    @Test func partsAreSplitAsFileUploadSplitsThem() throws {
        let server = try Mappings.server(
            #"""
            {"urlPath": "/upload", "multipartPatterns": [
              {"headers": {"Content-Disposition": {"contains": "name=\"bin\""}}, "bodyPatterns": [{"binaryEqualTo": "AP8NCg=="}]},
              {"headers": {"X-Folded": {"equalTo": "one two"}}, "bodyPatterns": [{"equalTo": "text\r\nwith lines"}]}]}
            """#)
        var bytes = Array("--XyZ\nContent-Disposition: form-data; name=\"bin\"\r\n\r\n".utf8) + [0x00, 0xFF, 0x0D, 0x0A]
        bytes += Array("\r\n--XyZ\r\nContent-Disposition: form-data; name=\"t\"\r\nX-Folded: one\r\n\ttwo\r\nno colon here\r\n\r\n".utf8)
        bytes += Array("text\r\nwith lines\r\n--XyZ--".utf8)
        #expect(ask(server, bytes).matched)
        // Attack 1, F12: a body that ends right after the closing boundary (no `--`, no CRLF) is read, as WireMock reads it.
        #expect(ask(server, Array(bytes.dropLast(2))).matched)
        #expect(MultipartBody.parameters(of: "form-data; name=\"a;b\"; filename=x", separators: [";"])["name"] == "a;b")
        // Any case; of two, the last, as FileUpload's ParameterParser fills its map (WireMock: boundary=other; boundary=XyZ splits on XyZ).
        #expect(MultipartBody.parameters(of: "form-data; NAME=first; name=second", separators: [";"])["name"] == "second")
        #expect(MultipartBody.parameters(of: "form-data; filename=x", separators: [";"])["name"] == nil)
    }

    @Test func nearMissesSayWhichPartsFailedOrWhyTheBodyIsNotRead() throws {
        let server = try Mappings.server(Self.documented)
        let parts = ask(server, Self.body([Self.form("file", "x"), Self.form("info", "{}")]))
        #expect(
            parts.text.contains(
                #"multipart: expected any part with header Content-Disposition containing "name="info"" and header Content-Type containing "charset" and body JSON equal to {}, got 2 parts, 2 not matching ("file", "info")"#
            ), "\(parts.text)")
        #expect(
            ask(server, Self.body([]), type: "text/plain").text.contains(#"got a body that is not multipart (Content-Type "text/plain")"#))
        #expect(
            ask(server, Array("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end".utf8)).text.contains(
                "WireMock cannot read: a part is not closed by a boundary"))
        #expect(ask(server, Array("--XyZ\r\n".utf8), type: "multipart/form-data").text.contains("its Content-Type has no boundary"))
        // Characters after a boundary end the parts quietly, as in FileUpload (r9a B4).
        #expect(ask(server, Array("--XyZ!".utf8)).text.contains("got no parts with a form-data name"))
        #expect(ask(server, Array("x".utf8), type: "text/plain; x=multipart/").text.contains("does not start with multipart/"))
    }

    @Test(arguments: [
        (#"{"multipartPatterns": [{"matchingType": "any"}]}"#, #"matchingType is "ANY" or "ALL", in capitals"#),
        (#"{"multipartPatterns": [{"matchingType": "ANY", "foo": 1}]}"#, #"unknown key "foo" in a multipart pattern"#),
        (#"{"multipartPatterns": {"matchingType": "ANY"}}"#, #""multipartPatterns" must be an array"#),
        (#"{"multipartPatterns": [{"headers": {"X": {"binaryEqualTo": "AA=="}}}]}"#, #""binaryEqualTo" belongs to body patterns"#),
        (#"{"multipartPatterns": [{"bodyPatterns": [{"before": "never"}]}]}"#, #""never" is not a date-time"#),
    ])
    func malformedPatternsAreRefusedByName(request: String, message: String) {
        let problem = Mappings.problem(request)
        #expect(problem?.contains(message) == true, "\(problem ?? "loaded")")
    }

    /// HOSTILE.md: huge part counts, long headers, a 16 MiB body built so that a naive search for the boundary
    /// rescans it (dashes, and a boundary of dashes that never quite occurs): bounded, refused by name, and fast.
    @Test func hostileBodiesAreBoundedAndSplitInLinearTime() throws {
        let server = try Mappings.server(
            #"{"urlPath": "/upload", "multipartPatterns": [{"headers": {"Content-Disposition": {"contains": "last"}}}]}"#)
        let many = Self.body((0...MultipartBody.maxParts).map { Self.form("p\($0)", "x") })
        #expect(ask(server, many).text.contains("it has more than 1000 parts"))
        let enough = Self.body((1..<MultipartBody.maxParts).map { Self.form("p\($0)", "x") } + [Self.form("last", "x")])
        #expect(ask(server, enough).matched)
        let longHeader = Self.body([(["X-Long: " + String(repeating: "a", count: MultipartBody.maxHeaderBytes)], "x")])
        #expect(ask(server, longHeader).text.contains("a part's headers are longer than 10240 bytes"))
        let boundary = String(repeating: "-", count: 2000) + "x"
        let dashes = Array(repeating: UInt8(ascii: "-"), count: 16 * 1024 * 1024)
        let start = Date()
        let answer = ask(server, dashes, type: "multipart/form-data; boundary=\(boundary)")
        // No boundary at all: FileUpload finds no part (its preamble runs to the end), nor does this.
        #expect(answer.text.contains("got no parts with a form-data name"))
        let crafted = Array("--\(boundary)\r\nX: y\r\n\r\n".utf8) + dashes
        #expect(ask(server, crafted, type: "multipart/form-data; boundary=\(boundary)").text.contains("a part is not closed by a boundary"))
        #expect(Date().timeIntervalSince(start) < 5, "16 MiB searched for a 2,000-byte boundary took \(Date().timeIntervalSince(start)) s")
    }

    /// Header bytes that are not UTF-8 (a cut sequence, a lone 0xFF, an overlong encoding) make the part match no
    /// pattern, even an empty one; the same name in UTF-8 matches.
    @Test func aPartWhoseHeadersAreNotUTF8MatchesNothing() throws {
        let server = try Mappings.server(#"{"urlPath": "/upload", "multipartPatterns": [{}]}"#)
        func body(_ name: [UInt8]) -> [UInt8] {
            Array("--XyZ\r\nContent-Disposition: form-data; name=\"".utf8) + name + Array("\"\r\n\r\nx\r\n--XyZ--\r\n".utf8)
        }
        #expect(ask(server, body(Array("café".utf8))).matched)
        for bad: [UInt8] in [[0x63, 0xFF], [0xC3], [0xE2, 0x82], [0xC0, 0xAF], [0xED, 0xA0, 0x80]] {
            let answer = ask(server, body(bad))
            #expect(!answer.matched && answer.text.contains("its headers are not UTF-8: byte 0x"), "\(bad): \(answer.text)")
        }
    }
}
