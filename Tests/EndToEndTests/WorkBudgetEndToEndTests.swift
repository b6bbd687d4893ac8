import Foundation
import Testing

/// r8a A1, A4, A5 from outside: the built `sut-launch serve` at its default budgets, a python3 client, and the
/// server's CPU read from /proc/PID/stat (utime + stime) around each request. The matching budget (50,000,000 units)
/// is about 2 s of CPU; the bounds are three times that: generous for a debug build on a shared machine, far below
/// what each shape cost before (12.6 s for six XPath stubs, 124 s for one admin count).
@Suite(.enabled(if: CLI.hasCommand("python3"), "needs python3"))
struct WorkBudgetEndToEndTests {
    /// Runs `client` against `serve` with `mappings` (a WireMock `{"mappings": [...]}` file) and decodes its JSON.
    private func run(_ mappings: String, _ client: String) throws -> [String: [Int]] {
        let (output, alive, _) = try TemplateTrustEndToEndTests.serve(mappings, client: TemplateTrustEndToEndTests.pythonClient + client)
        #expect(alive, "serve died")
        let decoded = try? JSONDecoder().decode([String: [Int]].self, from: Data(output.utf8))
        return try #require(decoded, "client printed: \(output.prefix(600))")
    }

    private static let helpers = #"""
        HZ = __import__("os").sysconf("SC_CLK_TCK")
        def timed(method, path, body=b""):
            before = cpu(); status, text, _ = ask(method, path, body, timeout=120); after = cpu()
            return [status, int((after - before) * 1000 / HZ), int("spent its work budget of 50000000 units" in text)]

