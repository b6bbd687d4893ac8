import AutomationSupport

extension StubSet {
    static let nativeRootKeys = ["routes", "unexpected"]
    static let nativeResponseKeys = ["status", "reason", "body", "json", "bodyFile", "responseHeaders", "delayMs", "fault", "chunked"]
    static let nativeRouteKeySet = Set(nativeRouteKeys)
    static let nativeResponseKeySet = Set(nativeResponseKeys)
    static let nativeRouteKeys =
        [
            "name", "method", "path", "query", "headers", "cookies", "requestBody", "requestJson", "requestJsonIncludes", "priority",
            "scenario", "whenState", "setState", "expect", "responses", "then", "files", "template",
        ] + nativeResponseKeys

    /// Loads the native format: `{"routes": [...], "unexpected": "fail"}` (or a bare array of routes).
    static func native(_ root: JSONNode, file: String, directory: String) throws(StubError) -> StubSet {
        try native(root, deferred: nil, file: file, directory: directory)
    }

    /// The same, with the routes array left unparsed by ``JSONParser/parse(_:deferringArrayAt:)``: each route is
    /// parsed by the thread that builds it, and freed right after. Errors may not be the first in file order
    /// (the caller parses the file again whole when this throws).
    static func native(_ root: JSONNode, deferred: JSONDeferredArray?, file: String, directory: String) throws(StubError) -> StubSet {
        var set = StubSet()
        set.files = [file]
        let routes: [JSONNode]
        if let elements = root.elements {
            routes = elements
        } else {
            let reader = try ObjectReader(root, file: file, what: "the stub file")
            try reader.checkKeys(nativeRootKeys)
            guard let list = try reader.array("routes") else {
                throw StubError(file: file, position: root.position, "a native stub file needs \"routes\": [...]")
            }
            routes = list
            if let policy = try reader.string("unexpected") {
                guard let parsed = UnexpectedPolicy(rawValue: policy) else {
                    throw reader.error("unexpected", "\"unexpected\" must be \"fail\" or \"404\", found \"\(policy)\"")
                }
                set.unexpected = parsed
            }
        }
        let count: Int
        let build: @Sendable (Int) throws(StubError) -> Stub
        if let deferred {
            count = deferred.count
            build = { index throws(StubError) in
                let node: JSONNode
                do throws(JSONParser.Error) { node = try deferred.element(index) } catch {
                    throw StubError(file: file, position: error.position, error.message)
                }
                return try nativeRoute(node, file: file, directory: directory)
            }
        } else {
            count = routes.count
            build = { [routes] index throws(StubError) in try nativeRoute(routes[index], file: file, directory: directory) }
        }
        for stub in try buildInParallel(count: count, build) {
            set.append(stub)
        }
        return set
    }

    private static func nativeRoute(_ node: JSONNode, file: String, directory: String) throws(StubError) -> Stub {
        let reader = try ObjectReader(node, file: file, what: "a route")
        try reader.checkKeys(nativeRouteKeySet, ordered: nativeRouteKeys)
        // uppercased() builds a new string even when there is nothing to change (most methods are written "GET").
        let method = try reader.string("method").map { $0.utf8.contains(where: { (97...122).contains($0) }) ? $0.uppercased() : $0 }
        let path = try reader.string("path") ?? "/**"
        guard path.hasPrefix("/") else { throw reader.error("path", "\"path\" must start with /, found \"\(path)\"") }
        // The path is compared alone: a route with a query or a #fragment in it could never answer.
        if path.contains("?") || path.contains("#") {
            throw reader.error(
                "path",
                "\"path\" is compared without the query or a #fragment, so \"\(path)\" never matches; match the query with \"query\"")
        }
        let segments = PathSegment.parse(path, decoding: true)
        if let index = segments.firstIndex(of: .doubleStar), index != segments.count - 1 {
            throw reader.error("path", "** must be the last segment of \"\(path)\"")
        }
        // Interpolation sizes the text once; chains of + copied it per piece (measurable over 10,000 routes).
        let source = "\(file):\(node.position.line)"
        let stub = Stub(
            id: source, name: try reader.string("name") ?? "\(method ?? "ANY") \(path)",
            source: source, method: method == "ANY" ? nil : method,
            url: .template(segments), responses: [])
        stub.query = try matchers(reader, "query", file: file, place: .values)
        stub.headers = try matchers(reader, "headers", file: file, place: .values)
        stub.cookies = try matchers(reader, "cookies", file: file)
        if let text = try reader.string("requestBody") { stub.body.append(.equalTo(text, caseInsensitive: false)) }
        if let json = reader["requestJson"] { stub.body.append(.equalToJSON(json, ignoreArrayOrder: false, ignoreExtraElements: false)) }
        if let json = reader["requestJsonIncludes"] {
            stub.body.append(.equalToJSON(json, ignoreArrayOrder: false, ignoreExtraElements: true))
        }
        stub.priority = try reader.int("priority", in: StubRanges.priority) ?? 5
        if let scenario = try reader.string("scenario") {
            stub.scenario = ScenarioRule(
                name: scenario, requiredState: try reader.string("whenState"), newState: try reader.string("setState"))
        } else if reader["whenState"] != nil || reader["setState"] != nil {
            throw reader.error("whenState", "\"whenState\"/\"setState\" need \"scenario\": \"name\"")
        }
        if let expect = try reader.object("expect") {
            try expect.checkKeys(["times", "atLeast", "atMost"])
            stub.expectation = Stub.Expectation(
                times: try expect.int("times", in: StubRanges.expectedCalls),
                atLeast: try expect.int("atLeast", in: StubRanges.expectedCalls),
                atMost: try expect.int("atMost", in: StubRanges.expectedCalls))
            if let problem = stub.expectation?.contradiction { throw expect.error(problem.key, "\"expect\": \(problem.message)") }
        }
        try nativeResponses(reader, into: stub, segments: segments, file: file, directory: directory)
        // "template": true renders the body and header values with the request, as WireMock's response-template.
        if try reader.bool("template") == true {
            guard reader["files"] == nil else { throw reader.error("template", "\"template\" applies to a response, not to \"files\"") }
            for index in stub.responses.indices {
                do {
                    stub.responses[index].template = try ResponseTemplates(stub.responses[index].response)
                } catch {
                    throw reader.error("template", "\(error)")
                }
            }
        }
        return stub
    }

