import AutomationSupport
import Foundation
import Testing

@testable import MockServer

/// The pieces the template trust rules rest on, tried directly: JSONPath's budget (templates and matching),
/// header values made fit for one line, numbers read through BoundedNumber, and the helpers' semantics
/// that the budgeted rewrite must keep.
@Suite struct ResponseTemplateBudgetTests {
    private func render(_ template: String, _ request: HTTPRequest = HTTPRequest(method: "GET", target: "/")) throws -> Result<
        String, ResponseTemplate.RenderError
    > {
        let compiled = try ResponseTemplate(template)
        do throws(ResponseTemplate.RenderError) { return .success(try compiled.render(request)) } catch { return .failure(error) }
    }

    /// `{"a": {"a": … 100 deep}}`: `$..a..a..a..a..a` selects C(100, 5) ≈ 75 million values.
    private static let deep = String(repeating: #"{"a":"#, count: 100) + "1" + String(repeating: "}", count: 100)

    /// (A hang is caught by the time limit, a generous one: the budget is counted in work units, not time, and the
    /// machine may be loaded; `scripts/bench-template.sh` measures the time.)
    @Test(.timeLimit(.minutes(1))) func jsonPathStopsAtItsBudgetInTemplatesAndInMatching() throws {
        let document = try JSONParser.parse(Self.deep)
        let path = try JSONPath("$..a..a..a..a..a")
        var budget = 100_000
        #expect(path.evaluate(document, budget: &budget) == nil)
        var enough = 1_000_000
        #expect(try JSONPath("$..a").evaluate(document, budget: &enough)?.count == 100)
        // Matching: over budget is not a match, and neither is it absent (the values were not all seen).
        #expect(!path.matches(document, nil))
        #expect(!path.matches(document, .absent(true)))
        // A template: a 500 naming the work budget.
        let request = HTTPRequest(method: "POST", target: "/", body: Array(Self.deep.utf8))
        guard case .failure(let error) = try render("{{size (jsonPath request.body '$..a..a..a..a..a')}}", request) else {
            Issue.record("rendered without spending the budget")
            return
        }
        #expect(
            error.status == 500 && error.description.contains("work (64 Mi units") && error.description.contains("{{jsonPath}}"), "\(error)"
        )
    }

    @Test func jsonPathIndexesAreReadThroughBoundedNumber() throws {
        for bad in ["9223372036854775808", "-9223372036854775808", "99999999999", "1e3", "0x10", "1_0", "5.5"] {
            #expect(throws: JSONPath.Error.self, "[\(bad)]") { try JSONPath("$.a[\(bad)]") }
        }
        var budget = Int.max
        #expect(try JSONPath("$[-1]").evaluate(JSONParser.parse("[1,2,3]"), budget: &budget)?.first?.int == 3)
        #expect(try JSONPath("$[2147483647]").evaluate(JSONParser.parse("[1]")).isEmpty)
    }

    @Test func headerValuesKeepNoControlByte() {
        #expect(ResponseTemplates.fieldValue("a\r\nSet-Cookie: x") == "a Set-Cookie: x")
        #expect(ResponseTemplates.fieldValue("a\0b\rc\nd\u{1}e\u{7F}f\tg") == "a b c d e f\tg")
        #expect(ResponseTemplates.fieldValue("café ✓") == "café ✓")
    }

