import AutomationSupport
import XMLSupport

// MARK: - Checks at load: a helper's literals read by the same readers that read request values when answering

extension ResponseTemplate.Parser {
    typealias RenderError = ResponseTemplate.RenderError
    typealias Error = ResponseTemplate.Error

    /// Refuses at load what a helper could never use: an unknown option, a literal out of its range, a pattern
    /// (JSONPath, regular expression, date) it cannot read, a time zone that does not exist, a helper given the
    /// wrong number of values.
    static func checkLiterals(
        _ helper: String, _ arguments: [ResponseTemplate.Expression], _ options: [String: ResponseTemplate.Expression], section: Bool
    )
        throws(Error)
    {
        let allowed = ResponseTemplate.options[helper] ?? []
        if let name = options.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw Error(
                "{{\(helper) \(name)=…}}: \(helper) takes no option \(name)"
                    + (allowed.isEmpty ? "" : "; it takes \(allowed.sorted().joined(separator: ", "))"))
        }
        let literals = arguments.map(literal)
        let named = options.mapValues(literal)
        do throws(RenderError) {
            try checkCounts(helper, arguments.count, section: section)
            try checkValues(helper, literals, named)
            try checkDates(helper, literals, named)
        } catch {
            throw Error(String(error.description.dropFirst("template: ".count)))
        }
    }

    /// A literal's text, or nil for a value known only when answering.
    private static func literal(_ expression: ResponseTemplate.Expression?) -> String? {
        if case .literal(let value)? = expression { return ResponseTemplate.scalarText(of: value) }
        return nil
    }

    /// How many values each helper takes.
    private static func checkCounts(_ helper: String, _ count: Int, section: Bool) throws(RenderError) {
        let needs: (Int, Int, String)?
        switch helper {
        case "jsonPath": needs = (2, 2, "a value and a path, like {{jsonPath request.body '$.id'}}")
        case "xPath", "soapXPath": needs = (2, 2, "a value and an XPath expression, like {{\(helper) request.body '/a/text()'}}")
        case "math": needs = (3, 3, "two operands and an operator, like {{math 3 '+' 2}}")
        case "regexExtract":
            needs = (2, 3, "a value, a regular expression and optionally a variable, like {{regexExtract request.body '[0-9]+'}}")
        case "matches": needs = (2, 2, "a value and a regular expression, like {{matches request.path '/a/.*'}}")
        case "range": needs = (2, 2, "a lower and an upper bound, like {{range 1 5}}")
        case "truncateDate": needs = (2, 2, "a date and a truncation, like {{truncateDate (now) 'first day of month'}}")
        case "abbreviate": needs = (2, 2, "a value and a width, like {{abbreviate request.body 20}}")
        case "join": needs = (2, Int.max, "values and the separator last, like {{join (array 'a' 'b') ', '}}")
        case "base64", "urlEncode", "trim", "toJson", "size", "parseDate": needs = section ? (0, 0, "only its block") : (1, 1, "one value")
        case "upper", "lower", "capitalize", "capitalizeFirst": needs = (1, 2, "a value (and the text for a missing one)")
        case "date": needs = (0, 1, "a date, like {{date (parseDate request.query.d) offset='1 days'}}")
        case "formData": needs = (1, 2, "a value and optionally a variable, like {{formData request.body 'form'}}")
        case "parseJson": needs = section ? (0, 1, "optionally a variable") : (0, 2, "a value and optionally a variable")
        case "jsonMerge": needs = section ? (1, 1, "the base JSON") : (2, 2, "the base JSON and the JSON to merge")
        case "assign": needs = (1, 1, "the variable's name")
        case "now", "hostname", "randomValue", "randomInt", "randomDecimal", "systemValue": needs = (0, 0, "options only")
        default: needs = nil
        }
        guard let (least, most, what) = needs, count < least || count > most else { return }
        throw .value("{{\(section ? "#" : "")\(helper)}} takes \(what) (\(count) given)")
    }

    private static func checkValues(_ helper: String, _ arguments: [String?], _ options: [String: String?]) throws(RenderError) {
        switch helper {
        case "randomValue":
            if let length = options["length"] ?? nil { _ = try ResponseTemplate.randomLength(length) }
            if let type = options["type"] ?? nil { try ResponseTemplate.checkRandomType(type) }
        case "jsonPath":
            if let path = arguments[1] { _ = try ResponseTemplate.compiledPath(path) }
        case "xPath", "soapXPath":
            // libxml2 is loaded when the template loads: a machine without it refuses the mapping, never a 500 per answer.
            if let reason = XML.unavailableReason { throw .value("{{\(helper)}} needs libxml2: \(reason)") }
        case "math":
            if let operation = arguments[1], !ResponseTemplate.mathOperators.contains(operation) {
                throw .value("{{math}}: '\(operation)' is not an operator; write + - * / or %")
            }
            if let divisor = arguments[2], ["/", "%"].contains(arguments[1] ?? ""), JavaDecimal(divisor)?.unscaled == 0 {
                throw .value("{{math … '\(arguments[1] ?? "")' \(divisor)}}: division by zero")
            }
        case "randomInt", "randomDecimal":
            let bounds = ["lower", "upper"].map {
                (options[$0] ?? nil).flatMap {
                    BoundedNumber.decimal($0, in: -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude)
                }
            }
            for name in ["lower", "upper"] where (options[name] ?? nil) != nil && bounds[name == "lower" ? 0 : 1] == nil {
                throw .value("{{\(helper) \(name)=…}}: '\((options[name] ?? nil) ?? "")' is not a number")
            }
            if let lower = bounds[0], let upper = bounds[1], lower >= upper { throw .value("{{\(helper)}}: lower must be below upper") }
        case "regexExtract", "matches":
            if let pattern = arguments[1] { try checkRegex(pattern, helper) }
        case "abbreviate":
            if let width = arguments[1] { _ = try ResponseTemplate.abbreviationWidth(width) }
        case "urlEncode", "formData":
            if let encoding = options["encoding"] ?? nil { try ResponseTemplate.checkEncoding(encoding, helper) }
        case "systemValue":
            if let type = options["type"] ?? nil, type != "ENVIRONMENT", type != "PROPERTY" {
                throw .value("{{systemValue type='\(type)'}}: write ENVIRONMENT or PROPERTY")
            }
        default: break
        }
    }

    /// A regular expression as the helper will run it: refused when Java would refuse it, or when it needs what
    /// this engine does not run (backreferences, lookaround).
    private static func checkRegex(_ pattern: String, _ helper: String) throws(RenderError) {
        do {
            _ = try RegexBox(pattern)
        } catch {
            throw .value("{{\(helper)}}: /\(pattern.prefix(80))/: \(String(describing: error).prefix(200))")
        }
    }

    private static func checkDates(_ helper: String, _ arguments: [String?], _ options: [String: String?]) throws(RenderError) {
        switch helper {
        case "now", "date":
            if let format = options["format"] ?? nil { _ = try ResponseTemplate.simplePattern(format, at: helper) }
            if let zone = options["timezone"] ?? nil { _ = try ResponseTemplate.zone(zone, at: helper) }
            if let offset = options["offset"] ?? nil, let shift = try ResponseTemplate.dateOffset(offset, at: helper),
                shift.applied(to: Int(WallClock.milliseconds())) == nil
            {
                throw .value(
                    "{{\(helper) offset='\(offset.prefix(40))'}}: the date would be out of the range handled (years -271821 to 275760)")
            }
        case "parseDate":
            if let format = options["format"] ?? nil, !["epoch", "unix"].contains(format.lowercased()) {
                _ = try ResponseTemplate.modernPattern(format, at: helper)
            }
        case "dateFormat":
            if let format = arguments.count > 1 ? arguments[1] : options["format"] ?? nil {
                _ = try ResponseTemplate.dateFormatPattern(format, time: options["time"] ?? nil)
            }
            if let locale = arguments.count > 2 ? arguments[2] : options["locale"] ?? nil { try ResponseTemplate.checkLocale(locale) }
            if let zone = options["tz"] ?? nil, TimeZoneRules.javaTimeZone(zone) == nil {
                throw .value("{{dateFormat tz='\(zone.prefix(60))'}}: unknown time zone (Java would silently print it in GMT)")
            }
        case "truncateDate":
            if arguments.count > 1, let name = arguments[1] { _ = try ResponseTemplate.truncation(name) }
        default: break
        }
    }
}

