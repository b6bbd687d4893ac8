/// Serializes responses: status line, headers and body in one buffer, so one write (with TCP_NODELAY)
/// answers a request; no 40 ms delayed-ACK step between a header write and a body write.
package enum ResponseWriter {
    /// Appends the response to `output`.
    /// - Parameters:
    ///   - headRequest: a HEAD request: headers as for GET (Content-Length included), no body.
    ///   - keepAlive: the connection stays open; `Connection: close` is sent otherwise.
    ///
    /// The last gate of the head: a status that is not three digits, or a reason phrase, header name or value
    /// holding CR, LF, NUL or another character RFC 9110 forbids (from a template rendering request data, or
    /// from code) is never written: the answer is a 500 whose body names the field instead.
    package static func append(
        _ response: MockResponse, to output: inout [UInt8], headRequest: Bool,
        keepAlive: Bool, http10: Bool
    ) {
        if HTTPField.problem(in: response) != nil {
            append(HTTPField.checked(response), to: &output, headRequest: headRequest, keepAlive: keepAlive, http10: http10)
            return
        }
        let reason = response.reason ?? HTTPStatus.reason(response.status)
        var head = (http10 ? "HTTP/1.0 " : "HTTP/1.1 ") + String(response.status) + " " + reason + "\r\n"
        let noBody = HTTPStatus.forbidsBody(response.status)
        // A body made while it is written (``BodyStream``) has no length to give: chunked, or to HTTP/1.0 up to the close.
        let streamed = response.stream != nil
        let chunked = (response.chunked || streamed) && !http10 && !noBody
        var hasContentType = false
        for (name, value) in response.headers {
            let lowered = name.lowercased()
            // Framing is ours to decide; a stub's Content-Length or Transfer-Encoding would lie about the body.
            if lowered == "content-length" || lowered == "transfer-encoding" || lowered == "connection" { continue }
            if lowered == "content-type" { hasContentType = true }
            head += name + ": " + value + "\r\n"
        }
        if !noBody {
            if chunked {
                head += "Transfer-Encoding: chunked\r\n"
            } else if !streamed {
                head += "Content-Length: " + String(response.body.count) + "\r\n"
            }
            if !hasContentType && (streamed || !response.body.isEmpty) { head += "Content-Type: application/octet-stream\r\n" }
        }
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if http10 {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        output.append(contentsOf: head.utf8)
        guard !headRequest, !noBody, !streamed else { return } // a stream's body: the connection writes it as it is made
        if chunked {
            if !response.body.isEmpty {
                output.append(contentsOf: String(response.body.count, radix: 16).utf8)
                output.append(contentsOf: [0x0D, 0x0A])
                output.append(contentsOf: response.body)
                output.append(contentsOf: [0x0D, 0x0A])
            }
            output.append(contentsOf: Array("0\r\n\r\n".utf8))
        } else {
            output.append(contentsOf: response.body)
        }
    }

    /// The bytes of a plain-text error response for a request or connection the server refuses (it closes
    /// the connection after).
    package static func refusal(_ error: RequestHead.Error) -> [UInt8] {
        var output: [UInt8] = []
        append(.text(error.message + "\n", status: error.status), to: &output, headRequest: false, keepAlive: false, http10: false)
        return output
    }
}