    @Test func requestNumbersAreRefusedByNameAndLiteralsAtLoad() throws {
        for value in ["nan", "inf", "1e300", "-1", "10001", "0x10", " 5", "", "9223372036854775808", String(repeating: "9", count: 10_000)]
        {
            let request = HTTPRequest(
                method: "GET", target: "/?n=" + (value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))
            guard case .failure(let error) = try render("{{randomValue length=request.query.n}}", request) else {
                Issue.record("length=\(value.prefix(20)) rendered")
                continue
            }
            #expect(
                error.status == 400
                    && error.description.hasPrefix(
                        "template: {{randomValue length=…}}: '\(value.prefix(40))' is not a whole number from 0 to 10000"),
                "\(error)")
        }
        #expect(try render("{{randomValue length=request.query.n}}", HTTPRequest(method: "GET", target: "/?n=7")).get().count == 7)
        #expect(try render("{{randomValue length=0}}").get().isEmpty)
        for literal in [
            "{{randomValue length=10001}}", "{{randomValue length=nan}}", "{{randomValue length='-1'}}", "{{randomValue size=1}}",
            "{{now offset='1e3 days'}}", "{{now offset=5}}", "{{now timezone='Nowhere/Zone'}}", "{{now offset='3 weeks'}}",
            "{{request.query.a.[2147483648]}}",
            "{{jsonPath request.body}}", "{{jsonPath request.body '$.a[1e3]'}}", "{{upper 1e400}}", "{{upper 0x10}}", "{{trim x=1}}",
        ] {
            #expect(throws: ResponseTemplate.Error.self, "\(literal)") { try ResponseTemplate(literal) }
        }
    }

    @Test func helpersKeepTheirMeaning() throws {
        let request = HTTPRequest(
            method: "POST", target: "/a/b?q=x&n=12&n=3&v=%7B%7Brequest.method%7D%7D", headers: ["Cookie": "s=1; t=2"],
            body: Array(#"{"items": [{"a": 1}, {"a": 2.5}], "s": "=é\u0301"}"#.utf8))
        let cases: [(String, String)] = [
            ("{{#each (jsonPath request.body '$.items')}}{{@index}}{{@first}}{{@last}}{{this.a}};{{/each}}", "0truefalse1;1falsetrue2.5;"),
            ("{{#each (jsonPath request.body '$.items[0]')}}{{@key}}={{this}}{{/each}}", "a=1"),
            ("{{jsonPath (jsonPath request.body '$.items[1]') '$.a'}}", "2.5"),
            ("{{size (jsonPath request.body '$.items')}} {{size request.query.n}} {{size request.path}} {{size 'héllo'}}", "2 2 2 5"),
            ("{{#gt request.query.n.[0] 5}}num{{/gt}}{{#gt request.query.n.[1] 12}}{{else}}le{{/gt}}", "numle"),
            // Searched as bytes, as Java searches code units: é is found before a combining accent.
            ("{{#contains request.body 'items'}}y{{/contains}}{{#contains (jsonPath request.body '$.s') 'é'}}found{{/contains}}", "yfound"),
            ("{{{request.query.v}}} {{request.cookies.t}}", "{{request.method}} 2"),
            ("{{jsonPath request.body '$.s'}}", "&#x3D;é\u{301}"),
            ("{{randomValue length=4 type='HEXADECIMAL' uppercase=true}}", ""),
            ("{{#eq (jsonPath request.body '$.items') (jsonPath request.body '$.items')}}same{{/eq}}", "same"),
        ]
        for (template, expected) in cases {
            let rendered = try render(template, request).get()
            if template.contains("randomValue") {
                #expect(rendered.count == 4 && rendered.allSatisfy { "0123456789ABCDEF".contains($0) }, "\(rendered)")
            } else {
                #expect(rendered == expected, "\(template)")
            }
        }
        // `now` before 1970: whole seconds toward zero, as Java divides.
        #expect(try render("{{now offset='-420 days' format='unix'}}").get().count >= 9)
        let old = try render("{{now offset='-36400 days'}}").get()
        #expect(old.hasPrefix("19") && old.hasSuffix("Z") && old.count == 20, "\(old)")
    }

    /// The body and header values of one answer share one budget, and the body is decoded only if read.
    @Test func oneAnswerHasOneBudget() throws {
        var context = ResponseTemplate.RenderContext(
            HTTPRequest(method: "POST", target: "/", body: Array(repeating: UInt8(ascii: "a"), count: 1 << 20)))
        let plain = try ResponseTemplate("{{request.method}}")
        _ = try plain.render(&context)
        #expect(context.work <= ResponseTemplate.stepCost && context.bodyText == nil) // one step, the body never read
        let reader = try ResponseTemplate("{{#if (upper request.body)}}{{/if}}")
        var spent: ResponseTemplate.RenderError?
        for _ in 0..<100 {
            do throws(ResponseTemplate.RenderError) { _ = try reader.render(&context) } catch {
                spent = error
                break
            }
        }
        #expect(spent?.status == 500 && spent?.description.contains("{{upper}}") == true, "\(String(describing: spent))")
    }

    /// A helper that parses or decodes a text of known size is charged for it before the work is done (r5c-12: a
    /// 12-14 MB body in `parseJson` was parsed whole, seconds in a debug build, and the budget's 500 came after):
    /// a body the budget cannot pay for is refused at once, naming the helper; a smaller one of the same shape answers.
    @Test(arguments: [
        ("{{size (parseJson request.body)}}", "{{parseJson}}"), ("{{size (toJson (parseJson request.body))}}", "{{parseJson}}"),
        ("{{jsonPath request.body '$[0]'}}", "{{jsonPath}}"), ("{{size (base64 request.body decode=true)}}", "{{base64}}"),
    ])
    func aTextTooLargeForTheBudgetIsRefusedBeforeItIsParsed(template: String, helper: String) throws {
        let zeros = 17 << 19 // 17 Mi bytes of `0,`: more units than the budget holds at 4 a byte parsed
        let isJSON = !template.contains("base64")
        let huge = isJSON ? "[" + String(repeating: "0,", count: zeros) + "0]" : String(repeating: "MDAw", count: zeros)
        guard case .failure(let error) = try render(template, HTTPRequest(method: "POST", target: "/", body: Array(huge.utf8))) else {
            Issue.record("\(template) rendered within the budget")
            return
        }
        #expect(error.status == 500 && error.description.contains("work (64 Mi units") && error.description.contains(helper), "\(error)")
        let small = isJSON ? "[" + String(repeating: "0,", count: 1_000) + "0]" : String(repeating: "MDAw", count: 1_000)
        guard case .success = try render(template, HTTPRequest(method: "POST", target: "/", body: Array(small.utf8))) else {
            Issue.record("\(template) refused a small body")
            return
        }
    }
}