// MARK: - Reading helper values (at load for literals, when answering for request values)

extension ResponseTemplate {
    static let mathOperators: Set<String> = ["+", "-", "*", "x", "/", "%"]

    /// `randomValue length=`: a whole number in ``randomLengths``.
    static func randomLength(_ text: String) throws(RenderError) -> Int {
        do {
            return try BoundedNumber.requireInteger(text, in: randomLengths)
        } catch {
            throw .value("{{randomValue length=…}}: \(error)")
        }
    }

    static func checkRandomType(_ type: String) throws(RenderError) {
        guard randomTypes.contains(type) else {
            throw .value(
                "{{randomValue type='\(type.prefix(40))'}} is not supported; types: \(randomTypes.sorted().joined(separator: ", "))")
        }
    }

    /// `abbreviate`'s width: at least 4 (three of them the `...`), as Commons Lang requires.
    static func abbreviationWidth(_ text: String) throws(RenderError) -> Int {
        do {
            return try BoundedNumber.requireInteger(text, in: 4...Int(Int32.max))
        } catch {
            throw .value("{{abbreviate}}: the width \(error) (WireMock: Minimum abbreviation width is 4)")
        }
    }

    /// `encoding=`: UTF-8 only.
    static func checkEncoding(_ encoding: String, _ helper: String) throws(RenderError) {
        guard ["utf-8", "utf8"].contains(encoding.lowercased()) else {
            throw .value("{{\(helper) encoding='\(encoding.prefix(40))'}} is not supported; only UTF-8")
        }
    }

    static func compiledPath(_ text: String) throws(RenderError) -> JSONPath {
        do {
            return try JSONPath(text)
        } catch {
            throw .value("{{jsonPath}}: \(String(error.description.prefix(300)))")
        }
    }
}