        """#

    /// Twelve XPath stubs printing every node of a 250-deep 1 MB body: one budget for the request at most.
    /// (Six, as in the finding, cost about the budget itself in this build: some runs answered the 404 after 2.1 s.)
    @Test func xPathSubMatchersOnOneURLStopAtTheRequestsBudget() throws {
        let mappings = (1...12).map {
            #"{"request": {"method": "POST", "url": "/xpp", "bodyPatterns": [{"matchesXPath": {"expression": "//*", "equalTo": "nomatch\#($0)"}}]}, "response": {"status": 200, "body": "XP"}}"#
        }
        let client =
            Self.helpers + #"""
                deep = ("<a>" * 250 + "x" * 1000000 + "</a>" * 250).encode()
                print(json.dumps({"xpath": timed("POST", "/xpp", deep)}))
                """#
        let result = try run(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}", client)
        let xpath = try #require(result["xpath"])
        // The body is parsed once for the twelve now (it was twelve parses): the stubs and the near miss may fit the
        // budget (a 404, 1.8 s of CPU in a debug build) or not (the 500 naming it); never more than the one budget.
        #expect(xpath[0] == 404 || (xpath[0] == 500 && xpath[2] == 1), "\(xpath)")
        #expect(xpath[1] < 6_000, "the request used \(xpath[1]) ms of CPU")
    }

    /// r9a B12: an XPath stopped at its operation limit (`//*` over 2,100,000 elements, evaluated by libxml2's
    /// streaming walk) printed three bare lines of libxml2's own to serve's stderr (`XPath operation limit exceeded`,
    /// `xmlXPathRunEval: last is less than zero`, `xmlXPathCompiledEval: No result on the stack.`). Only the tool's
    /// own lines reach stderr now; the request is the 500 naming the budget.
    @Test func anXPathStoppedAtItsBudgetPrintsNoLineOfLibxml2() throws {
        let mappings =
            #"{"mappings": [{"request": {"method": "POST", "url": "/xpp", "bodyPatterns": [{"matchesXPath": "//*"}]}, "response": {"status": 200}}]}"#
        let client =
            TemplateTrustEndToEndTests.pythonClient + Self.helpers + #"""
                many = ("<a>" + "<b/>" * 2100000 + "</a>").encode()
                print(json.dumps({"xpath": timed("POST", "/xpp", many)}))
                """#
        let (output, alive, serve) = try TemplateTrustEndToEndTests.serve(mappings, client: client)
        #expect(alive, "serve died")
        #expect(output.contains(#"{"xpath": [500, "#), "\(output)")
        let foreign = serve.stderr.split(separator: "\n").filter { !$0.hasPrefix("sut-launch") && !$0.hasPrefix(" ") }
        #expect(foreign.isEmpty, "lines on serve's stderr that are not the tool's: \(foreign)")
    }

    /// An admin count with an XPath sub-matcher over 40 journal entries of 64 KB, 250 deep: one budget for the call.
    @Test func anAdminCountWithAnXPathSubMatcherStopsAtItsBudget() throws {
        let client =
            Self.helpers + #"""
                deep = ("<a>" * 250 + "x" * 62000 + "</a>" * 250).encode()
                for i in range(40): ask("POST", "/j%d" % i, deep)
                pattern = json.dumps({"method": "POST", "bodyPatterns": [{"matchesXPath": {"expression": "//*", "contains": "zzq"}}]}).encode()
                print(json.dumps({"count": timed("POST", "/__admin/requests/count", pattern)}))
                """#
        let result = try run(#"{"mappings": []}"#, client)
        let count = try #require(result["count"])
        #expect(count[0] == 500 && count[2] == 1, "\(count)")
        #expect(count[1] < 6_000, "the count used \(count[1]) ms of CPU")
    }

    /// `regexExtract` over generated text it never matches spends the template's budget at no more than about twice
    /// the CPU of the plain loop that spends it (docs/wiremock.md: the dearest shape 2.5 times); it was 6-9 times.
    @Test func regexExtractOnGeneratedTextCostsAboutWhatTheLoopCosts() throws {
        let loop = "{{#each (range 1 100000)}}{{#each (range 1 1000)}}x{{/each}}{{/each}}"
        let extract = "{{#each (range 1 100000)}}{{regexExtract (randomValue length=1000) '(a|b|c)*z'}}{{/each}}"
        let mappings = [("/r0", loop), ("/r1", extract)].map { path, body in
            #"{"request": {"urlPath": "\#(path)"}, "response": {"status": 200, "body": "\#(body)", "transformers": ["response-template"]}}"#
        }
        let client = Self.helpers + #"print(json.dumps({"r0": timed("GET", "/r0"), "r1": timed("GET", "/r1")}))"#
        let result = try run(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}", client)
        let (r0, r1) = (try #require(result["r0"]), try #require(result["r1"]))
        #expect(r0[0] == 500 && r1[0] == 500, "\(r0) \(r1)")
        // A bound against a runaway, not the figure: in a debug build on a shared machine the two CPU times move by
        // a factor of two between runs (the loop 0.86-1.43 s, the regex 4.8-5.2 s), so the 2.5 times is measured in
        // release by scripts/bench-template.sh; a regex no longer charged by its CPU runs an order of magnitude over.
        #expect(r1[1] <= 10 * r0[1] + 1_000, "regexExtract used \(r1[1]) ms of CPU, the loop \(r0[1]) ms")
    }

    /// r9a B1: `randomValue` and a text helper over long text are charged at least their CPU, so they spend the budget
    /// at about the loop's CPU; `randomValue length=1000` in a loop cost 17 times the loop, `urlEncode` of 1,200 bytes 5.
    @Test func randomValueAndTextHelpersCostAboutWhatTheLoopCosts() throws {
        let shapes = [
            ("/r0", "{{#each (range 1 100000)}}{{#each (range 1 1000)}}x{{/each}}{{/each}}"),
            ("/r2", "{{#each (range 1 100000)}}{{size (randomValue length=1000)}}{{/each}}"),
            ("/r3", "{{#each (range 1 20000)}}{{size (urlEncode request.body)}}{{/each}}"),
        ]
        let mappings = shapes.map { path, body in
            #"{"request": {"urlPath": "\#(path)"}, "response": {"status": 200, "body": "\#(body)", "transformers": ["response-template"]}}"#
        }
        let client =
            Self.helpers
            + #"print(json.dumps({"r0": timed("GET", "/r0"), "r2": timed("GET", "/r2"), "r3": timed("POST", "/r3", ("a b/\u00e9" * 200).encode())}))"#
        let result = try run(#"{"mappings": ["# + mappings.joined(separator: ",") + "]}", client)
        let (r0, r2, r3) = (try #require(result["r0"]), try #require(result["r2"]), try #require(result["r3"]))
        #expect(r0[0] == 500 && r2[0] == 500 && r3[0] == 500, "\(r0) \(r2) \(r3)")
        // As above, a bound against a runaway (17 and 5 times before), not the release-build figure.
        #expect(r2[1] <= 3 * r0[1] + 1_000, "randomValue used \(r2[1]) ms of CPU, the loop \(r0[1]) ms")
        #expect(r3[1] <= 3 * r0[1] + 1_000, "urlEncode used \(r3[1]) ms of CPU, the loop \(r0[1]) ms")
    }
}
