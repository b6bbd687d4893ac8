import AutomationSupport
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Stub mappings through the admin API in WireMock's JSON shape: `GET/POST /__admin/mappings`,
/// `GET/PUT/DELETE /__admin/mappings/{id}`, `POST /__admin/mappings/import`, `POST /__admin/mappings/find-by-metadata`
/// and `remove-by-metadata` (a WireMock matcher against each mapping's `metadata` JSON). A mapping added without an id
/// gets a UUID, as in WireMock.
extension AdminAPI {
    /// Answers the mapping endpoints; nil when `route` is not one of them.
    static func mappings(_ route: String, _ request: HTTPRequest, state: MockServer.State) -> MockResponse? {
        let prefix = "/__admin/mappings/"
        let path = String(route.drop { $0 != " " }.dropFirst())
        switch route {
        case "GET /__admin/mappings":
            let body = state.locked { state in
                "{\"mappings\":[" + state.router.stubs.indices.map { mappingJSON(state.router.stubs[$0], calls: state.counts[$0]) }.joined(separator: ",")
                    + "],\"meta\":{\"total\":\(state.router.stubs.count)}}"
            }
            return .json(text: body)
        case "POST /__admin/mappings":
            do {
                let stubs = try parseMappings(request, state: state, list: false)
                add(stubs, state: state)
                return .json(text: mappingJSON(stubs[0], calls: 0), status: 201)
            } catch { return error.response }
        case "POST /__admin/mappings/import":
            do {
                add(try parseMappings(request, state: state, list: true), state: state)
                return .json(text: "{}")
            } catch { return error.response }
        case "POST /__admin/mappings/find-by-metadata", "POST /__admin/mappings/remove-by-metadata":
            let matcher: ValueMatcher
            do {
                let node = try JSONParser.parse(request.body)
                matcher = try ValueMatcher.parse(node, file: "admin API", what: "metadata pattern")
            } catch {
                return .text("\(error)\n", status: 422)
            }
            let matches: @Sendable (Stub) -> Bool = { stub in stub.wireMockMetadata.map { matcher.matches($0) } ?? false }
            if route.hasSuffix("remove-by-metadata") {
                replace(where: matches, with: nil, state: state)
                return .json(text: "{}")
            }
            let body = state.locked { state in
                let found = state.router.stubs.indices.filter { matches(state.router.stubs[$0]) }
                return "{\"mappings\":[" + found.map { mappingJSON(state.router.stubs[$0], calls: state.counts[$0]) }.joined(separator: ",")
                    + "],\"meta\":{\"total\":\(found.count)}}"
            }
            return .json(text: body)
        default:
            guard path.hasPrefix(prefix), !path.dropFirst(prefix.count).contains("/") else { return nil }
            let given = path.dropFirst(prefix.count)
            let id = StubSet.uuid(given) ?? String(given) // WireMock reads the id in any case
            let found = state.locked { state in state.router.stubs.firstIndex { $0.id == id }.map { (state.router.stubs[$0], state.counts[$0]) } }
            guard let (stub, calls) = found else { return .text("no mapping \(id)\n", status: 404) }
            switch request.method {
            case "GET": return .json(text: mappingJSON(stub, calls: calls))
            case "DELETE":
                replace(id, with: nil, state: state)
                return .json(text: "{}")
            case "PUT":
                do {
                    let stubs = try parseMappings(request, state: state, list: false)
                    stubs[0].id = id
                    replace(id, with: stubs[0], state: state)
                    return .json(text: mappingJSON(stubs[0], calls: 0))
                } catch { return error.response }
            default: return .text("use GET, PUT or DELETE on a mapping\n", status: 405)
            }
        }
    }

    /// One mapping as WireMock gives it back: id and uuid, name, request and response (as loaded; a native
    /// route's in outline), priority; and sut-launch's `calls` and `source`.
    static func mappingJSON(_ stub: Stub, calls: Int) -> String {
        let request = stub.wireMockRequest ?? "{\"method\":" + JSONWriter.quoted(stub.method ?? "ANY") + ",\"urlPathTemplate\":" + JSONWriter.quoted(stub.url.description) + "}"
        let response = stub.wireMockResponse ?? "{\"status\":\(stub.responses.first?.response.status ?? 200)}"
        return "{\"id\":" + JSONWriter.quoted(stub.id) + ",\"uuid\":" + JSONWriter.quoted(stub.id) + ",\"name\":" + JSONWriter.quoted(stub.name)
            + ",\"request\":" + request + ",\"response\":" + response + ",\"priority\":\(stub.priority)"
            + (stub.wireMockMetadata.map { ",\"metadata\":" + $0 } ?? "")
            + ",\"source\":" + JSONWriter.quoted(stub.source) + ",\"calls\":\(calls)}"
    }

    /// The body as one mapping, or (`list`) as `{"mappings": [...]}`; new ids are UUIDs.
    private static func parseMappings(_ request: HTTPRequest, state: MockServer.State, list: Bool) throws(Refusal) -> [Stub] {
        let node: JSONNode
        do { node = try JSONParser.parse(request.body) } catch { throw Refusal(.text("invalid JSON: \(error)\n", status: 400)) }
        let files = state.locked { $0.fileStubs.files.first.map { FileSystem.directory(of: $0) + "/__files" } } ?? "./__files"
        if list && node["mappings"]?.elements == nil { throw Refusal(.text("import needs {\"mappings\": [...]}\n", status: 422)) }
        var stubs: [Stub] = []
        for mapping in list ? (node["mappings"]?.elements ?? []) : [node] {
            do {
                let stub = try StubSet.wireMockMapping(mapping, file: "admin API", filesDirectory: files)
                if mapping["id"] == nil && mapping["uuid"] == nil { stub.id = UUID().uuidString.lowercased() }
                if state.options.globalResponseTemplating { try stub.templateWireMockResponses() }
                stubs.append(stub)
            } catch {
                throw Refusal(.text("\(error)\n", status: 422))
            }
        }
        return stubs
    }

    /// An admin request refused with this answer.
    struct Refusal: Error {
        let response: MockResponse
        init(_ response: MockResponse) { self.response = response }
    }

    private static func add(_ stubs: [Stub], state: MockServer.State) {
        state.locked { state in
            var set = StubSet()
            for existing in state.router.stubs { set.stubs.append(existing) }
            for stub in stubs { set.append(stub) }
            state.router = Router(set.stubs)
            state.counts += [Int](repeating: 0, count: stubs.count)
        }
    }

    /// Removes the mapping `id`, or puts `stub` in its place (most recent: it wins among equals).
    private static func replace(_ id: String, with stub: Stub?, state: MockServer.State) {
        replace(where: { $0.id == id }, with: stub, state: state)
    }

    /// Removes every mapping `remove` picks, then adds `stub` if given.
    private static func replace(where remove: (Stub) -> Bool, with stub: Stub?, state: MockServer.State) {
        state.locked { state in
            var set = StubSet()
            var counts: [Int] = []
            for (index, existing) in state.router.stubs.enumerated() where !remove(existing) {
                set.stubs.append(existing)
                counts.append(state.counts[index])
            }
            if let stub {
                set.append(stub)
                counts.append(0)
            }
            state.router = Router(set.stubs)
            state.counts = counts
        }
    }
}
