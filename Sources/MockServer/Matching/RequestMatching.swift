package import AutomationSupport

/// Matching helpers for other modules (the scenario runner's request assertions).
package enum RequestMatching {
    /// True when the request has this method and its path fits the template (`/users/{id}`, `/files/*`).
    package static func matches(_ request: HTTPRequest, method: String?, path template: String) -> Bool {
        if let method, request.method != method { return false }
        let probe = Stub(
            id: "", name: "", source: "", method: nil, url: .template(PathSegment.parse(template, decoding: true)), responses: [])
        return probe.urlMatches(MatchInput(request))
    }

    /// True when `actual` holds everything in `expected` (extra members allowed, arrays in order).
    package static func jsonIncludes(_ expected: JSONNode, _ actual: JSONNode) -> Bool {
        JSONComparison.matches(expected: expected, actual: actual, ignoreArrayOrder: false, ignoreExtraElements: true)
    }
}

/// A route as tests write it: `"GET /cities"`, `"post /users/{id}"`, `"ANY /files/**"`, or a bare path
/// (any method). The one place these strings are split: the method is upper-cased, `ANY` means any.
package struct RouteKey: Sendable, Hashable, CustomStringConvertible {
    /// nil: any method.
    package var method: String?
    package var path: String

    package init(_ text: String) {
        let parts = text.split(separator: " ", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            let method = parts[0].uppercased()
            self.method = method == "ANY" ? nil : method
            path = parts[1].trimmingSpaces()
        } else {
            method = nil
            path = parts.first ?? "/"
        }
    }

    package var description: String { "\(method ?? "ANY") \(path)" }

    /// True when `request` is a request to this route.
    package func matches(_ request: HTTPRequest) -> Bool {
        RequestMatching.matches(request, method: method, path: path)
    }
}
