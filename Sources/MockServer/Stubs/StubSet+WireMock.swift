#if canImport(FoundationEssentials)
import AutomationSupport
import FoundationEssentials
#else
import Foundation
#endif

extension StubSet {
    static let wireMockMappingKeys = [
        "id", "uuid", "name", "request", "response", "priority", "scenarioName", "requiredScenarioState", "newScenarioState",
        "persistent", "metadata", "insertionIndex", "postServeActions",
    ]
    static let wireMockUnsupportedMappingKeys = [
        "serveEventListeners": "serve event listeners are not implemented"
    ]
    static let wireMockRequestKeys = [
        "method", "url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate", "queryParameters", "headers", "cookies",
        "bodyPatterns", "pathParameters", "host", "scheme", "port", "basicAuthCredentials", "basicAuth", "multipartPatterns",
    ]
    static let wireMockUnsupportedRequestKeys = [
        "customMatcher": "custom matchers are Java extensions",
        "formParameters": "it is WireMock 3's, and WireMock 2.35 refuses it too; match the body with contains or matches",
        "clientIp": "client IP matching is not implemented",
    ]
    static let wireMockResponseKeys = [
        "status", "statusMessage", "headers", "body", "jsonBody", "base64Body", "bodyFileName", "fixedDelayMilliseconds", "fault",
        "transformers", "delayDistribution", "chunkedDribbleDelay", "proxyBaseUrl", "additionalProxyRequestHeaders",
        "removeProxyRequestHeaders", "proxyUrlPrefixToRemove",
    ]
    static let wireMockUnsupportedResponseKeys = [
        "transformerParameters": "transformer parameters are not implemented"
    ]

    /// Loads WireMock mappings: a single mapping (`request` + `response`) or `{"mappings": [...]}`.
    /// - Parameter filesDirectory: where `bodyFileName` is looked up (the `__files` directory).
    static func wireMock(_ root: JSONNode, file: String, filesDirectory: String, skip: ((StubError) -> Void)? = nil) throws(StubError)
        -> StubSet
    {
        var set = StubSet()
        set.files = [file]
        if let mappings = root["mappings"] {
            let reader = try ObjectReader(root, file: file, what: "the mappings file")
            try reader.checkKeys(["mappings", "meta"])
            guard let list = mappings.elements else { throw reader.typeError("mappings", mappings, "an array") }
            for mapping in list {
                do {
                    set.append(try wireMockMapping(mapping, file: file, filesDirectory: filesDirectory))
                    set.notices += methodNotice(mapping, file: file)
                } catch {
                    guard let skip else { throw error }
                    skip(error) // --lenient-stubs: one line for this mapping, the others load
                }
            }
        } else {
            set.append(try wireMockMapping(root, file: file, filesDirectory: filesDirectory))
            set.notices += methodNotice(root, file: file)
        }
        return set
    }

    /// A method with a lower-case letter (`"get"`) matches only requests that send it so, which WireMock's server
    /// never answers (501): such a mapping is loaded, and never answers in WireMock either.
    static func methodNotice(_ mapping: JSONNode, file: String) -> [String] {
        guard let node = mapping["request"]?["method"], let method = node.string, method.contains(where: \.isLowercase) else { return [] }
        return [
            "\(file):\(node.position.line):\(node.position.column): \"method\": \"\(method)\" is compared exactly, as WireMock does, and matches no "
                + "\(method.uppercased()) request; write \"\(method.uppercased())\""
        ]
    }

