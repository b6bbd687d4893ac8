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
    static func mappings(_ route: String, _ request: HTTPRequest, parts: MockServer.Parts) -> MockResponse? {
        let registry = parts.stubs
        let prefix = "/__admin/mappings/"
        let path = String(route.drop { $0 != " " }.dropFirst())
        switch route {
        case "GET /__admin/mappings":
            // WireMock's paging: `offset` mappings skipped, at most `limit` given; `meta.total` counts them all.
            let limit: Int?
            let offset: Int?
            do {
                limit = try request.boundedQueryInteger("limit", in: StubRanges.journalLimit)
                offset = try request.boundedQueryInteger("offset", in: StubRanges.journalLimit)
            } catch { return error.response }
            let all = registry.stubs { _ in true }
            let page = all.dropFirst(offset ?? 0).prefix(limit ?? all.count)
            return mappingsAnswer(Array(page), total: all.count)
        case "POST /__admin/mappings":
            do {
                let stubs = try parseMappings(request, parts: parts, list: false)
                // An id names one mapping: a mapping posted with an id in use replaces that one, and is the newest
                // (WireMock adds it: among equal mappings it answers; WireMock also lists the old one, sut-launch not).
                registry.replace(where: { $0.isNamed(stubs[0].id) }, with: stubs[0])
                return .json(text: mappingJSON(stubs[0], calls: 0), status: 201)
            } catch { return error.response }
        case "POST /__admin/mappings/import":
            do {
                let options = try importOptions(request)
                let imported = try parseMappings(request, parts: parts, list: true)
                // WireMock's duplicatePolicy: OVERWRITE (the default) replaces the mapping with that id, IGNORE keeps it.
                registry.importStubs(imported, keepExisting: options.keepExisting)
                if options.deleteAllNotInImport {
                    // WireMock's deleteAllNotInImport: every mapping whose id the import does not name goes (an
                    // `expect` among them is still checked at the end: "deleted while expected").
                    let named = Set(imported.flatMap { [$0.id, $0.adminID] })
                    registry.replace(where: { !named.contains($0.id) && !named.contains($0.adminID) }, with: nil)
                }
                return .json(text: "{}")
            } catch { return error.response }
        case "POST /__admin/mappings/find-by-metadata", "POST /__admin/mappings/remove-by-metadata":
            return metadataSearch(route, request, parts: parts)
        default:
            guard path.hasPrefix(prefix), !path.dropFirst(prefix.count).contains("/") else { return nil }
            let given = path.dropFirst(prefix.count)
            let id = StubSet.uuid(given) ?? String(given) // WireMock reads the id in any case
            guard let (stub, calls) = registry.stubs(where: { $0.isNamed(id) }).first else {
                return .text("no mapping \(id)\n", status: 404)
            }
            switch request.method {
            case "GET": return .json(text: mappingJSON(stub, calls: calls))
            case "DELETE":
                registry.replace(where: { $0 === stub }, with: nil)
                return .json(text: "{}")
            case "PUT":
                do {
                    let stubs = try parseMappings(request, parts: parts, list: false)
                    stubs[0].id = stub.adminID
                    // An edit keeps the mapping's place among equals, as WireMock's does (a POST makes it the newest).
                    guard registry.edit(stub, to: stubs[0]) else { return .text("no mapping \(id)\n", status: 404) }
                    return .json(text: mappingJSON(stubs[0], calls: 0))
                } catch { return error.response }
            default: return .text("use GET, PUT or DELETE on a mapping\n", status: 405)
            }
        }
    }

    /// `find-by-metadata` and `remove-by-metadata`: the posted matcher against each mapping's `metadata`, outside the
    /// registry's lock, on one work budget for the call (``MockServer/Options/matchBudget``: a 500 when spent, and nothing is
    /// removed then), stopping when the client has gone, as the journal searches do (r9a B10: each mapping had a
    /// budget of its own, under the lock: 12 s of CPU for one call over 120 mappings, the server frozen meanwhile).
    private static func metadataSearch(_ route: String, _ request: HTTPRequest, parts: MockServer.Parts) -> MockResponse {
        let matcher: ValueMatcher
        do {
            let node = try JSONParser.parse(request.body, refusingLoneSurrogates: true)
            matcher = try ValueMatcher.parse(node, file: "admin API", what: "metadata pattern")
        } catch {
            return .text("\(error)\n", status: 422)
        }
        let listed = parts.stubs.stubs { _ in true }
        let allowed = parts.settings.options.matchBudget
        var budget = allowed
        var found: [(stub: Stub, calls: Int)] = []
        for (searched, entry) in listed.enumerated() {
            if let gone = clientGone(request, route, searched: searched, of: listed.count, items: "mappings") { return gone }
            // A mapping without metadata is matched as the text `null`, as WireMock 2.35 writes it (`doesNotContain`,
            // `matches ".*"` and `equalTo "null"` hold for it).
            if matcher.matches(entry.stub.wireMockMetadata ?? "null", budget: &budget) { found.append(entry) }
            if budget < 0 { return budgetSpent(route, allowed, searched: searched + 1, of: listed.count, items: "mappings") }
        }
        guard route.hasSuffix("remove-by-metadata") else { return mappingsAnswer(found) }
        let chosen = Set(found.map { ObjectIdentifier($0.stub) })
        parts.stubs.replace(where: { chosen.contains(ObjectIdentifier($0)) }, with: nil)
        return .json(text: "{}")
    }

    /// Mappings with their call counts as WireMock lists them, written as they are made (``BodyStream``: each reader
    /// held the whole list); `total`: of every mapping when `found` is one page.
    static func mappingsAnswer(_ found: [(stub: Stub, calls: Int)], total: Int? = nil) -> MockResponse {
        .streamedJSON(opening: "{\"mappings\":[", count: found.count, closing: "],\"meta\":{\"total\":\(total ?? found.count)}}") {
            mappingJSON(found[$0].stub, calls: found[$0].calls)
        }
    }

    /// One mapping as WireMock gives it back: id and uuid, name, request and response (as loaded; a native
    /// route's in outline), priority, metadata, scenario keys, `persistent`, `postServeActions`; and sut-launch's
    /// `calls` and `source` (read back as nothing, so the mapping given back can be put back).
    static func mappingJSON(_ stub: Stub, calls: Int) -> String {
        let request =
            stub.wireMockRequest ?? "{\"method\":" + JSONWriter.quoted(stub.method ?? "ANY") + ",\"urlPathTemplate\":"
            + JSONWriter.quoted(stub.url.description) + "}"
        let response = stub.wireMockResponse ?? "{\"status\":\(stub.responses.first?.response.status ?? 200)}"
        return "{\"id\":" + JSONWriter.quoted(stub.adminID) + ",\"uuid\":" + JSONWriter.quoted(stub.adminID) + ",\"name\":"
            + JSONWriter.quoted(stub.name)
            + ",\"request\":" + request + ",\"response\":" + response + ",\"priority\":\(stub.priority)"
            + (stub.wireMockMetadata.map { ",\"metadata\":" + $0 } ?? "") + stub.wireMockExtras
            + ",\"source\":" + JSONWriter.quoted(stub.source) + ",\"calls\":\(calls)}"
    }

    /// An import's options as WireMock 2.35 has them: `duplicatePolicy` OVERWRITE (the default) or IGNORE, and
    /// `deleteAllNotInImport`. Any other key, in the body or in `importOptions`, is refused by name (422): it was
    /// accepted and ignored, so `deleteAllNotInImport: true` left every old mapping in place.
    private static func importOptions(_ request: HTTPRequest) throws(EndpointRefusal) -> (keepExisting: Bool, deleteAllNotInImport: Bool) {
        guard let node = try? JSONParser.parse(request.body, refusingLoneSurrogates: true), let members = node.members else {
            return (false, false)
        }
        for member in members where !["mappings", "importOptions", "meta"].contains(member.key) {
            throw EndpointRefusal(
                .text(
                    "import: unknown key \"\(member.key.prefix(80))\" (an import is {\"mappings\": [...], \"importOptions\": {...}})\n",
                    status: 422))
        }
        guard let options = node["importOptions"], !(options.value == .null) else { return (false, false) }
        guard let given = options.members else { throw EndpointRefusal(.text("importOptions must be an object\n", status: 422)) }
        var result = (keepExisting: false, deleteAllNotInImport: false)
        for member in given {
            switch member.key {
            case "duplicatePolicy":
                guard let policy = member.value.string, ["OVERWRITE", "IGNORE"].contains(policy) else {
                    throw EndpointRefusal(.text("importOptions.duplicatePolicy: use OVERWRITE (the default) or IGNORE\n", status: 422))
                }
                result.keepExisting = policy == "IGNORE"
            case "deleteAllNotInImport":
                guard case .bool(let delete) = member.value.value else {
                    throw EndpointRefusal(.text("importOptions.deleteAllNotInImport: use true or false\n", status: 422))
                }
                result.deleteAllNotInImport = delete
            default:
                throw EndpointRefusal(
                    .text(
                        "importOptions.\(member.key.prefix(80)) is not supported by sut-launch (duplicatePolicy and deleteAllNotInImport are)\n",
                        status: 422))
            }
        }
        return result
    }

    /// The body as one mapping, or (`list`) as `{"mappings": [...]}`; new ids are UUIDs.
    private static func parseMappings(_ request: HTTPRequest, parts: MockServer.Parts, list: Bool) throws(EndpointRefusal) -> [Stub] {
        let node: JSONNode
        do { node = try JSONParser.parse(request.body, refusingLoneSurrogates: true) } catch {
            throw EndpointRefusal(.text("invalid JSON: \(error)\n", status: 400))
        }
        let files = parts.stubs.filesDirectory
        if list && node["mappings"]?.elements == nil { throw EndpointRefusal(.text("import needs {\"mappings\": [...]}\n", status: 422)) }
        var stubs: [Stub] = []
        for given in list ? (node["mappings"]?.elements ?? []) : [node] {
            var mapping = given
            if case .object(let members) = given.value {
                mapping.value = .object(members.filter { $0.key != "source" && $0.key != "calls" })
            }
            do {
                let stub = try StubSet.wireMockMapping(mapping, file: "admin API", filesDirectory: files)
                if mapping["id"] == nil && mapping["uuid"] == nil { stub.id = UUID().uuidString.lowercased() }
                stub.addedThroughAdmin = true
                if parts.settings.options.globalResponseTemplating { try stub.templateWireMockResponses() }
                stubs.append(stub)
            } catch {
                throw EndpointRefusal(.text("\(error)\n", status: 422))
            }
            let port = parts.settings.listeningPort
            if let own = stubs.last?.responses.compactMap(\.proxy).first(where: {
                $0.target.isServer(listeningOn: parts.settings.host, port: port)
            }) {
                throw EndpointRefusal(
                    .text(
                        "proxyBaseUrl \(own.target) is this server's own address: every request would be forwarded back here; give the real backend\n",
                        status: 422))
            }
        }
        return stubs
    }
}
