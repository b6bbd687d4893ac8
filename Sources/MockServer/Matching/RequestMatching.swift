/// Matching helpers for other modules (the scenario runner's request assertions).
package enum RequestMatching {
    /// True when the request has this method and its path fits the template (`/users/{id}`, `/files/*`).
    package static func matches(_ request: HTTPRequest, method: String, path template: String) -> Bool {
        guard request.method == method else { return false }
        let probe = Stub(id: "", name: "", source: "", method: nil, url: .template(PathSegment.parse(template)), responses: [])
        return probe.urlMatches(MatchInput(request))
    }

    /// True when `actual` holds everything in `expected` (extra members allowed, arrays in order).
    package static func jsonIncludes(_ expected: JSONNode, _ actual: JSONNode) -> Bool {
        JSONComparison.matches(expected: expected, actual: actual, ignoreArrayOrder: false, ignoreExtraElements: true)
    }
}
