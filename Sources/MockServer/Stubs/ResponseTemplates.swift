import AutomationSupport

/// The templates of one response: its body and header values, compiled at load.
struct ResponseTemplates: Sendable {
    var body: ResponseTemplate?
    /// Each templated header value's template, by the value's text: every field holding it is rendered in its place
    /// (two values of one name each rendered: setting by name kept only the last).
    var headers: [String: ResponseTemplate] = [:]
    /// A proxying mapping's templated backend URL and added request headers.
    var proxy: ProxyTemplates?

    init(_ response: MockResponse, proxy rule: ProxyRule? = nil) throws(ResponseTemplate.Error) {
        if let rule { proxy = try ProxyTemplates(rule) }
        if let text = String(validating: response.body, as: UTF8.self), text.contains("{{") { body = try ResponseTemplate(text) }
        for header in response.headers.entries where header.value.contains("{{") && headers[header.value] == nil {
            headers[header.value] = try ResponseTemplate(header.value)
        }
    }

    /// The response rendered for `request`: body and header values share one budget. A request value a
    /// helper cannot use answers 400, a spent budget 500, each with a body that says which.
    func apply(to response: MockResponse, for request: HTTPRequest) -> MockResponse {
        var context = ResponseTemplate.RenderContext(request)
        var response = response
        do throws(ResponseTemplate.RenderError) {
            if let body { response.body = Array(try body.render(&context).utf8) }
            response.headers = try rendered(response.headers, &context)
            return response
        } catch {
            return .unanswered(error.description, status: error.status)
        }
    }

    /// `fields` with each templated value rendered in its place, in `context`'s budget.
    func rendered(_ fields: HTTPHeaders, _ context: inout ResponseTemplate.RenderContext) throws(ResponseTemplate.RenderError)
        -> HTTPHeaders
    {
        guard !headers.isEmpty else { return fields }
        var entries = fields.entries
        for index in entries.indices {
            guard let template = headers[entries[index].value] else { continue }
            entries[index].value = Self.fieldValue(try template.render(&context))
        }
        return HTTPHeaders(entries)
    }

    /// A rendered header value made fit for one header line: CR LF, CR, LF, NUL and the other control
    /// characters a field value may not hold (RFC 9110 5.5; tab may) each become a space, so a request value
    /// can neither end the line nor hide a byte a peer would cut at.
    static func fieldValue(_ text: String) -> String {
        let isControl = { (byte: UInt8) in (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        guard text.utf8.contains(where: isControl) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            defer { previous = byte }
            if byte == 0x0A && previous == 0x0D { continue } // CR LF is one break: one space
            bytes.append(isControl(byte) ? UInt8(ascii: " ") : byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
