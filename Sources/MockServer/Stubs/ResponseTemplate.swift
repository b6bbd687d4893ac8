import AutomationSupport

/// WireMock's response templating (`"transformers": ["response-template"]`, native `"template": true`): the
/// Handlebars subset WireMock users write, compiled once at load.
///
/// - Values: `{{request.url}}`, `{{request.path}}`, `{{request.pathSegments.[n]}}` (and 2.x's `{{request.path.[n]}}`),
///   `{{request.path.NAME}}` (urlPathTemplate), `{{request.query.NAME}}` (`.[n]` for a repeated one),
///   `{{request.headers.NAME}}`, `{{request.cookies.NAME}}`, `{{request.method}}`, `{{request.body}}`.
/// - Helpers: `jsonPath`, `randomValue` (`length` 0…10,000, `type` ALPHANUMERIC, NUMERIC, ALPHABETIC, HEXADECIMAL,
///   UUID, `uppercase`), `now` (ISO 8601; `format='epoch'|'unix'`, `offset='3 days'`), `upper`, `lower`, `trim`,
///   `size`, and the conditions `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `and`, `or`, `not`, `contains`;
///   subexpressions `(helper …)`.
/// - Blocks: `{{#if}}`, `{{#unless}}`, `{{#each}}` (`this`, `@index`, `@first`, `@last`, `@key`, `as |item|`),
///   `{{#with}}`, and every condition as a block (`{{#eq request.method 'POST'}}…{{else}}…{{/eq}}`).
/// - `{{value}}` is HTML-escaped as in Handlebars; `{{{value}}}` is not. `{{! comments }}` and `~` trimming.
/// Anything else is refused at load by name, and so is a literal a helper cannot use (`length=1e300`).
///
/// Trust: a template is rendered in one pass (a request value holding `{{` is text). Every number a helper
/// reads goes through `BoundedNumber`; a request value out of range makes that answer a 400 naming the helper
/// and the value. One answer (its body and header values together) has one budget: 2,000,000 steps (nodes
/// and loop turns), 16 MiB of output, and 64 Mi units of helper work (bytes and JSON values that helpers,
/// `jsonPath` and printing touch); spending it makes the answer a 500 naming the budget, never a truncated
/// body or a thread spinning after its client left. The body is parsed once per answer however many
/// `jsonPath`s read it.
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
        case number(Double)
        case string(String)
        case json(JSONNode)
        case list([Value])
        /// A query parameter or header: prints its first value; `size` counts them; `#each` walks them.
        case multi([String])
        case method(String)
        /// The request path: prints as the path; `size` counts its segments; `.[n]` is one.
        case requestPath(String)
    }

    static let valueHelpers: Set<String> = ["jsonPath", "randomValue", "now", "upper", "lower", "trim", "size"]
    /// The named options each helper takes; any other is refused at load.
    static let options: [String: Set<String>] = ["randomValue": ["length", "type", "uppercase"], "now": ["format", "offset"]]
    static let randomTypes: Set<String> = ["ALPHANUMERIC", "NUMERIC", "ALPHABETIC", "HEXADECIMAL", "UUID"]
    /// `randomValue length=`: what one value may be (WireMock sets no bound; a longer one is an output bomb).
    static let randomLengths = 0...10_000
    /// `.[n]` on a value: a position in a list, at most this.
    static let maxPosition = Int(Int32.max)
    static let conditions: Set<String> = ["eq", "neq", "gt", "gte", "lt", "lte", "and", "or", "not", "contains"]
    static let blocks: Set<String> = ["if", "unless", "each", "with"]
    static let maxDepth = 32
    static let maxOutputBytes = 16 << 20
    /// Nodes rendered and loop turns taken per answer: `{{#each}}` inside `{{#each}}` over a client's 16 MiB
    /// array must not hold a connection's thread for hours.
    static let maxSteps = 2_000_000
    /// Units of helper work per answer: a byte read, compared, converted or printed is one; a JSON value a
    /// `jsonPath` visits is ``jsonNodeCost``. About a second of work in a debug build, a fraction in release.
    static let maxWork = 64 << 20
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

    /// The helpers and blocks, for messages.
    static var supported: String {
        "values like {{request.path}}, the helpers \((valueHelpers.union(conditions)).sorted().joined(separator: ", ")) and the blocks #if, #unless, #each, #with"
    }
}
