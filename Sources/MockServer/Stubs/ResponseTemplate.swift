import AutomationSupport

/// WireMock's response templating (`"transformers": ["response-template"]`, native `"template": true`): the
/// Handlebars subset WireMock users write, compiled once at load.
///
/// - Values: `{{request.url}}`, `{{request.path}}`, `{{request.pathSegments.[n]}}` (and 2.x's `{{request.path.[n]}}`),
///   `{{request.path.NAME}}` (urlPathTemplate), `{{request.query.NAME}}` (`.[n]` for a repeated one),
///   `{{request.headers.NAME}}`, `{{request.cookies.NAME}}`, `{{request.method}}`, `{{request.body}}`.
/// - Helpers: `jsonPath`, `randomValue` (`length`, `type` ALPHANUMERIC, NUMERIC, ALPHABETIC, HEXADECIMAL, UUID),
///   `now` (ISO 8601; `format='epoch'|'unix'`, `offset='3 days'`), `upper`, `lower`, `trim`, `size`, and the
///   conditions `eq`, `neq`, `gt`, `gte`, `lt`, `lte`, `and`, `or`, `not`, `contains`; subexpressions `(helper …)`.
/// - Blocks: `{{#if}}`, `{{#unless}}`, `{{#each}}` (`this`, `@index`, `@first`, `@last`, `@key`, `as |item|`),
///   `{{#with}}`, and every condition as a block (`{{#eq request.method 'POST'}}…{{else}}…{{/eq}}`).
/// - `{{value}}` is HTML-escaped as in Handlebars; `{{{value}}}` is not. `{{! comments }}` and `~` trimming.
/// Anything else is refused at load by name. Nesting is at most 32 deep; a rendering stops at 16 MiB or after
/// 2,000,000 steps (nodes and loop turns), and parses the request body once however many `jsonPath`s read it.
package struct ResponseTemplate: Sendable {
    package struct Error: Swift.Error, CustomStringConvertible {
        package let description: String
        init(_ description: String) { self.description = "template: " + description }
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
    static let conditions: Set<String> = ["eq", "neq", "gt", "gte", "lt", "lte", "and", "or", "not", "contains"]
    static let blocks: Set<String> = ["if", "unless", "each", "with"]
    static let maxDepth = 32
    static let maxOutputBytes = 16 << 20
    /// Nodes rendered and loop turns taken per answer: `{{#each}}` inside `{{#each}}` over a client's 16 MiB
    /// array must not hold a connection's thread for hours.
    static let maxSteps = 2_000_000

    let nodes: [Node]

    /// Compiles `source` (ResponseTemplate+Parsing.swift); ``render(_:)`` answers with it (+Evaluating.swift).
    package init(_ source: String) throws(Error) {
        nodes = try Parser(source).parse()
    }

    /// The helpers and blocks, for messages.
    static var supported: String {
        "values like {{request.path}}, the helpers \((valueHelpers.union(conditions)).sorted().joined(separator: ", ")) and the blocks #if, #unless, #each, #with"
    }
}
