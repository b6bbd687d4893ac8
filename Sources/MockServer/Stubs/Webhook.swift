#if canImport(FoundationEssentials)
import AutomationSupport
import FoundationEssentials
#else
import AutomationSupport
import Foundation
#endif

/// A WireMock webhook (`postServeActions`): after a mapping answers, an HTTP request to another service, templated
/// with the request that was answered (`{{originalRequest.body}}`). Plain HTTP to this machine only (127.0.0.0/8,
/// `::1`, `localhost`): a mock server never calls out to the network.
struct Webhook: Sendable {
    var method: String
    /// The URL, compiled when it holds `{{`; else checked at load.
    var url: String
    var urlTemplate: ResponseTemplate?
    /// Headers and body as a response's, so the response templating renders them (one budget).
    var message: MockResponse
    var templates: ResponseTemplates?
    var delay: DelayDistribution?

    /// Reads `postServeActions`: WireMock 3's list of `{"name": "webhook", "parameters": {...}}`, or 2.x's
    /// `{"webhook": {...}}`. Any other action is refused by name.
    static func parseActions(_ node: JSONNode, file: String) throws(StubError) -> [Webhook] {
        if let list = node.elements {
            var hooks: [Webhook] = []
            for action in list.prefix(100) {
                let reader = try ObjectReader(action, file: file, what: "a post-serve action")
                try reader.checkKeys(["name", "parameters"])
                guard try reader.string("name") == "webhook" else {
                    throw reader.error(
                        "name", "the post-serve action \"\(try reader.string("name") ?? "")\" is not supported; \"webhook\" is")
                }
                guard let parameters = try reader.object("parameters") else { throw reader.error("name", "a webhook needs \"parameters\"") }
                hooks.append(try parse(parameters))
            }
            return hooks
        }
        let reader = try ObjectReader(node, file: file, what: "postServeActions")
        try reader.checkKeys(["webhook"])
        guard let parameters = try reader.object("webhook") else { return [] }
        return [try parse(parameters)]
    }

