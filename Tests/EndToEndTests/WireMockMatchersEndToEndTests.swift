import Foundation
import Testing

/// The date, credential, binary and multipart matchers from the outside: a WireMock root served by the built
/// `sut-launch serve`, asked by curl as a program asks (`-u`, `-F`, `--data-binary`, a date header), and mapping
/// files with hostile values refused by `sut-launch check` with exit 3, naming file, line and field.
@Suite struct WireMockMatchersEndToEndTests {
    static let mappings = #"""
        {"mappings": [
          {"request": {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{"headers":
            {"Content-Disposition": {"contains": "name=\"doc\""}}, "bodyPatterns": [{"contains": "hello"}]}]},
           "response": {"body": "uploaded"}},
          {"request": {"method": "GET", "urlPath": "/auth", "basicAuthCredentials": {"username": "ada", "password": "s3cret"}},
           "response": {"body": "signed in"}},
          {"request": {"method": "POST", "urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": "AP/+"}]},
           "response": {"body": "bytes"}},
          {"request": {"method": "GET", "urlPath": "/since", "headers": {"If-Modified-Since": {"before": "now -1 days"}},
                       "queryParameters": {"tag": {"includes": [{"equalTo": "a"}, {"equalTo": "b"}]}}},
           "response": {"body": "modified"}}
        ]}
        """#

    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func curlsUploadsCredentialsBytesAndDatesAreMatched() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(Self.mappings, "mappings/all.json", in: directory)
        let bytes = directory.appendingPathComponent("bytes.bin")
        try Data([0x00, 0xFF, 0xFE]).write(to: bytes)
        _ = try ServerTrustEndToEndTests.serving([stubs]) { url, _ throws in
            let curl = ServerTrustEndToEndTests.curl
            #expect(try curl(["-F", "doc=hello there;type=text/plain", "-F", "other=x", "\(url)/upload"]) == "uploaded 200")
            let missed = try curl(["-F", "other=hello", "\(url)/upload"])
            #expect(missed.hasSuffix(" 404") && missed.contains("multipart: expected any part with header Content-Disposition"))
            #expect(try curl(["-u", "ada:s3cret", "\(url)/auth"]) == "signed in 200")
            let wrong = try curl(["-u", "ada:guessed", "\(url)/auth"])
            #expect(
                wrong.hasSuffix(" 404") && wrong.contains("with another password") && !wrong.contains("guessed")
                    && !wrong.contains("s3cret"))
            #expect(try curl(["--data-binary", "@\(bytes.path)", "\(url)/bin"]) == "bytes 200")
            #expect(try curl(["--data-binary", "abc", "\(url)/bin"]).hasSuffix(" 404"))
            let old = ["-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT"]
            #expect(try curl(old + ["\(url)/since?tag=b&tag=c&tag=a"]) == "modified 200")
            #expect(try curl(old + ["\(url)/since?tag=b"]).hasSuffix(" 404"))
            #expect(try curl(["-H", "If-Modified-Since: Tue, 01 Jan 2999 00:00:00 GMT", "\(url)/since?tag=a&tag=b"]).hasSuffix(" 404"))
        }
    }

    /// A part whose header bytes are not UTF-8 (`name="doc\xFF"`): read with U+FFFD it once matched a pattern on
    /// its Content-Disposition; now it matches no pattern, even one with no condition, and the near miss says why.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aPartWhoseHeadersAreNotUTF8MatchesNoPatternAndTheNearMissSaysWhy() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let stubs = try CLI.write(
            #"""
            {"mappings": [{"request": {"method": "POST", "urlPath": "/upload", "multipartPatterns": [{"headers":
              {"Content-Disposition": {"contains": "name=\"doc"}}}]}, "response": {"body": "uploaded"}}]}
            """#, "mappings/m.json", in: directory)
        func body(_ name: [UInt8]) -> Data {
            Data(Array("--b\r\nContent-Disposition: form-data; name=\"".utf8) + name + Array("\"\r\n\r\nhello\r\n--b--\r\n".utf8))
        }
        let good = directory.appendingPathComponent("good.bin")
        let bad = directory.appendingPathComponent("bad.bin")
        try body(Array("doc".utf8)).write(to: good)
        try body(Array("doc".utf8) + [0xFF]).write(to: bad)
        _ = try ServerTrustEndToEndTests.serving([stubs]) { url, _ throws in
            let type = ["-H", "Content-Type: multipart/form-data; boundary=b"]
            #expect(try ServerTrustEndToEndTests.curl(type + ["--data-binary", "@\(good.path)", "\(url)/upload"]) == "uploaded 200")
            let missed = try ServerTrustEndToEndTests.curl(type + ["--data-binary", "@\(bad.path)", "\(url)/upload"])
            #expect(missed.hasSuffix(" 404"), "\(missed)")
            #expect(
                missed.contains("1 part, 1 not matching (\"doc\u{FFFD}\" (its headers are not UTF-8: byte 0xFF at offset 41))"), "\(missed)"
            )
        }
    }

    @Test(arguments: [
        (#"{"before": "2021-02-30T00:00:00Z"}"#, "is not a date-time like"),
        (#"{"before": "now +2147483648 days"}"#, "is not a whole number from -2147483648 to 2147483647"),
        (#"{"after": "now", "expectedOffset": 9223372036854775808, "expectedOffsetUnit": "days"}"#, #""expectedOffset""#),
        (#"{"after": "now", "expectedOffset": 2000000000, "expectedOffsetUnit": "years"}"#, "outside the years -999999999 to 999999999"),
        (#"{"after": "now", "actualFormat": "yyyy-MM-dd'T"}"#, "a quoted text is not closed"),
        (#"{"hasExactly": [{"absent": true}]}"#, "can never match"),
        (#"{"matchesXPath": "//a["}"#, #"matchesXPath: invalid XPath expression "//a[""#),
        (#"{"equalToXml": "<a>"}"#, "equalToXml: not well-formed XML"),
    ])
    func hostileMatchersExit3NamingFileLineAndField(matcher: String, message: String) throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(
            #"{"request": {"urlPath": "/x", "headers": {"X-D": \#(matcher)}}, "response": {}}"#, "mappings/m.json", in: directory)
        let result = try CLI.run(["check", file])
        #expect(result.status == 3 && result.stderr.contains("m.json:1:") && result.stderr.contains(message), "\(result.stderr)")
    }

    /// `"method": "get"` answered GET, where WireMock 2.35 compares the method exactly and never answers it; and
    /// `$['a','c']` loaded, then never matched (r7a F7, F4). Now the method is exact and `check` notes it, and the
    /// several-name bracket is refused by name.
    @Test(.enabled(if: CLI.hasCommand("curl"), "needs curl (apt-get install curl)"))
    func aLowerCaseMethodIsComparedExactlyAndCheckNotesIt() throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try CLI.write(
            #"{"request": {"urlPath": "/lm", "method": "get"}, "response": {"body": "lower"}}"#, "mappings/m.json", in: directory)
        let checked = try CLI.run(["check", file])
        #expect(checked.status == 0, "\(checked.stderr)")
        #expect(
            (checked.stdout + checked.stderr).contains(#"m.json:1:42: "method": "get" is compared exactly, as WireMock does"#),
            "\(checked.stdout)\(checked.stderr)")
        _ = try ServerTrustEndToEndTests.serving([file]) { url, _ throws in
            #expect(try ServerTrustEndToEndTests.curl(["\(url)/lm"]).hasSuffix(" 404"))
        }
        let union = try CLI.write(
            #"{"request": {"urlPath": "/u", "bodyPatterns": [{"matchesJsonPath": "$['a','c']"}]}, "response": {}}"#, "u/m.json",
            in: directory)
        let refused = try CLI.run(["check", union])
        #expect(refused.status == 3 && refused.stderr.contains("names several members"), "\(refused.stderr)")
    }
}
