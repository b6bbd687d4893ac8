import AutomationSupport

extension RecordedMappings {
    /// The request as a matcher: method, the exact URL, the captured fields, the body (equalToJson for JSON by
    /// default, as WireMock's `auto`; equalTo for other text; binaryEqualTo for bytes).
    static func requestPattern(_ request: HTTPRequest, _ spec: RecordSpec) -> JSONNode {
        // What was forwarded: the path and query, never a fragment (clients do not send one; a replay never sees it).
        let query = request.rawQuery.map { query in query.firstIndex(of: "#").map { String(query[..<$0]) } ?? query }
        let url = request.path + (query.map { "?" + $0 } ?? "")
        var members: [(String, JSONNode)] = [("method", .text(request.method)), ("url", .text(url))]
        var headers: [(String, JSONNode)] = []
        for (name, caseInsensitive) in spec.capturedHeaders {
            guard let value = request.headers[name] else { continue }
            if isSecret(name, spec) {
                headers.append((name, .members([("matches", .text(".+"))])))
            } else {
                headers.append((name, .members([("equalTo", .text(value))] + (caseInsensitive ? [("caseInsensitive", .flag(true))] : []))))
            }
        }
        if !headers.isEmpty { members.append(("headers", .members(headers))) }
        if !request.body.isEmpty { members.append(("bodyPatterns", JSONNode(.array([bodyPattern(request, spec)])))) }
        return .members(members)
    }

    /// The body as a pattern that loads: a multipart body (its boundary drawn anew by the client for every request)
    /// as `anything` under `auto`, as WireMock 2.35 records form data (r9a B13: `equalTo` with the boundary never
    /// matched the same client's next request); an `equalToJson` the loader would refuse (an integer past 64 bits,
    /// r9a B14; text that is not JSON under `matcher: equalToJson`) as `equalTo` of the text, so a recording always
    /// loads.
    private static func bodyPattern(_ request: HTTPRequest, _ spec: RecordSpec) -> JSONNode {
        if spec.bodyMatcher == "auto", isMultipart(request.headers["Content-Type"]) { return .members([("anything", .text("anything"))]) }
        guard let text = String(validating: request.body, as: UTF8.self) else {
            return .members([("binaryEqualTo", .text(Base64Text.encode(request.body)))])
        }
        let isJSON = (try? JSONParser.parse(request.body)).map { $0.members != nil || $0.elements != nil } ?? false
        if spec.bodyMatcher == "equalToJson" || (spec.bodyMatcher == "auto" && isJSON) {
            let pattern = JSONNode.members([
                ("equalToJson", .text(text)), ("ignoreArrayOrder", .flag(spec.ignoreArrayOrder)),
                ("ignoreExtraElements", .flag(spec.ignoreExtraElements)),
            ])
            if (try? ValueMatcher.parse(pattern, file: "recording", what: "body pattern", place: .body)) != nil { return pattern }
        }
        return .members([("equalTo", .text(text))] + (spec.caseInsensitiveBody ? [("caseInsensitive", .flag(true))] : []))
    }

    /// Whether a `Content-Type` names a multipart body (`multipart/form-data; boundary=…`, `multipart/mixed`…).
    static func isMultipart(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mime = contentType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return mime.trimmingSpaces().lowercased().hasPrefix("multipart/")
    }

    static func isSecret(_ name: String, _ spec: RecordSpec) -> Bool {
        !spec.keepSecrets && (secretHeaders.contains(name.lowercased()) || spec.redactedHeaders.contains(name.lowercased()))
    }

    /// The answer as a response definition, and the body file it names when the body is kept apart.
    static func responseDefinition(_ exchange: ProxyLog.Exchange, name: String, spec: RecordSpec) -> (
        JSONNode, (path: String, bytes: [UInt8])?
    ) {
        let answer = exchange.answer
        var members: [(String, JSONNode)] = [("status", .number(answer.status))]
        var headers: [(String, [String])] = []
        for field in answer.headers.entries where !volatileHeaders.contains(field.name.lowercased()) {
            let value = isSecret(field.name, spec) ? redacted : field.value
            if let at = headers.firstIndex(where: { $0.0.lowercased() == field.name.lowercased() }) {
                headers[at].1.append(value)
            } else {
                headers.append((field.name, [value]))
            }
        }
        if !headers.isEmpty {
            members.append(
                ("headers", .members(headers.map { ($0.0, $0.1.count == 1 ? .text($0.1[0]) : JSONNode(.array($0.1.map { .text($0) }))) })))
        }
        var file: (path: String, bytes: [UInt8])?
        if !answer.body.isEmpty {
            let encoded = answer.headers["Content-Encoding"].map { !$0.trimmingSpaces().isEmpty && $0.lowercased() != "identity" } ?? false
            let text = encoded ? nil : String(validating: answer.body, as: UTF8.self)
            if let text, answer.body.count <= spec.textSizeThreshold {
                members.append(("body", .text(text)))
            } else if text == nil, answer.body.count <= spec.binarySizeThreshold {
                members.append(("base64Body", .text(Base64Text.encode(answer.body))))
            } else {
                let fileName = name + "." + fileExtension(answer.headers, isText: text != nil)
                members.append(("bodyFileName", .text(fileName)))
                file = ("__files/" + fileName, answer.body)
            }
        }
        return (.members(members), file)
    }

    /// `json`, `json.gz`, `html`, `txt`, `bin`… from the answer's type and coding.
    static func fileExtension(_ headers: HTTPHeaders, isText: Bool) -> String {
        let type = headers["Content-Type"]?.lowercased() ?? ""
        let known: [(String, String)] = [
            ("json", "json"), ("xml", "xml"), ("html", "html"), ("javascript", "js"), ("css", "css"), ("csv", "csv"),
            ("text/plain", "txt"), ("image/png", "png"), ("image/jpeg", "jpg"), ("image/gif", "gif"), ("pdf", "pdf"),
        ]
        var ext = known.first { type.contains($0.0) }?.1 ?? (type.hasPrefix("text/") || isText ? "txt" : "bin")
        switch headers["Content-Encoding"]?.lowercased().trimmingSpaces() {
        case "gzip", "x-gzip": ext += ".gz"
        case "deflate": ext += ".zz"
        case "br": ext += ".br"
        default: break
        }
        return ext
    }
}