    private static func parse(_ reader: ObjectReader) throws(StubError) -> Webhook {
        try reader.checkKeys(["method", "url", "headers", "body", "base64Body", "delay"])
        let method = (try reader.string("method") ?? "POST").uppercased()
        guard !method.isEmpty, method.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw reader.error("method", "a webhook's method is a word of letters, like POST")
        }
        guard let url = try reader.string("url") else { throw reader.error("method", "a webhook needs a \"url\"") }
        var hook = Webhook(method: method, url: url, message: MockResponse())
        do {
            if url.contains("{{") {
                hook.urlTemplate = try ResponseTemplate(originalRequestRenamed(url))
            } else if let problem = target(url).problem {
                throw reader.error("url", "webhook url \"\(url.prefix(120))\": \(problem)")
            }
            if let headers = try reader.object("headers") {
                for key in headers.keys {
                    if let problem = headerNameProblem(key) {
                        throw reader.error("headers", "webhook header \"\(key.prefix(60))\": \(problem)")
                    }
                    guard let value = headers[key] else { continue }
                    for element in value.elements ?? [value] {
                        hook.message.headers.add(key, originalRequestRenamed(element.string ?? JSONWriter.write(element)))
                    }
                }
            }
            if reader["body"] != nil && reader["base64Body"] != nil {
                throw reader.error("base64Body", "a webhook has one body, found body and base64Body")
            }
            if let body = try reader.string("body") {
                hook.message.body = Array(originalRequestRenamed(body).utf8)
            } else if let base64 = try reader.string("base64Body") {
                guard let data = Data(base64Encoded: base64) else { throw reader.error("base64Body", "base64Body is not valid base64") }
                hook.message.body = Array(data)
            }
            hook.templates = try ResponseTemplates(hook.message)
        } catch let error as ResponseTemplate.Error {
            throw reader.error("url", "webhook: \(error)")
        } catch let error as StubError {
            throw error
        } catch {
            throw reader.error("url", "webhook: \(error)")
        }
        if let delay = try reader.object("delay") { hook.delay = try DelayDistribution.parse(delay) }
        return hook
    }

    /// WireMock's webhook templates name the answered request `originalRequest`; here it is `request`.
    private static func originalRequestRenamed(_ text: String) -> String {
        text.replacingOccurrences(of: "originalRequest", with: "request")
    }

    /// Where `url` goes: address, port and origin-form target (`/` first, no fragment); or why it may not be called. The URL is one request-line token (no
    /// space or control character: a value rendered into it cannot add a line to the request), the host an address
    /// of this machine written as one (four numbers from 127, `[::1]`) or `localhost`.
    static func target(_ url: String) -> (host: String, port: UInt16, path: String, problem: String?) {
        if url.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return ("", 0, "", "a URL holds no space, line break or other control character")
        }
        guard url.lowercased().hasPrefix("http://") else {
            return ("", 0, "", "webhooks are sent over plain HTTP to this machine (http://127.0.0.1:PORT/...)")
        }
        let rest = url.dropFirst(7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let path = rest.dropFirst(authority.count)
        if authority.contains("@") { return ("", 0, "", "a webhook URL holds no userinfo") }
        let (host, port) = HTTPRequest.split(authority: authority)
        if port == nil, authority.contains(":"), !authority.hasSuffix("]") {
            return ("", 0, "", "the port is not a number from 1 to 65535")
        }
        let address = host == "localhost" ? "127.0.0.1" : host
        let octets = address.split(separator: ".", omittingEmptySubsequences: false)
        let loopbackIPv4 =
            octets.count == 4 && octets[0] == "127"
            && octets.allSatisfy { $0.count <= 3 && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (Int($0) ?? 256) <= 255 }
        guard loopbackIPv4 || address == "::1" else {
            return ("", 0, "", "webhooks go to this machine only (127.0.0.1, ::1, localhost), not \(host.prefix(80))")
        }
        // inet_pton, which sends it, reads no leading zero (`127.000.000.001` passed here and failed at send time).
        if octets.contains(where: { $0.count > 1 && $0.hasPrefix("0") }) {
            return ("", 0, "", "\(host.prefix(80)) has a number with a leading zero, which no address is written with: write it 127.0.0.1")
        }
        // The request-target is origin form: a fragment is never sent, and a bare query gets the root path (`?q` is
        // `/?q`), as Apache HttpClient (WireMock's) sends them.
        let sent = path.prefix { $0 != "#" }
        return (address, UInt16(clamping: port ?? 80), sent.hasPrefix("/") ? String(sent) : "/" + sent, nil)
    }

    /// Why `name` cannot be a header of a webhook's request: not a token (RFC 9110 5.1), or one the sender writes itself
    /// (framing and connection headers: the request is sent with `Content-Length` and `Connection: close`).
    static func headerNameProblem(_ name: String) -> String? {
        let token = "!#$%&'*+-.^_`|~"
        if name.isEmpty
            || !name.unicodeScalars.allSatisfy({
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || token.unicodeScalars.contains($0))
            })
        {
            return "a header name is a token (letters, digits, !#$%&'*+-.^_`|~)"
        }
        if ["host", "content-length", "transfer-encoding", "connection", "te", "upgrade", "trailer"].contains(name.lowercased()) {
            return "the sender writes \(name) itself"
        }
        return nil
    }

    /// The longest delay this webhook may wait before it is sent, in milliseconds.
    var longestDelayMs: Int {
        switch delay {
        case nil: return 0
        case .fixed(let milliseconds): return milliseconds
        case .uniform(_, let upper): return upper
        case .lognormal(_, _, let maxValue):
            return maxValue.map { Int(min($0, Double(StubRanges.delayMs.upperBound))) } ?? StubRanges.delayMs.upperBound
        }
    }
}