    /// A route's responses: a files directory, a `responses` list (with `then`), or the route's own response keys.
    private static func nativeResponses(
        _ reader: ObjectReader, into stub: Stub, segments: [PathSegment], file: String, directory: String
    ) throws(StubError) {
        if let files = try reader.string("files") {
            // The served root obeys the body files' rule: inside the stub file's directory, no absolute path,
            // no `..`, no link leading out (a `files` root of "/proc/self" would publish the environment).
            let resolved: String
            switch FileSystem.confined(files, in: directory) {
            case .success(let real): resolved = real
            case .failure(let problem): throw reader.error("files", "\"files\": \(problem)")
            }
            guard FileSystem.isDirectory(resolved) else {
                throw reader.error("files", "\"files\": no directory \(resolved)")
            }
            guard segments.last == .star || segments.last == .doubleStar else {
                throw reader.error("files", "\"files\" needs a path ending in /* or /**, like \"/images/*\"")
            }
            stub.responses = [ResponseDefinition(response: MockResponse(), filesDirectory: resolved)]
        } else if let list = try reader.array("responses") {
            if reader.keys.contains(where: { nativeResponseKeySet.contains($0) }) {
                throw reader.error(
                    "responses", "a route has either \"responses\": [...] or one response's keys (status, body, ...), not both")
            }
            guard !list.isEmpty else { throw reader.error("responses", "\"responses\" is empty") }
            for element in list {
                let responseReader = try ObjectReader(element, file: file, what: "a response")
                try responseReader.checkKeys(nativeResponseKeySet, ordered: nativeResponseKeys)
                stub.responses.append(ResponseDefinition(response: try nativeResponse(responseReader, directory: directory)))
            }
            if let then = try reader.string("then") {
                guard let order = ResponseOrder(rawValue: then) else {
                    throw reader.error("then", "\"then\": \"\(then)\" is not \"repeat-last\" or \"cycle\"")
                }
                stub.afterLast = order
            }
        } else {
            stub.responses = [ResponseDefinition(response: try nativeResponse(reader, directory: directory))]
        }
        if reader["then"] != nil && reader["responses"] == nil {
            throw reader.error("then", "\"then\" says what follows the last of \"responses\"; this route has no \"responses\"")
        }
    }

