import AutomationSupport

/// A templated proxying mapping's `proxyBaseUrl` and `additionalProxyRequestHeaders` values, compiled at load and
/// rendered per request with the request's model, as WireMock 2.35 renders them (r11 R11-6: they were forwarded as
/// written, `GET /{{request.query.x}}/q`). What they render to is checked as at load (the backend URL as
/// ``UpstreamTarget`` reads one, a header value for CR, LF, NUL…): a rendering that does not pass answers a named 500
/// and nothing is forwarded.
struct ProxyTemplates: Sendable {
    /// The longest rendered backend URL or added header value: 16 KiB, as far as common servers read a request line or
    /// a field (nginx's large buffers hold 8 KiB a line; Node's whole head is 16 KiB).
    static let maxRenderedBytes = 16 * 1024
    var base: ResponseTemplate?
    /// Each templated header value's template, by the value's text.
    var headers: [String: ResponseTemplate] = [:]

    /// Nil when none of the rule's values holds a template.
    init?(_ rule: ProxyRule) throws(ResponseTemplate.Error) {
        if rule.baseText.contains("{{") { base = try ResponseTemplate(rule.baseText) }
        for header in rule.additionalHeaders where header.value.contains("{{") && headers[header.value] == nil {
            headers[header.value] = try ResponseTemplate(header.value)
        }
        if base == nil && headers.isEmpty { return nil }
    }

    /// Renders `rule`'s templated values in place, in `context`'s budget; the answer refusing the request instead (a
    /// rendering that cannot be sent is a 500), nil when it may be forwarded. A request value a helper cannot use (400)
    /// or a spent budget (500) is thrown.
    func render(_ rule: inout ProxyRule, _ context: inout ResponseTemplate.RenderContext) throws(ResponseTemplate.RenderError)
        -> MockResponse?
    {
        if let base {
            let text = try base.render(&context)
            // r13 R13-8: a request value made a 3 MB URL, quoted whole in stderr, the report and the answer.
            guard text.utf8.count <= Self.maxRenderedBytes else {
                return .unanswered(
                    "sut-launch did not forward this request: proxyBaseUrl rendered to \(text.utf8.count) bytes "
                        + "(the limit is \(Self.maxRenderedBytes))", status: 500)
            }
            do { rule.target = try UpstreamTarget(text) } catch {
                return .unanswered("sut-launch did not forward this request: proxyBaseUrl rendered to \(error)", status: 500)
            }
        }
        for index in rule.additionalHeaders.indices {
            guard let template = headers[rule.additionalHeaders[index].value] else { continue }
            let value = try template.render(&context)
            guard value.utf8.count <= Self.maxRenderedBytes else {
                return .unanswered(
                    "sut-launch did not forward this request: additionalProxyRequestHeaders "
                        + "\(HTTPField.quoted(rule.additionalHeaders[index].name)) rendered to \(value.utf8.count) bytes "
                        + "(the limit is \(Self.maxRenderedBytes))", status: 500)
            }
            guard HTTPField.isValidValue(value) else {
                let name = HTTPField.quoted(rule.additionalHeaders[index].name)
                return .unanswered(
                    "sut-launch did not forward this request: additionalProxyRequestHeaders \(name) rendered to "
                        + "\(HTTPField.quoted(value)): it \(HTTPField.badByte(in: value).replacingOccurrences(of: "response head", with: "request head"))",
                    status: 500)
            }
            rule.additionalHeaders[index].value = value
        }
        return nil
    }
}
