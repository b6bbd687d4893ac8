import AutomationSupport

/// WireMock's response templating (`"transformers": ["response-template"]`), the Handlebars subset its users
/// write most, compiled once at load: `{{request.url}}`, `{{request.path}}`, `{{request.pathSegments.[n]}}` (and 2.x's `{{request.path.[n]}}`),
/// `{{request.path.NAME}}` (urlPathTemplate), `{{request.query.NAME}}`, `{{request.headers.NAME}}`,
/// `{{request.cookies.NAME}}`, `{{request.method}}`, `{{request.body}}`, `{{jsonPath request.body '$.a.b'}}`,
/// `{{randomValue length=8 type='ALPHANUMERIC'}}` (also NUMERIC, ALPHABETIC, HEXADECIMAL, UUID),
/// `{{now}}` (ISO 8601; `format='epoch'` or `'unix'`, `offset='3 days'`), `{{upper x}}`, `{{lower x}}`,
/// `{{trim x}}`, `{{size x}}`. Anything else (block helpers, other helpers) is refused at load by name.
package struct ResponseTemplate: Sendable {
    enum Part: Sendable {
        case text(String)
        case expression(helper: String?, arguments: [Argument], options: [String: Argument])
    }

    enum Argument: Sendable {
        case path([String])
        case literal(String)
    }

    package struct Error: Swift.Error, CustomStringConvertible {
        package let description: String
    }

    static let helpers: Set<String> = ["jsonPath", "randomValue", "now", "upper", "lower", "trim", "size"]

    let parts: [Part]

    package init(_ source: String) throws(Error) {
        var parts: [Part] = []
        var rest = Substring(source)
        while let open = rest.firstRange(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            var inside = rest[open.upperBound...]
            let triple = inside.hasPrefix("{")
            if triple { inside = inside.dropFirst() }
            guard let close = inside.firstRange(of: triple ? "}}}" : "}}") else { throw Error(description: "template: {{ without }}") }
            let expression = inside[..<close.lowerBound].trimmingSpaces()
            parts.append(try Self.expression(expression))
            rest = inside[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        self.parts = parts
    }

    private static func expression(_ text: String) throws(Error) -> Part {
        if text.hasPrefix("#") || text.hasPrefix("/") || text == "else" || text.hasPrefix("else ") {
            throw Error(description: "template: block helpers like {{\(text)}} are not supported; values and the helpers \(helpers.sorted().joined(separator: ", ")) are")
        }
        let tokens = try words(text)
        guard let first = tokens.first else { throw Error(description: "template: an empty {{}}") }
        if helpers.contains(first) {
            var arguments: [Argument] = []
            var options: [String: Argument] = [:]
            for token in tokens.dropFirst() {
                if let equals = token.firstIndex(of: "="), !token.hasPrefix("'"), !token.hasPrefix("\"") {
                    options[String(token[..<equals])] = argument(String(token[token.index(after: equals)...]))
                } else {
                    arguments.append(argument(token))
                }
            }
            if first == "now", let format = options["format"], case .literal(let value) = format, value != "epoch" && value != "unix" {
                throw Error(description: "template: {{now format='\(value)'}} is not supported; use no format (ISO 8601), 'epoch' or 'unix'")
            }
            if first == "now", let offset = options["offset"], case .literal(let value) = offset, offsetMilliseconds(value) == nil {
                throw Error(description: "template: {{now offset='\(value)'}} is not supported; write an amount and a unit like '3 days' or '-2 hours' (within 100 years)")
            }
            return .expression(helper: first, arguments: arguments, options: options)
        }
        guard tokens.count == 1, first.hasPrefix("request.") || first == "request" else {
            throw Error(description: "template: {{\(text)}} is not supported; write a request value like {{request.path}} or one of the helpers \(helpers.sorted().joined(separator: ", "))")
        }
        return .expression(helper: nil, arguments: [argument(first)], options: [:])
    }

    private static func argument(_ token: String) -> Argument {
        if (token.hasPrefix("'") && token.hasSuffix("'")) || (token.hasPrefix("\"") && token.hasSuffix("\"")), token.count >= 2 {
            return .literal(String(token.dropFirst().dropLast()))
        }
        if token.hasPrefix("request") {
            return .path(token.split(separator: ".").map { part in
                let text = String(part)
                return text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
            })
        }
        return .literal(token)
    }

    private static func words(_ text: String) throws(Error) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                word.append(character)
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" {
                quote = character
                word.append(character)
            } else if character == " " {
                if !word.isEmpty { words.append(word); word = "" }
            } else {
                word.append(character)
            }
        }
        if quote != nil { throw Error(description: "template: unterminated quote in {{\(text)}}") }
        if !word.isEmpty { words.append(word) }
        return words
    }

    /// `'3 days'`, `'-2 hours'`: whole amounts of seconds … weeks, at most 100 years either way.
    static func offsetMilliseconds(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        let units: [String: Double] = ["second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600,
                                       "day": 86_400, "days": 86_400, "week": 604_800, "weeks": 604_800]
        guard parts.count == 2, let amount = Int(parts[0]), let unit = units[String(parts[1]).lowercased()] else { return nil }
        let shift = Double(amount) * unit * 1000
        return abs(shift) <= 100 * 365.25 * 86_400_000 ? shift : nil
    }

    // MARK: Rendering

    package func render(_ request: HTTPRequest) -> String {
        var output = ""
        for part in parts {
            switch part {
            case .text(let text): output += text
            case .expression(let helper, let arguments, let options):
                output += Self.evaluate(helper, arguments, options, request)
            }
        }
        return output
    }

    private static func value(_ argument: Argument?, _ request: HTTPRequest) -> String {
        guard let argument else { return "" }
        switch argument {
        case .literal(let text): return text
        case .path(let path):
            guard path.first == "request", path.count >= 2 else { return "" }
            let key = path.count > 2 ? path[2] : ""
            switch path[1] {
            case "url": return request.target
            case "method": return request.method
            case "body": return request.bodyText
            case "path" where path.count == 2: return request.path
            // `request.path.[n]` is the n-th segment (WireMock 2.x), `request.path.name` a path parameter (3.x).
            case "path", "pathSegments":
                if let index = Int(key) {
                    let segments = request.path.split(separator: "/").map(String.init)
                    return segments.indices.contains(index) ? segments[index] : ""
                }
                return path[1] == "path" ? request.pathParameter(key) ?? "" : ""
            case "query": return request.query(key) ?? ""
            case "headers": return request.header(key) ?? ""
            case "cookies": return request.cookie(key) ?? ""
            default: return ""
            }
        }
    }

    private static func evaluate(_ helper: String?, _ arguments: [Argument], _ options: [String: Argument], _ request: HTTPRequest) -> String {
        let first = value(arguments.first, request)
        switch helper {
        case nil: return first
        case "upper": return first.uppercased()
        case "lower": return first.lowercased()
        case "trim": return first.trimmingSpaces()
        case "size": return "\(first.count)"
        case "jsonPath":
            guard let document = try? JSONParser.parse(first), let path = try? JSONPath(value(arguments.dropFirst().first, request)),
                  let found = path.evaluate(document).first else { return "" }
            return found.string ?? JSONWriter.write(found)
        case "randomValue":
            let length = Int(value(options["length"], request)) ?? 36
            let type = options["type"].map { value($0, request) } ?? "ALPHANUMERIC"
            if type == "UUID" {
                let hex = (0..<32).map { _ in String(Int.random(in: 0..<16), radix: 16) }
                let v4 = Array(hex[0..<12]) + ["4"] + Array(hex[13..<16]) + [String(Int.random(in: 8..<12), radix: 16)] + Array(hex[17..<32])
                return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { v4[$0].joined() }.joined(separator: "-")
            }
            let alphabet: String
            switch type {
            case "NUMERIC": alphabet = "0123456789"
            case "ALPHABETIC": alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
            case "HEXADECIMAL": alphabet = "0123456789abcdef"
            default: alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
            }
            let characters = Array(alphabet)
            return String((0..<max(0, min(length, 10_000))).map { _ in characters.randomElement()! })
        case "now":
            var milliseconds = WallClock.milliseconds()
            if case .literal(let offset)? = options["offset"], let shift = offsetMilliseconds(offset) {
                milliseconds = max(0, milliseconds + shift)
            }
            switch options["format"].map({ value($0, request) }) {
            case "epoch": return "\(Int(milliseconds))"
            case "unix": return "\(Int(milliseconds / 1000))"
            default:
                let iso = WallClock.iso8601(milliseconds: milliseconds)
                return String(iso.prefix(19)) + "Z"
            }
        default: return ""
        }
    }
}