    /// Builds stubs from many routes on two threads (loading is on the path to "ready"); the first error in
    /// file order wins, as if they were built one by one. The helper starts on the other CPU (queued behind its
    /// creator it often did not run before the main thread had done everything), and the threads take chunks of
    /// routes in turn rather than a half each, so a helper that starts late only does less.
    static func buildInParallel(count: Int, _ build: @escaping @Sendable (Int) throws(StubError) -> Stub) throws(StubError) -> [Stub] {
        @Sendable func buildAll(_ range: Range<Int>) -> Result<[Stub], StubError> {
            var stubs: [Stub] = []
            stubs.reserveCapacity(range.count)
            for index in range {
                do throws(StubError) { stubs.append(try build(index)) } catch { return .failure(error) }
            }
            return .success(stubs)
        }
        guard count >= 256 else { return try buildAll(0..<count).get() }
        let chunk = 64
        let chunks = (count + chunk - 1) / chunk
        final class Work: @unchecked Sendable {
            let lock = Lock()
            var next = 0
            var results: [Result<[Stub], StubError>?]
            init(_ count: Int) { results = Array(repeating: nil, count: count) }
        }
        let work = Work(chunks)
        @Sendable func takeChunks() {
            while true {
                let index: Int = work.lock.withLock {
                    defer { work.next += 1 }
                    return work.next
                }
                guard index < chunks else { return }
                let result = buildAll((index * chunk)..<min(count, (index + 1) * chunk))
                work.lock.withLock { work.results[index] = result }
            }
        }
        runInParallel(takeChunks, takeChunks)
        var stubs: [Stub] = []
        stubs.reserveCapacity(count)
        for result in work.lock.withLock({ work.results }) { stubs += try result!.get() }
        return stubs
    }

    private static func matchers(_ reader: ObjectReader, _ key: String, file: String, place: MatcherPlace = .value) throws(StubError) -> [(
        name: String, matcher: ValueMatcher
    )] {
        guard let object = reader[key] else { return [] }
        guard let members = object.members else { throw reader.typeError(key, object, "an object") }
        var result: [(name: String, matcher: ValueMatcher)] = []
        for member in members {
            result.append((member.key, try ValueMatcher.parse(member.value, file: file, what: "\(key) \"\(member.key)\"", place: place)))
        }
        return result
    }

    private static func nativeResponse(_ reader: ObjectReader, directory: String) throws(StubError) -> MockResponse {
        var response = MockResponse(status: try reader.int("status", in: StubRanges.status) ?? 200)
        response.reason = try reader.string("reason")
        // Counted without building an array per route (the array is for the message only).
        if (reader["body"] != nil ? 1 : 0) + (reader["json"] != nil ? 1 : 0) + (reader["bodyFile"] != nil ? 1 : 0) > 1 {
            let bodies = ["body", "json", "bodyFile"].filter { reader[$0] != nil }
            throw reader.error(
                bodies[1], "a response has one of \"body\", \"json\", \"bodyFile\", found \(bodies.joined(separator: " and "))")
        }
        if let body = try reader.string("body") {
            response.body = Array(body.utf8)
            response.headers.add("Content-Type", "text/plain; charset=utf-8")
        } else if let json = reader["json"] {
            response.body = Array(JSONWriter.write(json).utf8)
            response.headers.add("Content-Type", "application/json")
        } else if let bodyFile = try reader.string("bodyFile") {
            let path: String
            switch FileSystem.confined(bodyFile, in: directory) {
            case .success(let real): path = real
            case .failure(let problem): throw reader.error("bodyFile", "\"bodyFile\": \(problem)")
            }
            guard FileSystem.isRegularFile(path), let data = FileSystem.read(path) else {
                throw reader.error("bodyFile", "\"bodyFile\": cannot read \(path) (\(FileSystem.unreadable(path)))")
            }
            response.body = data
            response.headers.add("Content-Type", ContentType.forPath(path))
        }
        if let headers = try reader.object("responseHeaders") {
            var fields: [(name: String, value: String)] = []
            for member in headers.members {
                switch member.value.value {
                case .string(let string): fields.append((member.key, string))
                case .int, .double, .bool: fields.append((member.key, JSONWriter.write(member.value)))
                default: throw headers.typeError(member.key, member.value, "a string")
                }
            }
            response.headers.set(each: fields)
        }
        response.delayMs = try reader.int("delayMs", in: StubRanges.delayMs) ?? 0
        if let fault = try reader.string("fault") {
            guard let parsed = MockResponse.Fault(rawValue: fault) ?? MockResponse.Fault.allCases.first(where: { $0.wireMockName == fault })
            else {
                let names = MockResponse.Fault.allCases.map(\.rawValue)
                throw reader.error(
                    "fault",
                    "unknown fault \"\(fault)\"\(Suggestion.didYouMean(fault, among: names, otherwise: "; faults: \(names.joined(separator: ", "))"))"
                )
            }
            response.fault = parsed
        }
        response.chunked = try reader.bool("chunked") ?? false
        try checkHead(response, reader, headers: "responseHeaders", reason: "reason")
        return response
    }
}

/// Content types by file extension, for `files` and `bodyFile`.
enum ContentType {
    static func forPath(_ path: String) -> String {
        let ext = path.split(separator: ".").last.map { $0.lowercased() } ?? ""
        switch ext {
        case "json": return "application/json"
        case "txt", "text": return "text/plain; charset=utf-8"
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css"
        case "js": return "text/javascript"
        case "xml": return "application/xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "svg": return "image/svg+xml"
        case "webp": return "image/webp"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
