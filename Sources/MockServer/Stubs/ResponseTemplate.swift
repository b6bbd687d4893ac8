import AutomationSupport

/// WireMock's response templating (`"transformers": ["response-template"]`, native `"template": true`): the
/// Handlebars WireMock 2.35 users write, with WireMock's and Handlebars.java's helpers and their output formats,
/// compiled once at load.
///
/// - Values: `{{request.url}}`, `{{request.path}}`, `{{request.pathSegments.[n]}}` (and 2.x's `{{request.path.[n]}}`),
///   `{{request.path.NAME}}` (urlPathTemplate), `{{request.query.NAME}}` (`.[n]` for a repeated one),
///   `{{request.headers.NAME}}`, `{{request.cookies.NAME}}`, `{{request.method}}`, `{{request.body}}`, and the
///   variables a helper assigns (`regexExtract`, `formData`, `parseJson`, `val assign=`, `#assign`).
/// - Helpers (+Helpers.swift and the files named for each group): `jsonPath`, `parseJson`, `toJson`, `jsonMerge`,
///   `array`, `val`, `size` (+JSONHelpers); `upper`, `lower`, `trim`, `capitalize`, `capitalizeFirst`,
///   `abbreviate`, `join`, `regexExtract`, `base64`, `urlEncode`, `formData` (+StringHelpers); `math`,
///   `randomValue`, `randomInt`, `randomDecimal`, `pickRandom`, `range` (+NumberHelpers); `now`, `date`,
///   `parseDate`, `dateFormat`, `truncateDate` (+DateHelpers); `hostname`, `systemValue`; the conditions `eq`,
///   `neq`, `gt`, `gte`, `lt`, `lte`, `and`, `or`, `not`, `contains`, `matches`; subexpressions `(helper …)`.
/// - Blocks: `{{#if}}`, `{{#unless}}`, `{{#each}}` (`this`, `@index`, `@first`, `@last`, `@key`, `as |item|`),
///   `{{#with}}`, every condition as a block, and the helpers that render their block first (`#base64`, `#trim`,
///   `#parseJson`, `#jsonMerge`, `#assign`).
/// - `{{value}}` is HTML-escaped as in Handlebars; `{{{value}}}` is not. `{{! comments }}` and `~` trimming.
/// Anything else is refused at load by name, and so is a literal a helper cannot use (`length=1e300`, a date
/// pattern letter Java refuses, an unknown time zone).
///
/// Trust: a template is rendered in one pass (a request value holding `{{` is text). Every number a helper
/// reads goes through `BoundedNumber`; a request value out of range makes that answer a 400 naming the helper
/// and the value. One answer (its body and header values together) has one budget: 2,000,000 steps (nodes
/// and loop turns), 16 MiB of output, and 64 Mi units of work (bytes and JSON values that helpers,
/// `jsonPath` and printing touch, regular expression steps, each step and helper call), calibrated so that a unit
/// is ~15 ns of a release build's CPU (scripts/bench-template.sh); spending it makes the answer a 500 naming the budget,
/// never a truncated body or a thread spinning after its client left. The body is parsed once per answer however
/// many `jsonPath`s read it. Dates stay within ±8.64e15 ms of 1970 (offsets of any size are refused beyond), so
/// calendar arithmetic cannot overflow.
package struct ResponseTemplate: Sendable {
    package struct Error: Swift.Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = "template: " + description }
    }

    /// Why one answer could not be rendered: a request value a helper cannot use (400), or the answer's
    /// budget spent (500). The server answers with it and goes on.
    package struct RenderError: Swift.Error, CustomStringConvertible {
        package let status: Int
        package let description: String

        /// `template: {{randomValue length=…}}: 'nan' is not a whole number from 0 to 10000`.
        static func value(_ message: String) -> RenderError {
            RenderError(status: 400, description: "template: " + message)
        }

        /// `template: this answer would spend more than the work (…) budget of one answer (at {{jsonPath}}); …`.
        static func budget(_ budget: String, at helper: String) -> RenderError {
            let place = helper == "text" || helper == "output" ? helper : "{{\(helper)}}"
            return RenderError(
                status: 500,
                description:
                    "template: this answer would spend more than the \(budget) budget of one answer (at \(place)); the template does too much work over this request"
            )
        }
    }

    indirect enum Node: Sendable {
        case text(String)
        case value(Expression, escaped: Bool)
        case block(name: String, expression: Expression, parameters: [String], body: [Node], inverse: [Node])
    }

    indirect enum Expression: Sendable {
        case path([String])
        case literal(Value)
        case call(String, [Expression], [String: Expression])
    }

    /// What an expression evaluates to. The request's method, path and multi-valued parts are objects of
    /// their own, as in WireMock (Java): they print as text but are not equal to a string (`{{#eq
    /// request.method 'POST'}}` is false there, and here); `.[0]` of a query value is a string.
    enum Value: Sendable {
        case null
        case bool(Bool)
        /// A Java Integer or Long (`1`, `@index`, `math`'s whole results): prints its digits.
        case integer(Int)
        /// A Java Double (`1.5`, `math`'s other results, `randomDecimal`): prints as Java does (`3.0`, `1.5E7`).
        case real(Double)
        case string(String)
        /// What `jsonPath` found: prints as JSON (objects as Jackson pretty-prints them).
        case json(JSONNode)
        /// A Java list (`array`, `range`, `parseJson`'s arrays): prints as `[a, b]`.
        case list([Value])
        /// A Java map (`parseJson`'s objects, `formData`): prints as `{a=1, b=x}`.
        case map([(key: String, value: Value)])
        /// A query parameter, a header, a form field, `regexExtract`'s groups: prints its first value; `size`
        /// counts them; `#each` walks them.
        case multi([String])
        case method(String)
        /// The request path: prints as the path; `size` counts its segments; `.[n]` is one.
        case requestPath(String)
        /// WireMock's RenderableDate (`now`, `date`, `parseDate`, `truncateDate`): prints in its format and zone.
        case date(TemplateDate)
    }

    /// A date as WireMock's helpers pass it along: the instant, how it prints (ISO 8601 when nil, `epoch`, `unix`,
    /// or a SimpleDateFormat pattern) and the zone it prints in (UTC when nil, the zone WireMock's JVM runs in).
    struct TemplateDate: Sendable {
        var milliseconds: Int
        var format: String?
        var pattern: JavaDatePattern?
        var zone: TimeZoneRules?
    }

    static let valueHelpers: Set<String> = [
        "jsonPath", "randomValue", "now", "upper", "lower", "trim", "size", "math", "date", "parseDate", "dateFormat",
        "truncateDate", "randomInt", "randomDecimal", "pickRandom", "range", "array", "regexExtract", "base64", "urlEncode",
        "formData", "abbreviate", "capitalize", "capitalizeFirst", "join", "val", "parseJson", "toJson", "jsonMerge",
        "hostname", "systemValue", "xPath", "soapXPath",
    ]
    /// The named options each helper takes; any other is refused at load.
    static let options: [String: Set<String>] = [
        "randomValue": ["length", "type", "uppercase"], "now": ["format", "offset", "timezone"],
        "date": ["format", "offset", "timezone"], "parseDate": ["format"], "dateFormat": ["format", "tz", "time", "locale"],
        "randomInt": ["lower", "upper"], "randomDecimal": ["lower", "upper"], "regexExtract": ["default"],
        "base64": ["decode", "padding"], "urlEncode": ["decode", "encoding"], "formData": ["urlDecode", "encoding"],
        "capitalize": ["fully"], "join": ["prefix", "suffix"], "val": ["or", "default", "assign"], "jsonMerge": ["removeNulls"],
        "systemValue": ["key", "type"],
    ]
    /// Helpers WireMock 2.35 does not have, or not here yet, refused by name with what to write instead.
    static let refused: [String: String] = [
        "formatDate":
            "WireMock has no formatDate helper; Handlebars' is dateFormat: {{dateFormat (parseDate request.query.d) 'yyyy-MM-dd'}}",
        "split": "WireMock has no split helper; use regexExtract with a variable, or formData for key=value text",
    ]
    static let randomTypes: Set<String> = ["ALPHANUMERIC", "NUMERIC", "ALPHABETIC", "ALPHANUMERIC_AND_SYMBOLS", "HEXADECIMAL", "UUID"]
    /// `randomValue length=`: what one value may be (WireMock sets no bound; a longer one is an output bomb).
    static let randomLengths = 0...10_000
    /// `.[n]` on a value: a position in a list, at most this.
    static let maxPosition = Int(Int32.max)
    static let conditions: Set<String> = ["eq", "neq", "gt", "gte", "lt", "lte", "and", "or", "not", "contains", "matches"]
    static let blocks: Set<String> = ["if", "unless", "each", "with"]
    /// Helpers whose block is rendered first and handed to them (`{{#base64}}text{{/base64}}`).
    static let sectionHelpers: Set<String> = ["base64", "trim", "parseJson", "jsonMerge", "assign"]
    static let maxDepth = 32
    static let maxOutputBytes = 16 << 20
    /// Nodes rendered and loop turns taken per answer: `{{#each}}` inside `{{#each}}` over a client's 16 MiB
    /// array must not hold a connection's thread for hours.
    static let maxSteps = 2_000_000
    /// Units of work per answer: a byte read, compared, converted or printed is one; a JSON value a `jsonPath`
    /// visits is ``jsonNodeCost``; a step ``stepCost``, a helper call ``callCost``. Under a second of CPU in a
    /// release build (a unit 3-8 ns: 0.2 to 0.5 s for the worst shapes of scripts/bench-template.sh), 5 to 70 times
    /// that in a debug build.
    static let maxWork = 64 << 20
    /// CPU time measured (an XPath evaluation) converted to work: 15 ns a unit, the work budget about a second.
    static let cpuNanosecondsPerUnit = 15
    static let jsonNodeCost = 48
    /// Units per byte parsed as JSON.
    static let parseCost = 4
    /// Units per byte of JSON printed.
    static let printCost = 4

    let nodes: [Node]

    /// Compiles `source` (ResponseTemplate+Parsing.swift); ``render(_:)`` answers with it (+Evaluating.swift).
    package init(_ source: String) throws(Error) {
        nodes = try Parser(source).parse()
    }

    /// What the budgets are called in messages.
    static let stepBudget = "step (2,000,000 nodes and loop turns)"
    static let outputBudget = "output (16 MiB)"
    static let workBudget = "work (64 Mi units: bytes and JSON values helpers touch)"
    /// Units a Value a helper builds costs (a list element, a map entry): memory, not only time.
    static let valueCost = 64
    /// Units per step of the regular expression engine (a thread at a position): one is dearer than a byte copied.
    static let regexStepCost = 8
    /// Units per step of the engine that records groups (`regexExtract`): a step copies capture slots, up to 47 ns
    /// in a release build (`[0-9]*z` over 1,000 digits that never match: 188 µs for 4,004 steps), where the loop
    /// of scripts/bench-template.sh spends ~3 ns a unit; charged as the plain step, one answer took 2.5 times the
    /// loop's CPU (r7a F5).
    static let regexGroupStepCost = 16
    /// CPU nanoseconds per unit `regexExtract`, `randomValue` and text helpers over long text are charged at least
    /// (their CPU measured, ``ThreadCPUClock``, ``Renderer/chargingCPU(at:_:)``): twice the
    /// ~3 ns a unit of the loop in scripts/bench-template.sh, so no `regexExtract` answer costs more than about twice
    /// the loop's CPU (the doc allows the dearest shape 2.5 times).
    static let regexCPUNanosecondsPerUnit = 6
    /// Units a date helper costs besides its text: calendar fields, a zone's offset, a pattern walked.
    static let dateCost = 512
    /// Units each step (a node rendered, a loop turn) costs besides the helpers it calls: a scope pushed, text
    /// appended, a value looked up (a step took 135 to 345 ns in a release build, scripts/bench-template.sh).
    static let stepCost = 24
    /// Units each helper call costs besides the bytes and values it touches: its arguments evaluated into arrays,
    /// its name dispatched, its result built (`hostname`, `math`: 0.7 to 0.8 µs a call).
    static let callCost = 96
    /// Units a draw from the system's random source costs (a getrandom call: `randomInt`, `pickRandom`, a UUID).
    static let randomCost = 128
    /// Units per character `randomValue` draws (half a 64-bit draw and a byte stored: ~2 ns in a release build); it is
    /// charged at least its CPU besides, at ``regexCPUNanosecondsPerUnit``.
    static let randomCharacterCost = 2
    /// Text from this many bytes up is timed when a text helper reads it (``Renderer/chargingCPU(at:_:)``).
    static let timedTextBytes = 64
    /// Units per byte of XML libxml2 parses for `xPath` and `soapXPath` (a tree built: ~120 ns a byte of small
    /// elements).
    static let xmlParseCost = 12
    /// Units a lookup of a request value costs (`request.query.NAME`, `request.headers.NAME`, a path segment):
    /// the list filtered, the values copied.
    static let lookupCost = 64
    /// Units per byte of a pattern or JSONPath compiled (at most ``Renderer/maxRegexes`` of each kept per answer).
    static let compileCost = 64

    /// The helpers and blocks, for messages.
    static var supported: String {
        "values like {{request.path}}, the helpers \((valueHelpers.union(conditions)).sorted().joined(separator: ", ")) and the blocks #if, #unless, #each, #with, #\(sectionHelpers.sorted().joined(separator: ", #"))"
    }
}