    /// One WireMock mapping as a stub (public for the admin API, which adds mappings at run time).
    static func wireMockMapping(_ node: JSONNode, file: String, filesDirectory: String) throws(StubError) -> Stub {
        let mapping = try ObjectReader(node, file: file, what: "a mapping")
        try mapping.checkKeys(wireMockMappingKeys, unsupported: wireMockUnsupportedMappingKeys)
        guard let request = try mapping.object("request") else {
            throw StubError(file: file, position: node.position, "a mapping needs \"request\"")
        }
        try request.checkKeys(wireMockRequestKeys, unsupported: wireMockUnsupportedRequestKeys)
        // Compared exactly, as WireMock 2.35 does: its `"get"` never answers GET (StubSet.methodNotice says so).
        let method = try request.string("method") ?? "ANY"

        let url = try urlMatcher(request)
        let name = try mapping.string("name") ?? "\(method) \(url.description)"
        let explicitID = try mappingID(mapping, "id")
        let uuid = try mappingID(mapping, "uuid")
        // Both given: the later key is the id, as WireMock reads them (both set its one id, in order).
        let uuidLast =
            node.members.map { members in
                members.lastIndex { $0.key == "uuid" } ?? -1 > members.lastIndex { $0.key == "id" } ?? -1
            } ?? false
        let id = (uuidLast ? uuid ?? explicitID : explicitID ?? uuid) ?? StubSet.uuid(derivedFrom: "\(file):\(node.position)")
        let stub = Stub(
            id: id, name: name, source: "\(file):\(node.position.line)", method: method == "ANY" ? nil : method,
            url: url, responses: [])
        stub.wireMockRequest = node["request"].map(JSONWriter.write)
        stub.wireMockResponse = node["response"].map(JSONWriter.write)
        stub.wireMockExtras = ["scenarioName", "requiredScenarioState", "newScenarioState", "persistent", "postServeActions"].compactMap {
            key in node[key].map { "," + JSONWriter.quoted(key) + ":" + JSONWriter.write($0) }
        }.joined()
        if let metadata = node["metadata"] {
            guard metadata.members != nil else {
                throw StubError(file: file, position: metadata.position, "\"metadata\" must be an object, like {\"tags\": [\"smoke\"]}")
            }
            stub.wireMockMetadata = JSONWriter.write(metadata)
        }
        stub.query = try namedMatchers(request, "queryParameters", file: file, place: .values)
        stub.headers = try namedMatchers(request, "headers", file: file, place: .values)
        stub.cookies = try namedMatchers(request, "cookies", file: file)
        stub.pathParameters = try namedMatchers(request, "pathParameters", file: file)
        stub.origin = try originMatch(request, file: file)
        stub.body = try bodyPatterns(request)
        stub.basicAuth = try basicAuth(request, headers: stub.headers)
        for pattern in try request.array("multipartPatterns") ?? [] {
            stub.multipart.append(try MultipartMatcher.parse(pattern, file: file))
        }
        stub.priority = try mapping.int("priority", in: StubRanges.priority) ?? 5
        if let actions = node["postServeActions"] { stub.webhooks = try Webhook.parseActions(actions, file: file) }
        if let scenario = try mapping.string("scenarioName") {
            stub.scenario = ScenarioRule(
                name: scenario, requiredState: try mapping.string("requiredScenarioState"),
                newState: try mapping.string("newScenarioState"))
        }
        var response = try mapping.object("response")
        if response == nil { response = try ObjectReader(JSONNode(.object([]), at: node.position), file: file, what: "response") }
        var definition = ResponseDefinition(response: try wireMockResponse(response!, filesDirectory: filesDirectory))
        if let delay = try response!.object("delayDistribution") { definition.delay = try DelayDistribution.parse(delay) }
        definition.proxy = try ProxyRule.parse(response!)
        if let transformers = try response!.array("transformers") {
            for transformer in transformers where transformer.string != "response-template" {
                throw response!.error(
                    "transformers",
                    "the transformer \(transformer.string.map { "\"\($0)\"" } ?? JSONWriter.write(transformer)) is not supported; \"response-template\" is"
                )
            }
            if !transformers.isEmpty {
                do { definition.template = try ResponseTemplates(definition.response, proxy: definition.proxy) } catch {
                    throw response!.error("transformers", "\(error)")
                }
            }
        }
        stub.responses = [definition]
        return stub
    }

    /// The mapping's one URL matcher (`url`, `urlPath`, `urlPattern`, `urlPathPattern`, `urlPathTemplate`), or any URL.
    private static func urlMatcher(_ request: ObjectReader) throws(StubError) -> URLMatcher {
        let urlKeys = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"].filter { request[$0] != nil }
        if urlKeys.count > 1 {
            throw request.error(urlKeys[1], "a request has one URL matcher, found \(urlKeys.joined(separator: " and "))")
        }
        var url = URLMatcher.any
        if let key = urlKeys.first, let value = try request.string(key) {
            switch key {
            case "url": url = .exactURL(value)
            case "urlPath":
                url = .template(value.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { .literal(String($0)) })
            case "urlPathTemplate":
                let segments = PathSegment.parse(value)
                if segments.contains(.star) || segments.contains(.doubleStar) {
                    throw request.error(key, "urlPathTemplate takes {name} parameters only, found * in \"\(value)\"")
                }
                url = .template(segments)
            default:
                do {
                    url = .pattern(try RegexBox(value), source: value, includesQuery: key == "urlPattern")
                } catch {
                    throw request.error(key, "\(key): invalid regular expression \"\(value)\": \(error)")
                }
            }
        }
        return url
    }

    /// `host` (a matcher), `scheme` (`http` or `https`) and `port` (1-65535); nil when none is given.
    private static func originMatch(_ request: ObjectReader, file: String) throws(StubError) -> OriginMatch? {
        guard request["host"] != nil || request["scheme"] != nil || request["port"] != nil else { return nil }
        var origin = OriginMatch()
        if let host = request["host"] {
            guard host.members != nil else {
                throw request.typeError("host", host, "a matcher object like {\"equalTo\": \"api.example.com\"}")
            }
            origin.host = try ValueMatcher.parse(host, file: file, what: "host")
        }
        if let scheme = try request.string("scheme") {
            guard ["http", "https"].contains(scheme.lowercased()) else {
                throw request.error("scheme", "scheme is \"http\" or \"https\", not \"\(scheme.prefix(40))\"")
            }
            origin.scheme = scheme
        }
        origin.port = try request.int("port", in: 1...65_535)
        return origin
    }

    /// A key's object of named matchers (`headers`, `queryParameters`, `cookies`…), read for their place.
    static func namedMatchers(_ reader: ObjectReader, _ key: String, file: String, place: MatcherPlace = .value) throws(StubError) -> [(
        name: String, matcher: ValueMatcher
    )] {
        guard let object = reader[key] else { return [] }
        guard let members = object.members else { throw reader.typeError(key, object, "an object") }
        var result: [(name: String, matcher: ValueMatcher)] = []
        for member in members {
            guard member.value.members != nil else {
                throw StubError(
                    file: file, position: member.value.position,
                    "\(key) \"\(member.key)\" must be a matcher object like {\"equalTo\": \"value\"}"
                )
            }
            result.append((member.key, try ValueMatcher.parse(member.value, file: file, what: "\(key) \"\(member.key)\"", place: place)))
        }
        return result
    }

    /// `bodyPatterns`: each one a matcher of the body (so `binaryEqualTo` too).
    static func bodyPatterns(_ reader: ObjectReader) throws(StubError) -> [ValueMatcher] {
        var patterns: [ValueMatcher] = []
        for pattern in try reader.array("bodyPatterns") ?? [] {
            patterns.append(try ValueMatcher.parse(pattern, file: reader.file, what: "a body pattern", place: .body))
        }
        return patterns
    }

    /// `basicAuthCredentials` (or `basicAuth`, which WireMock 2.35 also reads): `username` and `password`, any JSON
    /// scalar read as its text, a missing or null one as `null`, as WireMock reads them.
    private static func basicAuth(_ request: ObjectReader, headers: [(name: String, matcher: ValueMatcher)]) throws(StubError)
        -> BasicAuthMatcher?
    {
        let keys = ["basicAuthCredentials", "basicAuth"].filter { request[$0] != nil }
        guard let key = keys.first else { return nil }
        if keys.count > 1 { throw request.error(keys[1], "a request has one of basicAuthCredentials and basicAuth, found both") }
        if headers.contains(where: { $0.name == "Authorization" }) {
            throw request.error(
                key,
                "\(key) and headers \"Authorization\" are two matchers of one header (WireMock 2.35 then answers every request with 500); keep one"
            )
        }
        guard let credentials = try request.object(key) else { return nil }
        try credentials.checkKeys(["username", "password"])
        func text(_ name: String) throws(StubError) -> String {
            guard let value = credentials[name] else { return "null" }
            switch value.value {
            case .string(let text): return text
            case .null: return "null"
            case .int, .double, .bool: return JSONWriter.write(value)
            default: throw credentials.typeError(name, value, "a string")
            }
        }
        return BasicAuthMatcher(username: try text("username"), password: try text("password"))
    }

    private static func wireMockResponse(_ reader: ObjectReader, filesDirectory: String) throws(StubError) -> MockResponse {
        try reader.checkKeys(wireMockResponseKeys, unsupported: wireMockUnsupportedResponseKeys)
        var response = MockResponse(status: try reader.int("status", in: StubRanges.status) ?? 200)
        response.reason = try reader.string("statusMessage")
        if let headers = try reader.object("headers") {
            for member in headers.members {
                for element in member.value.elements ?? [member.value] {
                    response.headers.add(member.key, element.string ?? JSONWriter.write(element))
                }
            }
        }
        let bodies = ["body", "jsonBody", "base64Body", "bodyFileName"].filter { reader[$0] != nil }
        if bodies.count > 1 { throw reader.error(bodies[1], "a response has one body, found \(bodies.joined(separator: " and "))") }
        if let body = try reader.string("body") {
            response.body = Array(body.utf8)
        } else if let json = reader["jsonBody"] {
            response.body = Array(JSONWriter.write(json).utf8)
            if !response.headers.contains("Content-Type") { response.headers.add("Content-Type", "application/json") }
        } else if let base64 = try reader.string("base64Body") {
            guard let data = Data(base64Encoded: base64) else { throw reader.error("base64Body", "base64Body is not valid base64") }
            response.body = Array(data)
        } else if let name = try reader.string("bodyFileName") {
            if name.contains("{{") {
                throw reader.error(
                    "bodyFileName", "bodyFileName: a templated file name (\(name.prefix(80))) is not supported by sut-launch; name one file"
                )
            }
            let path: String
            switch FileSystem.confined(name, in: filesDirectory) {
            case .success(let real): path = real
            case .failure(let problem): throw reader.error("bodyFileName", "bodyFileName: \(problem)")
            }
            guard FileSystem.isRegularFile(path), let bytes = FileSystem.read(path) else {
                throw reader.error(
                    "bodyFileName", "bodyFileName: cannot read \(path) (\(FileSystem.unreadable(path)); looked in \(filesDirectory))")
            }
            response.body = bytes
            if !response.headers.contains("Content-Type") { response.headers.add("Content-Type", ContentType.forPath(path)) }
        }
        response.delayMs = try reader.int("fixedDelayMilliseconds", in: StubRanges.delayMs) ?? 0
        if let dribble = try reader.object("chunkedDribbleDelay") { response.dribble = try Dribble.parse(dribble) }
        if let fault = try reader.string("fault") {
            guard let parsed = MockResponse.Fault.allCases.first(where: { $0.wireMockName == fault }) else {
                let names = MockResponse.Fault.allCases.map(\.wireMockName)
                throw reader.error(
                    "fault",
                    "unknown fault \"\(fault)\"\(Suggestion.didYouMean(fault, among: names, otherwise: "; faults: \(names.joined(separator: ", "))"))"
                )
            }
            response.fault = parsed
        }
        try checkHead(response, reader, headers: "headers", reason: "statusMessage")
        return response
    }
}

extension Stub {
    /// `--global-response-templating`: template every response of a WireMock mapping, as if each named
    /// the `response-template` transformer. Native routes are left as they are.
    func templateWireMockResponses() throws(StubError) {
        guard wireMockResponse != nil else { return }
        for index in responses.indices where responses[index].template == nil && responses[index].handler == nil {
            do {
                responses[index].template = try ResponseTemplates(responses[index].response, proxy: responses[index].proxy)
            } catch {
                throw StubError(file: source, "mapping \(name): \(error)")
            }
        }
    }
}

extension StubSet {
    /// `--global-response-templating` for every WireMock mapping in the set.
    package func templateWireMockResponses() throws(StubError) {
        for stub in stubs { try stub.templateWireMockResponses() }
    }
}
