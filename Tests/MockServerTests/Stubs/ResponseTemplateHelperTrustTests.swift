import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// The helpers tried as HOSTILE.md asks: every hostile number from a request into every helper that reads one
/// (class 1), dates and offsets at the edges, zone names that would leave the zone directory (class 3), control
/// bytes a helper decodes into a header (class 4), and work that grows with the request stopping at the answer's
/// budget (class 6): always a 200 or a 400/500 that names the helper or the budget, never a trap or a stall.
@Suite struct ResponseTemplateHelperTrustTests {
    static let numbers = [
        "0", "-1", "-0", "NaN", "nan", "inf", "-inf", "1e300", "1e-300", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "2147483648", "-2147483649", "0x10", "1_000", " 5", "5 ", "", "5.5", String(repeating: "9", count: 10_000),
    ]

    static func render(_ template: String, _ request: HTTPRequest) throws -> Result<String, ResponseTemplate.RenderError> {
        try ResponseTemplateHelperTests.render(template, request)
    }

    static func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
    }

    @Test func hostileNumbersFromRequestsAreAnsweredOrRefusedByName() throws {
        let templates = [
            ("{{math request.query.v.[0] '+' 1}}", "math"), ("{{math 10 '/' request.query.v.[0]}}", "math"),
            ("{{math request.query.v.[0] '*' request.query.v.[0]}}", "math"), ("{{math 7 '%' request.query.v.[0]}}", "math"),
            ("{{randomInt lower=request.query.v upper=2147483647}}", "randomInt"),
            ("{{randomInt lower=-5 upper=request.query.v}}", "randomInt"),
            ("{{randomDecimal lower=request.query.v}}", "randomDecimal"), ("{{randomDecimal upper=request.query.v}}", "randomDecimal"),
            ("{{abbreviate 'abcdefgh' request.query.v}}", "abbreviate"), ("{{now offset=request.query.o}}", "now"),
            ("{{date (parseDate '2021-01-01T00:00:00Z') offset=request.query.o}}", "date"),
            ("{{parseDate request.query.v format='epoch'}}", "parseDate"), ("{{parseDate request.query.v format='unix'}}", "parseDate"),
            ("{{parseDate request.query.v format='yyyy'}}", "parseDate"), ("{{parseDate request.query.v}}", "parseDate"),
            ("{{range 1 (math request.query.v.[0] '+' 0)}}", "range|math"), ("{{pickRandom request.query.v}}", "pickRandom"),
            ("{{randomValue length=request.query.v}}", "randomValue"), ("{{join (array 1 2) request.query.v.[0]}}", "join"),
        ]
        for value in Self.numbers {
            let request = HTTPRequest(method: "GET", target: "/?v=\(Self.query(value))&o=\(Self.query(value + " years"))")
            for (template, helper) in templates {
                switch try Self.render(template, request) {
                case .success: continue
                case .failure(let error):
                    let shown = "\(template) with '\(value.prefix(20))': \(error)"
                    #expect(error.status == 400 || error.description.contains("budget"), "\(shown)")
                    let named = helper.split(separator: "|").contains { error.description.hasPrefix("template: {{\($0)") }
                    #expect(named || error.description.contains("budget"), "\(shown)")
                }
            }
        }
    }

    /// Class 1 and 7 (finding F-C): a decimal result outside a double is the documented 400 naming the operands, never
    /// `Infinity` or `0.0` (what WireMock 2.35 prints); what a double holds, even subnormal, still prints.
    @Test func mathOutsideADoubleIsRefusedNeverInfinity() throws {
        for (a, b) in [("1e200", "1e200"), ("-1e308", "1e308"), ("1e308", "10"), ("1e400", "1"), ("1e-200", "1e-200"), ("-1e-400", "1")] {
            let request = HTTPRequest(method: "GET", target: "/?a=\(Self.query(a))&b=\(Self.query(b))")
            let result = try Self.render("{{math request.query.a.[0] '*' request.query.b.[0]}}", request)
            guard case .failure(let error) = result else {
                Issue.record("\(a) * \(b) answered \(result)")
                continue
            }
            #expect(error.status == 400, "\(error)")
            #expect(
                error.description.contains("{{math}}: \(a) * \(b)") && error.description.contains("out of a double's range"), "\(error)")
        }
        for (a, b, printed) in [
            ("1e-320", "1", "1.0E-320"), ("1e300", "1e8", "1.0E308"), ("1e200", "0", "0.0"), ("-1.5e-300", "2", "-3.0E-300"),
        ] {
            let request = HTTPRequest(method: "GET", target: "/?a=\(Self.query(a))&b=\(Self.query(b))")
            let result = try Self.render("{{math request.query.a.[0] '*' request.query.b.[0]}}", request)
            #expect((try? result.get()) == printed, "\(a) * \(b): \(result)")
        }
    }

    @Test func datesAtTheEdgesNeverTrap() throws {
        for offset in [
            "2147483647 seconds", "-2147483648 seconds", "2147483647 days", "-2147483648 days", "2147483647 months", "-2147483648 years",
            "270000 years", "-270000 years", "3000000 months", "-99999 years", "0 years", "+5 days",
        ] {
            let request = HTTPRequest(method: "GET", target: "/?o=\(Self.query(offset))")
            for format in ["", " format='epoch'", " format='unix'", " format='yyyy-MM-dd G EEE D'", " timezone='Australia/Sydney'"] {
                let result = try Self.render(
                    "{{now offset=request.query.o\(format)}}|{{date (now offset=request.query.o) offset=request.query.o}}", request)
                if case .failure(let error) = result {
                    #expect(error.status == 400 && error.description.contains("out of the range"), "\(offset): \(error)")
                }
            }
        }
        for text in [
            "+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", "2021-01-01T23:59:60Z", "2021-01-01T24:00:00Z",
            "2021-13-01T00:00:00Z",
            "9999-12-31T23:59:59.999999999-18:00", "0000-01-01T00:00:00+18:00", "2021-01-01T00:00:00+18:01",
            "2021-01-01T00:00:00Z[../../etc]",
            String(repeating: "9", count: 10_000), "Mon, 32 Jan 2021 00:00:00 GMT",
        ] {
            let request = HTTPRequest(method: "GET", target: "/?d=\(Self.query(text))")
            let parsed = try Self.render("{{parseDate request.query.d}}|{{dateFormat (parseDate request.query.d) 'uuuu-MM-dd'}}", request)
            #expect((try? parsed.get()) != nil, "\(text.prefix(40)): \(parsed)")
        }
        // What does parse is still printed right at the ends of the range.
        #expect(
            try Self.render(
                "{{parseDate '-271821-04-20T00:00:00Z' format=\"uuuu-MM-dd'T'HH:mm:ssX\"}}", HTTPRequest(method: "GET", target: "/")
            ).get() != "")
    }

    @Test func zoneNamesCannotLeaveTheZoneDirectory() throws {
        for name in [
            "../../etc/passwd", "/etc/passwd", "Europe/../../../etc/passwd", "./UTC", "Europe//Paris", "posix/Europe/Paris", "localtime",
            "Europe/Paris\u{0}", String(repeating: "A/", count: 100), "Nowhere/Zone",
        ] {
            let request = HTTPRequest(method: "GET", target: "/?z=\(Self.query(name))")
            guard case .failure(let error) = try Self.render("{{now timezone=request.query.z}}", request) else {
                Issue.record("\(name) was read as a zone")
                continue
            }
            #expect(error.status == 400 && error.description.contains("{{now timezone="), "\(error)")
            // dateFormat's tz= is Java's TimeZone: a name it does not know is GMT, and no file outside is read either.
            #expect(
                try Self.render("{{dateFormat (parseDate '2021-01-01T12:00:00Z') 'HH z' tz=request.query.z}}", request).get().hasPrefix(
                    "12 "))
        }
    }

    @Test func decodedControlBytesCannotSplitAHeader() throws {
        let stubs = try StubLoader.parse(
            #"""
            {"routes": [{"method": "GET", "path": "/h", "template": true, "body": "ok",
              "responseHeaders": {"X-A": "{{{urlEncode request.query.a decode=true}}}", "X-B": "{{{base64 request.query.b decode=true}}}",
                                  "X-C": "{{formData request.query.c 'f' urlDecode=true}}{{{f.k}}}"}}]}
            """#, file: "routes.json", directory: ".")
        let answer = MockServer(stubs: stubs).handle(
            HTTPRequest(method: "GET", target: "/h?a=x%250D%250ASet-Cookie%3A%20s%3D1&b=eA0KWC1Jbmo6IDE%3D&c=k%3Dv%250D%250AX%3A%201"))
        #expect(answer.status == 200)
        #expect(answer.headers["X-A"] == "x Set-Cookie: s=1")
        #expect(answer.headers["X-B"] == "x X-Inj: 1")
        #expect(answer.headers["X-C"] == "v X: 1")
        #expect(answer.headers["Set-Cookie"] == nil && answer.headers["X-Inj"] == nil)
    }

    /// Work that grows with the request: each stops at the answer's budget (a 500 naming it) in bounded time.
    @Test func helperWorkOverRequestDataStopsAtTheBudget() throws {
        let big = String(repeating: "a1", count: 500_000)
        let json = "[" + Array(repeating: #"{"k":"v"}"#, count: 200_000).joined(separator: ",") + "]"
        let cases: [(String, String)] = [
            ("{{#each (range 1 100000)}}{{#each (range 1 100000)}}x{{/each}}{{/each}}", ""),
            ("{{size (range 1 2000000)}}", ""), ("{{size (range -2147483648 2147483647)}}", ""),
            ("{{#each (range 1 1000)}}{{regexExtract request.body '([a-z])([0-9])' 'p'}}{{/each}}", big),
            ("{{#each (range 1 1000)}}{{size (parseJson request.body)}}{{/each}}", json),
            ("{{#each (range 1 1000)}}{{toJson (parseJson request.body)}}{{/each}}", json),
            ("{{#each (range 1 1000)}}{{size (base64 request.body)}}{{/each}}", big),
            ("{{#each (range 1 1000)}}{{size (capitalize request.body)}}{{/each}}", big),
            ("{{#each (range 1 1000)}}{{size (formData request.body)}}{{/each}}", String(repeating: "a=1&", count: 200_000)),
            ("{{#each (range 1 1000)}}{{matches request.body '(a|1)*b'}}{{/each}}", big),
            ("{{#each (range 1 1000)}}{{#each (range 1 1000)}}{{now format='yyyy-MM-dd HH:mm:ss EEEE MMMM G'}}{{/each}}{{/each}}", ""),
            ("{{#each (range 1 200)}}{{jsonMerge request.body request.body}}{{/each}}", #"{"a":"# + json + "}"),
            // A list a template builds of itself: twice as large and one level deeper each turn.
            ("{{#each (range 1 1000)}}{{val (array a a) assign='a'}}{{/each}}{{a}}", ""),
            ("{{#each (range 1 1000)}}{{val (array a a) assign='a'}}{{/each}}{{toJson a}}", ""),
            ("{{#each (range 1 1000)}}{{val (array a a) assign='a'}}{{/each}}{{math a '+' 1}}", ""),
            ("{{#each (range 1 1000)}}{{val (array a a) assign='a'}}{{/each}}{{join a ','}}", ""),
            ("{{#each (range 1 60)}}{{val (array a a) assign='a'}}{{/each}}{{#eq a a}}same{{/eq}}", ""),
        ]
        for (template, body) in cases {
            let started = Date()
            let request = HTTPRequest(method: "POST", target: "/?n=100000", body: Array(body.utf8))
            guard case .failure(let error) = try Self.render(template, request) else {
                Issue.record("\(template) rendered within the budget")
                continue
            }
            #expect(error.status == 500 && error.description.contains("budget"), "\(template): \(error)")
            #expect(Date().timeIntervalSince(started) < 60, "\(template) took \(Date().timeIntervalSince(started)) s")
        }
    }
}
