import AutomationSupport
import Testing

@testable import MockServer

/// `hasExactly` and `includes` (WireMock 3's, which 2.35 refuses: their rules are WireMock 3's code), `anything`,
/// `basicAuthCredentials` and `binaryEqualTo` (WireMock 2.35's, each observed on WireMock 2.35.1 first).
@Suite struct MultiValueMatcherTests {
    @Test func hasExactlyAndIncludesReadEveryValueOfAHeaderOrQueryParameter() throws {
        let server = try Mappings.server(
            #"""
            {"urlPath": "/m", "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"matches": "[0-9]+"}]}},
             "headers": {"X-Tag": {"includes": [{"equalTo": "red"}, {"contains": "blu"}]}}}
            """#)
        func ask(_ query: String, _ tags: [String]) -> Bool {
            Mappings.ask(server, "/m" + query, headers: tags.map { ("X-Tag", $0) }).matched
        }
        #expect(ask("?id=1&id=22", ["red", "blue"]))
        #expect(ask("?id=22&id=1", ["green", "blue", "red"])) // includes: more values are fine, order is free
        #expect(!ask("?id=1&id=22&id=3", ["red", "blue"])) // hasExactly: as many values as matchers
        #expect(!ask("?id=1", ["red", "blue"]))
        #expect(!ask("?id=22&id=33", ["red", "blue"])) // equalTo "1" matches none
        #expect(!ask("?id=1&id=22", ["red"]))
        #expect(!ask("", ["red", "blue"])) // absent: neither holds, as in WireMock 3
        #expect(!ask("?id=1&id=22", []))
        // WireMock does not pair matchers with values: [equalTo a, equalTo a] holds for a, b.
        let quirk = try Mappings.server(
            #"{"urlPath": "/q", "queryParameters": {"v": {"hasExactly": [{"equalTo": "a"}, {"equalTo": "a"}]}}}"#)
        #expect(Mappings.ask(quirk, "/q?v=a&v=b").matched)
        #expect(!Mappings.ask(quirk, "/q?v=b&v=b").matched)
        // includes with {"absent": false}: the header is there, with any value.
        let present = try Mappings.server(#"{"urlPath": "/p", "headers": {"X-P": {"includes": [{"absent": false}]}}}"#)
        #expect(Mappings.ask(present, "/p", headers: [("X-P", "")]).matched)
        #expect(!Mappings.ask(present, "/p").matched)
    }

    /// r9a B6: WireMock keeps the value of least distance, and `equalTo ''` against an empty value is 0/0, NaN, which
    /// Java sorts after every number: of `?a=&a=1` it keeps `1`, and the match fails (each observed on WireMock 2.35.1).
    @Test func equalToEmptyOverSeveralValuesHoldsOnlyWhenEveryValueIsEmpty() throws {
        let server = try Mappings.server(
            #"""
            {"urlPath": "/q", "queryParameters": {"a": {"equalTo": ""}, "b": {"and": [{"equalTo": ""}, {"matches": ".*"}]},
             "c": {"or": [{"equalTo": ""}, {"equalTo": "zz"}]}}, "headers": {"X-A": {"equalTo": "", "caseInsensitive": true}}}
            """#)
        func ask(_ a: String, _ b: String = "b=", _ c: String = "c=", header: [String] = [""]) -> Bool {
            Mappings.ask(server, "/q?" + [a, b, c].joined(separator: "&"), headers: header.map { ("X-A", $0) }).matched
        }
        #expect(ask("a="))
        #expect(ask("a"))
        #expect(ask("a=&a="))
        #expect(!ask("a=&a=1"))
        #expect(!ask("a=1&a="))
        #expect(!ask("a=", "b=&b=1"))
        #expect(ask("a=", "b=&b="))
        #expect(ask("a=", "b=", "c=&c=1")) // or: 1.0 (NaN sorts last) for both: the first, the empty one, is kept
        #expect(ask("a=", "b=", "c=&c=zz"))
        #expect(!ask("a=", header: ["", "1"]))
        #expect(ask("a=", header: ["", ""]))
        // A cookie sent twice is both its values, the nearest deciding (it was the last value alone).
        let cookies = try Mappings.server(#"{"urlPath": "/c", "cookies": {"c": {"equalTo": ""}, "s": {"equalTo": "a"}}}"#)
        func cookie(_ header: String) -> Bool { Mappings.ask(cookies, "/c", headers: [("Cookie", header)]).matched }
        #expect(cookie("c=; s=a"))
        #expect(!cookie("c=1; c=; s=a"))
        #expect(!cookie("c=; c=1; s=a"))
        #expect(cookie("c=; c=; s=a"))
        #expect(cookie("c=; s=a; s=b") && cookie("c=; s=b; s=a"))
    }

    @Test func nearMissesListEveryValueAndEveryMatcher() throws {
        let server = try Mappings.server(
            #"{"urlPath": "/m", "headers": {"X-Tag": {"hasExactly": [{"equalTo": "red"}, {"contains": "blu"}]}}}"#)
        let answer = Mappings.ask(server, "/m", headers: [("X-Tag", "red"), ("X-Tag", "green")])
        #expect(
            answer.text.contains(#"header X-Tag: expected exactly 2 values: equal to "red"; containing "blu", got "red", "green""#),
            "\(answer.text)")
    }

    @Test func anythingMatchesAnyValueAndNone() throws {
        let server = try Mappings.server(#"{"urlPath": "/a", "headers": {"X-A": {"anything": "ignored"}}}"#)
        #expect(Mappings.ask(server, "/a").matched)
        #expect(Mappings.ask(server, "/a", headers: [("X-A", "x")]).matched)
        #expect(Mappings.problem(#"{"headers": {"X-A": {"anything": true}}}"#)?.contains("\"anything\" must be a string") == true)
    }

    @Test func basicAuthCredentialsMatchTheAuthorizationHeaderInAnyCase() throws {
        for key in ["basicAuthCredentials", "basicAuth"] {
            let server = try Mappings.server(#"{"urlPath": "/b", "\#(key)": {"username": "user", "password": "pass"}}"#)
            #expect(Mappings.ask(server, "/b", headers: [("Authorization", "Basic dXNlcjpwYXNz")]).matched)
            #expect(Mappings.ask(server, "/b", headers: [("authorization", "BASIC DXNLCJPWYXNZ")]).matched)
            #expect(Mappings.ask(server, "/b", headers: [("Authorization", "Bearer x"), ("Authorization", "Basic dXNlcjpwYXNz")]).matched)
            #expect(!Mappings.ask(server, "/b").matched)
            #expect(!Mappings.ask(server, "/b", headers: [("Authorization", "Basic dXNlcjpvdGhlcg==")]).matched)
        }
        let unicode = try Mappings.server(#"{"urlPath": "/b", "basicAuthCredentials": {"username": "üser", "password": "p:ss"}}"#)
        #expect(Mappings.ask(unicode, "/b", headers: [("Authorization", "Basic w7xzZXI6cDpzcw==")]).matched)
        // WireMock writes a missing password as Java writes a null string, and numbers as their text.
        let nulls = try Mappings.server(#"{"urlPath": "/b", "basicAuthCredentials": {"username": 1}}"#)
        #expect(Mappings.ask(nulls, "/b", headers: [("Authorization", "Basic MTpudWxs")]).matched)
        // A lower-case "authorization" header matcher is a second matcher: both hold, as in WireMock.
        let both = try Mappings.server(
            #"{"urlPath": "/b", "basicAuth": {"username": "user", "password": "pass"}, "headers": {"authorization": {"contains": "dXNl"}}}"#
        )
        #expect(Mappings.ask(both, "/b", headers: [("Authorization", "Basic dXNlcjpwYXNz")]).matched)
    }

    @Test func basicAuthNearMissesNameUsersNeverPasswords() throws {
        let server = try Mappings.server(#"{"urlPath": "/b", "basicAuthCredentials": {"username": "user", "password": "s3cret"}}"#)
        let wrongPassword = Mappings.ask(server, "/b", headers: [("Authorization", "Basic " + Base64Text.encode(Array("user:guess".utf8)))])
        #expect(
            wrongPassword.text.contains(
                #"basic auth: expected user "user" and the mapping's password, got user "user" with another password"#))
        let otherUser = Mappings.ask(server, "/b", headers: [("Authorization", "Basic " + Base64Text.encode(Array("bob:s3cret".utf8)))])
        #expect(otherUser.text.contains(#"got user "bob""#))
        #expect(Mappings.ask(server, "/b").text.contains("got no Authorization header"))
        #expect(Mappings.ask(server, "/b", headers: [("Authorization", "Bearer abc")]).text.contains(#"got "Bearer" credentials"#))
        let token = Mappings.ask(server, "/b", headers: [("Authorization", "s3cretTokenWithoutAScheme")]).text
        #expect(token.contains("got credentials that are not Basic") && !token.contains("s3cretToken"))
        for answer in [wrongPassword.text, otherUser.text] {
            #expect(!answer.contains("s3cret") && !answer.contains("guess") && !answer.contains("dXNlcjpz"))
        }
    }

    @Test func binaryEqualToComparesTheBodysBytes() throws {
        let server = try Mappings.server(#"{"urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": "AP/+gA=="}]}"#)
        #expect(Mappings.ask(server, method: "POST", "/bin", body: [0x00, 0xFF, 0xFE, 0x80]).matched)
        #expect(!Mappings.ask(server, method: "POST", "/bin", body: [0x00, 0xFF, 0xFE]).matched)
        #expect(!Mappings.ask(server, method: "POST", "/bin", body: [0x00, 0xFF, 0xFE, 0x80, 0x00]).matched)
        let miss = Mappings.ask(server, method: "POST", "/bin", body: [0x41])
        #expect(miss.text.contains(#"body: expected binary equal to AP/+gA== (base64, 4 bytes), got "A""#))
        // Guava's decoder, which WireMock uses: padding optional (any amount at the end), nothing else forgiven.
        let unpadded = try Mappings.server(#"{"urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": "YQ"}]}"#)
        #expect(Mappings.ask(unpadded, method: "POST", "/bin", body: Array("a".utf8)).matched)
        let empty = try Mappings.server(#"{"urlPath": "/bin", "bodyPatterns": [{"binaryEqualTo": ""}]}"#)
        #expect(Mappings.ask(empty, method: "POST", "/bin").matched)
        #expect(!Mappings.ask(empty, method: "POST", "/bin", body: [0]).matched)
        #expect(try Base64Text.decodeExplained("YQ====") == [0x61])
        #expect(try Base64Text.decodeExplained("") == [])
    }

    @Test(arguments: [
        (#"{"bodyPatterns": [{"binaryEqualTo": "!!!"}]}"#, #"binaryEqualTo is not base64: unrecognized character "!" at 1"#),
        (#"{"bodyPatterns": [{"binaryEqualTo": "YW Jj"}]}"#, "binaryEqualTo is not base64: invalid input length 5"),
        (#"{"bodyPatterns": [{"binaryEqualTo": "-_8="}]}"#, #"unrecognized character "-" at 1"#),
        (#"{"bodyPatterns": [{"binaryEqualTo": "YQ==YQ=="}]}"#, #"unrecognized character "=" at 3"#),
        (#"{"bodyPatterns": [{"binaryEqualTo": "YWJj\nZA=="}]}"#, #"unrecognized character "\n" at 5"#),
        (#"{"headers": {"X": {"binaryEqualTo": "AAA="}}}"#, #""binaryEqualTo" belongs to body patterns"#),
        (#"{"cookies": {"c": {"hasExactly": [{"equalTo": "a"}]}}}"#, #""hasExactly" belongs to headers and queryParameters"#),
        (#"{"bodyPatterns": [{"includes": [{"equalTo": "a"}]}]}"#, #""includes" belongs to headers and queryParameters"#),
        (#"{"headers": {"X": {"or": [{"hasExactly": [{"equalTo": "a"}]}]}}}"#, #""hasExactly" belongs to headers"#),
        (#"{"headers": {"X": {"hasExactly": [{"absent": true}]}}}"#, #"{"absent": true} inside hasExactly can never match"#),
        (#"{"headers": {"X": {"hasExactly": [{"equalTo": "a"}], "includes": []}}}"#, "has 2 matchers (hasExactly, includes)"),
        // Attack 1, F2: empty lists loaded; `and: []` matched anything (a missing header too), the others nothing.
        (#"{"headers": {"X": {"and": []}}}"#, #"headers "X": "and": [] holds no matcher (it would match anything)"#),
        (#"{"queryParameters": {"q": {"or": []}}}"#, #""or": [] holds no matcher (it would never match)"#),
        (#"{"bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "and": []}}]}"#, #""and": [] holds no matcher"#),
        (#"{"headers": {"X": {"hasExactly": []}}}"#, #""hasExactly": [] holds no matcher"#),
        (#"{"queryParameters": {"q": {"includes": []}}}"#, #""includes": [] holds no matcher"#),
        (
            #"{"headers": {"X": {"not": {"equalTo": "a"}}}}"#,
            "\"not\" is not supported by sut-launch (it is WireMock 3's, and WireMock 2.35 refuses it too"
        ),
        (#"{"formParameters": {"a": {"equalTo": "1"}}}"#, "\"formParameters\" is not supported by sut-launch (it is WireMock 3's"),
        (#"{"basicAuthCredentials": {"username": "u", "password": "p", "extra": 1}}"#, #"unknown key "extra" in "basicAuthCredentials""#),
        (#"{"basicAuthCredentials": {"username": ["u"]}}"#, #""username" must be a string"#),
        (#"{"basicAuthCredentials": {}, "basicAuth": {}}"#, "a request has one of basicAuthCredentials and basicAuth, found both"),
        (#"{"basicAuth": {}, "headers": {"Authorization": {"equalTo": "x"}}}"#, "WireMock 2.35 then answers every request with 500"),
    ])
    func matchersInTheWrongPlaceOrMalformedAreRefusedByName(request: String, message: String) {
        let problem = Mappings.problem(request)
        #expect(problem?.contains(message) == true, "\(problem ?? "loaded")")
        #expect(problem?.hasPrefix("mapping.json:1:") == true)
    }

    /// and/or nested deep, with the new matchers inside: loads, matches, and explains without trapping.
    @Test func nestedAndOrWithNewMatchersStayReadable() throws {
        var matcher = #"{"after": "2020-01-01T00:00:00Z"}"#
        for depth in 0..<40 { matcher = depth % 2 == 0 ? #"{"and": [\#(matcher), {"anything": "x"}]}"# : #"{"or": [\#(matcher)]}"# }
        let server = try Mappings.server(#"{"urlPath": "/n", "headers": {"X-N": \#(matcher)}}"#)
        #expect(Mappings.ask(server, "/n", headers: [("X-N", "2021-01-01T00:00:00Z")]).matched)
        let miss = Mappings.ask(server, "/n", headers: [("X-N", "2019-01-01T00:00:00Z")])
        #expect(!miss.matched && miss.text.contains("a date-time after 2020-01-01T00:00:00Z and anything"))
    }
}
