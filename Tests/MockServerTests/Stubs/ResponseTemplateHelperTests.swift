import AutomationSupport
import Testing

@testable import MockServer

/// WireMock 2.35's helpers (its own and Handlebars.java's), each with the examples of WireMock's documentation and
/// the outputs the 2.35.1 jar gives for them (rendered by hand against the jar; the deterministic ones are also
/// asked of both servers by WireMockDifferentialTests, WireMock/helpers_script.py), and WireMock 3's `val`,
/// `toJson` and `jsonMerge` as its sources and tests define them.
@Suite struct ResponseTemplateHelperTests {
    static let request = HTTPRequest(
        method: "POST", target: "/t/orders/7?name=Ada&tag=a&tag=b", headers: ["X-Trace": "abc-123"],
        body: Array(#"{"user": {"name": "Ada", "age": 36}, "items": [{"name": "tea", "price": 3}, {"name": "milk", "price": 1.5}]}"#.utf8))

    static func render(_ template: String, _ request: HTTPRequest = request) throws -> Result<String, ResponseTemplate.RenderError> {
        let compiled = try ResponseTemplate(template)
        do throws(ResponseTemplate.RenderError) { return .success(try compiled.render(request)) } catch { return .failure(error) }
    }

    static func expectRendered(_ cases: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (template, expected) in cases {
            let rendered = try render(template)
            #expect((try? rendered.get()) == expected, "\(template) -> \(rendered)", sourceLocation: sourceLocation)
        }
    }

    @Test func mathIsBigDecimalAsWireMockPrintsIt() throws {
        try Self.expectRendered([
            ("{{math 1 '+' 2}}", "3"), ("{{math 10 '/' 4}}", "3"), ("{{math 10.0 '/' 3}}", "3.3"), ("{{math 1 '/' 3.0}}", "0"),
            ("{{math 1.5 '+' 2}}", "3.5"), ("{{math 1.0 '+' 2}}", "3.0"), ("{{math 0.1 '+' 0.2}}", "0.3"), ("{{math 5 '%' 3}}", "2"),
            ("{{math -5 '%' 3}}", "-2"), ("{{math 7 '%' 2.5}}", "2.0"), ("{{math 2 'x' 3}}", "6"), ("{{math 2 '*' 3}}", "6"),
            ("{{math 1 '-' 0.75}}", "0.25"), ("{{math 10000000 '*' 1.5}}", "1.5E7"), ("{{math 0.000001 '*' 1}}", "1.0E-6"),
            ("{{math '10' '/' '4'}}", "3"), ("{{math 'abc' '+' 1}}", "1"), ("{{math '1e3' '+' 1}}", "1001"), ("{{math ' 5' '+' 1}}", "1"),
            ("{{math 2147483647 '+' 1}}", "2147483648"), ("{{math -2147483648 '-' 1}}", "2147483647"),
            ("{{math 3000000000 '-' 6000000000}}", "-3.0E9"), ("{{math 0 '-' 3000000000}}", "1294967296"),
            ("{{math (jsonPath request.body '$.items[1].price') '*' 2}}", "3.0"),
            ("{{math (jsonPath request.body '$.user.age') '/' 5}}", "7"),
            ("{{math request.query.name '+' 1}}", "1"), ("{{eq (math 1 '+' 1) 2}}", "true"),
            ("{{math 2 request.query.name 3}}", "[ERROR: Ada is not a valid mathematical operator]"),
        ])
        for refused in ["{{math 1 '^' 2}}", "{{math 1 '+'}}", "{{math 1 '/' 0}}", "{{math 1 '%' 0.0}}", "{{math 1e3 '+' 1}}"] {
            #expect(throws: ResponseTemplate.Error.self, "\(refused)") { try ResponseTemplate(refused) }
        }
        // Division by zero from a request value, a missing operand, more digits than 64 bits: a 400 that says which.
        let zero = HTTPRequest(method: "GET", target: "/?z=0&n=99999999999999999999")
        for (template, says) in [
            ("{{math 1 '/' request.query.z}}", "division by zero"), ("{{math request.query.missing '+' 1}}", "operand is missing"),
            ("{{math request.query.n '*' 2}}", "more digits"), ("{{math 99999999999 '*' 99999999999}}", "out of the range"),
        ] {
            guard case .failure(let error) = try Self.render(template, zero) else {
                Issue.record("\(template) rendered")
                continue
            }
            #expect(error.status == 400 && error.description.contains(says), "\(error)")
        }
    }

    /// R4a-5: a literal a Double cannot hold exactly is refused by name (it computed with the rounded Double:
    /// `9007199254740993 + 0` was 9007199254740992); quoted, `math` reads it exactly; an Int.min result divided by -1
    /// is the 400, never a trap.
    @Test func literalsADoubleCannotHoldAreRefusedAndQuotedOnesAreExact() throws {
        for literal in ["9007199254740993", "12345678901234567", "999999999999999999", "-9223372036854775808", "0.12345678901234567891"] {
            #expect(throws: ResponseTemplate.Error.self, "\(literal)") { try ResponseTemplate("{{math \(literal) '+' 0}}") }
        }
        try Self.expectRendered([
            ("{{math '9007199254740993' '+' 0}}", "9007199254740993"), ("{{math '999999999999999999' '+' 1}}", "1000000000000000000"),
            ("{{math '123456789012345678' '*' 10}}", "1234567890123456780"), ("{{math 3037000500 '*' 3037000500}}", "9.22337203700025E18"),
            ("{{math 9007199254740992 '+' 0}}", "9007199254740992"), ("{{math 10000000000 '*' 10000000000}}", "1.0E20"),
        ])
        let minimum = HTTPRequest(method: "POST", target: "/", body: Array(#"{"n": -9223372036854775808}"#.utf8))
        for template in ["{{math (jsonPath request.body '$.n') '/' -1}}", "{{math '999999999999999999' '*' 100}}"] {
            guard case .failure(let error) = try Self.render(template, minimum) else {
                Issue.record("\(template) rendered")
                continue
            }
            #expect(error.status == 400 && error.description.contains("out of the range"), "\(error)")
        }
    }

    @Test func randomHelpersGiveWireMocksAlphabetsAndBounds() throws {
        func sample(_ template: String) throws -> String { try Self.render(template).get() }
        for _ in 0..<20 {
            #expect(try sample("{{randomValue length=40}}").allSatisfy { $0.isLowercase || $0.isNumber }) // lowered, as WireMock
            #expect(try sample("{{randomValue length=40 type='ALPHABETIC' uppercase=true}}").allSatisfy(\.isUppercase))
            #expect(try sample("{{randomValue length=40 type='NUMERIC'}}").allSatisfy(\.isNumber))
            #expect(try sample("{{randomValue length=40 type='HEXADECIMAL'}}").allSatisfy { "0123456789abcdef".contains($0) })
            let symbols = try sample("{{{randomValue length=200 type='ALPHANUMERIC_AND_SYMBOLS'}}}")
            #expect(symbols.count == 200 && symbols.utf8.allSatisfy { $0 >= 33 && $0 <= 125 && !($0 >= 65 && $0 <= 90) })
            let uuid = try sample("{{randomValue type='UUID'}}")
            #expect(uuid.count == 36 && Array(uuid)[14] == "4" && "89ab".contains(Array(uuid)[19]), "\(uuid)")
            let number = try #require(Int(try sample("{{randomInt lower=5 upper=7}}")))
            #expect(number == 5 || number == 6)
            let negative = try #require(Int(try sample("{{randomInt upper=-2147483647}}")))
            #expect(negative == -2_147_483_648)
            let decimal = try #require(Double(try sample("{{randomDecimal lower=1 upper=1.5}}")))
            #expect(decimal >= 1 && decimal < 1.5)
            #expect(["tea", "milk"].contains(try sample("{{pickRandom 'tea' 'milk'}}")))
            #expect(["1", "2"].contains(try sample("{{pickRandom (array 1 2)}}")))
            #expect(["tea", "milk"].contains(try sample("{{pickRandom (jsonPath request.body '$.items[*].name')}}")))
        }
        try Self.expectRendered([
            ("{{range 1 4}}", "[1, 2, 3, 4]"), ("{{range 3 3}}", "[3]"), ("{{size (range 1 1000)}}", "1000"),
            (
                "{{pickRandom request.query.missing}}",
                "[ERROR: Must specify either a single list argument or a set of single value arguments.]"
            ),
            ("{{range 1 request.query.name}}", "[ERROR: The range helper requires both lower and upper bounds as integer parameters]"),
        ])
        for refused in [
            "{{randomInt lower=5 upper=5}}", "{{randomDecimal lower=2 upper=1}}", "{{randomValue type='ASCII'}}", "{{range 1}}",
        ] {
            #expect(throws: ResponseTemplate.Error.self, "\(refused)") { try ResponseTemplate(refused) }
        }
        guard case .failure(let error) = try Self.render("{{range 3 1}}") else {
            Issue.record("a descending range rendered")
            return
        }
        #expect(error.status == 400 && error.description.contains("below the lower"))
    }

    @Test func stringHelpersPrintAsHandlebarsJava() throws {
        try Self.expectRendered([
            ("{{abbreviate 'Mocking APIs helps you develop faster' 21}}", "Mocking APIs helps..."), ("{{abbreviate 'abcdef' 4}}", "a..."),
            ("{{abbreviate 'abc' 10}}", "abc"), ("{{capitalize 'mock my stuff'}}", "Mock My Stuff"),
            ("{{capitalize 'mOCK my-stuff  x' fully=true}}", "Mock My-stuff  X"), ("{{capitalize 'émile ßtraße'}}", "Émile ßtraße"),
            ("{{capitalizeFirst 'mock my stuff'}}", "Mock my stuff"), ("{{upper ''}}", ""), ("{{upper request.query.none 'dflt'}}", "dflt"),
            ("{{lower 'ÀB'}}", "àb"), ("[{{trim '  a b \n'}}]", "[a b]"), ("{{#trim}}  a b  {{/trim}}|", "a b|"),
            ("{{join (array 'a' 'b' 'c') ', '}}", "a, b, c"), ("{{join 'a' 'b' 'c' '-'}}", "a-b-c"),
            ("{{join (array 'a' 'b') ',' prefix='[' suffix=']'}}", "[a,b]"), ("{{join (array 1 2.5 true) '/'}}", "1/2.5/true"),
            ("{{join request.query.missing ','}}|", "|"),
            ("{{base64 'hello'}}", "aGVsbG8&#x3D;"), ("{{{base64 'hello'}}}", "aGVsbG8="), ("{{base64 'hi' padding=false}}", "aGk"),
            ("{{base64 'aGVsbG8=' decode=true}}", "hello"), ("{{base64 'aGVsbG8' decode=true}}", "hello"),
            ("{{#base64}}block{{/base64}}", "YmxvY2s="), ("{{base64 'ü€😀'}}", "w7zigqzwn5iA"),
            ("{{urlEncode 'a b&c=d/é~*._-'}}", "a+b%26c%3Dd%2F%C3%A9%7E*._-"), ("{{urlEncode 'a+b%20c' decode=true}}", "a b c"),
            ("{{hostname}}", HostName.current),
        ])
        for (template, says) in [("{{base64 '%%%' decode=true}}", "is not base64"), ("{{urlEncode '%zz' decode=true}}", "% not followed")] {
            guard case .failure(let error) = try Self.render(template) else {
                Issue.record("\(template) rendered")
                continue
            }
            #expect(error.status == 400 && error.description.contains(says), "\(error)")
        }
        for refused in [
            "{{abbreviate 'abc' 3}}", "{{join 'a'}}", "{{urlEncode 'a' encoding='latin1'}}", "{{formatDate x}}", "{{split 'a,b' ','}}",
        ] {
            #expect(throws: ResponseTemplate.Error.self, "\(refused)") { try ResponseTemplate(refused) }
        }
    }

    @Test func regexExtractMatchesAndFormDataAsWireMock() throws {
        try Self.expectRendered([
            ("{{regexExtract 'abc-DEF-123' '[A-Z]+'}}", "DEF"),
            (
                "{{regexExtract 'abc-DEF-123' '([a-z]+)-([A-Z]+)-([0-9]+)' 'parts'}}{{parts.0}},{{parts.1}},{{parts.2}}|{{parts}}",
                "abc,DEF,123|abc"
            ),
            ("{{regexExtract 'abc' '[0-9]+'}}", "[ERROR: Nothing matched [0-9]+]"),
            ("{{regexExtract 'abc' '[0-9]+' default='none'}}", "none"),
            ("{{regexExtract 'a1b2' '([a-z])([0-9])' 'p'}}{{p}}|{{p.[3]}}|{{size p}}", "a|2|4"),
            ("{{regexExtract 'aaa' '(a*)' 'p'}}{{size p}}", "2"), // the empty match at the end counts, as Java's find() finds it
            ("{{regexExtract request.headers.X-Trace '[0-9]+'}}", "123"),
            ("{{{regexExtract 'it\\'s' '\\'s'}}}", "'s"),
            ("{{regexExtract 'abc' request.query.name}}", "[ERROR: Nothing matched Ada]"),
            ("{{matches 'abc' '[a-c]+'}} {{matches 'abcd' '[a-c]+'}}", "true false"),
            ("{{#matches 'abc' 'a.c'}}yes{{else}}no{{/matches}}", "yes"), ("{{#matches 'abc' 'z'}}yes{{else}}no{{/matches}}", ""),
            ("{{#contains 'abc' 'b'}}yes{{/contains}}", "yes"), ("{{#contains 'abc' 'z'}}yes{{else}}no{{/contains}}", ""),
            ("{{contains (array 'a' 'b') 'b'}} {{contains 'abc' 'z'}}", "true false"),
            (
                "{{formData 'a=1&b=2&b=3&c=&d=x=y& e = f ' 'f'}}{{f}}|{{f.a}}|{{f.b}}|{{f.b.1}}|{{f.d}}|{{size f}}",
                "{a&#x3D;1, b&#x3D;2, d&#x3D;x,  e &#x3D;f}|1|2|3|x|4"
            ),
            ("{{formData 'a=%41+b' 'f' urlDecode=true}}{{f.a}}", "A b"), ("{{formData 'a=%41+b'}}", "{a&#x3D;%41+b}"),
            ("{{#each (formData 'a=1&b=2')}}{{@key}}:{{this}},{{/each}}", "a:1,b:2,"),
        ])
        // Java accepts these; the linear engine does not run them, and says so (never a backtracking stall).
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate("{{regexExtract 'aa' '(a)\\1'}}") }
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate("{{matches 'a' '(?=a)a'}}") }
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate("{{regexExtract 'abc' '('}}") }
        guard case .failure(let error) = try Self.render("{{matches request.query.missing 'a'}}") else {
            Issue.record("rendered")
            return
        }
        #expect(error.status == 400 && error.description.contains("missing"))
    }

    /// Attack 1, F7: `{{#with request}}{{url}}{{/with}}` and `{{@root.request.url}}` rendered nothing (WireMock 2.35.1
    /// renders `/pj|POST|/pj` for the first case's request); `../` was refused without its name.
    @Test func withRequestAndRootReadTheRequest() throws {
        let request = HTTPRequest(method: "POST", target: "/pj", body: Array(#"{"a":1}"#.utf8))
        for (template, expected) in [
            (
                "{{#with request}}{{url}}|{{method}}{{/with}}|{{#with (parseJson request.body)}}{{@root.request.url}}{{/with}}",
                "/pj|POST|/pj"
            ),
            ("{{#each (array 1 2)}}{{this}}{{/each}}{{#with request}}{{url}}{{/with}}", "12/pj"),
            (
                "{{#each (array 1)}}{{@root.request.method}}{{/each}}|{{@root.other}}|{{#with request}}{{#if url}}{{path.[0]}}{{/if}}{{/with}}",
                "POST||pj"
            ),
        ] {
            #expect(try Self.render(template, request).get() == expected, "\(template)")
        }
        #expect { try ResponseTemplate("{{#each (array 1)}}{{../request.body}}{{/each}}") } throws: {
            "\($0)".contains("../ (the enclosing block's context) is not supported by sut-launch")
        }
    }

    @Test func collectionsAndJSONPrintAsJavaObjects() throws {
        try Self.expectRendered([
            ("{{array 1 'two' 3.5}}", "[1, two, 3.5]"), ("{{array}}", "[]"), ("{{array 1 (array 2 3)}}", "[1, [2, 3]]"),
            ("{{size (array 1 2)}} {{size 'abc'}} {{size '😀'}} {{size request.query.tag}} {{size request.path}}", "2 3 2 2 3"),
            ("{{size 5}}|{{size (jsonPath request.body '$.missing')}}", "|0"),
            ("{{#each (array 'a' 'b')}}[{{this}}]{{/each}}", "[a][b]"),
            (#"{{parseJson '{"a":1,"b":[1,2],"c":{"d":"x"}}'}}"#, "{a&#x3D;1, b&#x3D;[1, 2], c&#x3D;{d&#x3D;x}}"),
            (#"{{#with (parseJson '{"a":1,"b":[1,2]}')}}{{a}}/{{b.[1]}}/{{size b}}{{/with}}"#, "1/2/2"),
            ("{{parseJson '[1,2,3]'}} {{parseJson '{}'}} {{parseJson '  '}} {{parseJson request.query.missing}}", "[1, 2, 3] {} {} {}"),
            (#"{{parseJson '{"a":null,"b":"x","c":3.0}'}}"#, "{a&#x3D;null, b&#x3D;x, c&#x3D;3.0}"),
            ("{{parseJson request.body 'doc'}}{{doc.user.name}} {{doc.items.1.price}}", "Ada 1.5"),
            (#"{{#parseJson 'j'}}{"x":2}{{/parseJson}}{{j.x}}"#, "2"),
            ("{{#each (parseJson request.body)}}{{@key}};{{/each}}", "user;items;"),
            ("{{#each (jsonPath request.body '$.items')}}{{name}}={{price}};{{/each}}", "tea=3;milk=1.5;"),
            ("{{parseJson}}", "[ERROR: Missing required JSON string parameter]"),
            // WireMock 3's val, toJson and jsonMerge.
            ("{{val request.query.x default='d'}} {{val request.query.name or='d'}} {{val request.query.x}}|", "d Ada |"),
            ("{{val request.query.x or='d' assign='v'}}[{{v}}] {{val 10 assign='n'}}{{#lt n 20}}less{{/lt}}", "[d] less"),
            ("{{toJson (array 1 2 3)}} {{toJson null}}| {{{toJson 'null'}}}", "[ 1, 2, 3 ] | \"null\""),
            (#"{{{toJson (parseJson '{"a":[1,{"b":2.0}]}')}}}"#, "{\n  \"a\" : [ 1, {\n    \"b\" : 2.0\n  } ]\n}"),
            (
                #"{{{jsonMerge '{"id":456,"name":"bob"}' '{"roles":["admin","user"],"dob":"2024-06-18"}'}}}"#,
                #"{"id":456,"name":"bob","roles":["admin","user"],"dob":"2024-06-18"}"#
            ),
            (
                #"{{{jsonMerge '{"a":{"b":1,"c":2},"d":3,"e":4}' '{"a":{"c":null},"d":null,"e":[5]}' removeNulls=true}}}"#,
                #"{"a":{"b":1},"e":[5]}"#
            ),
            (#"{{{jsonMerge '{"a":1}' '{"a":null}'}}}"#, #"{"a":null}"#),
            (#"{{#jsonMerge '{"a":1}'}}{"b":2.5}{{/jsonMerge}}"#, #"{"a":1,"b":2.5}"#),
            ("{{jsonMerge 5 '{}'}}", "[ERROR: Base JSON parameter must be a string]"),
            ("{{{jsonMerge '[1]' '{}'}}}", "[ERROR: Base JSON is not a JSON object ('[1]')]"),
            ("{{{jsonMerge '{' '{}'}}}", "[ERROR: Base JSON is not valid JSON ('{')]"),
            ("{{#assign 'greeting'}}Hello {{request.query.name}}{{/assign}}{{greeting}}!", "Hello Ada!"),
        ])
        guard case .failure(let error) = try Self.render("{{parseJson 'nonsense'}}") else {
            Issue.record("rendered")
            return
        }
        #expect(error.status == 400 && error.description.contains("is not JSON"))
        for refused in [
            "{{parts.0}}", "{{regexExtract 'a' 'a' request.query.name}}", "{{val 1 assign='request'}}", "{{#assign}}x{{/assign}}",
        ] {
            #expect(throws: ResponseTemplate.Error.self, "\(refused)") { try ResponseTemplate(refused) }
        }
    }

    @Test func systemValueIsRefusedUnlessPermitted() throws {
        try Self.expectRendered([
            ("{{systemValue key='PATH'}}", "[ERROR: Access to PATH is denied]"), ("{{systemValue}}", "[ERROR: The key cannot be empty]"),
            ("{{systemValue type='PROPERTY' key='user.home'}}", "[ERROR: Access to user.home is denied]"),
        ])
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate("{{systemValue key='A' type='FILE'}}") }
        #expect(throws: ResponseTemplate.Error.self) { try ResponseTemplate.permitSystemKeys(["("]) }
        try ResponseTemplate.permitSystemKeys(["pa.*"])
        defer { try? ResponseTemplate.permitSystemKeys([]) }
        #expect(try Self.render("{{systemValue key='PATH'}}").get() == (ProcessEnvironmentValue.named("PATH") ?? ""))
        #expect(try Self.render("{{systemValue key='HOME'}}").get() == "[ERROR: Access to HOME is denied]")
        #expect(try Self.render("{{systemValue key='path' type='PROPERTY'}}").get() == "")
    }
}
