import AutomationSupport

/// The `"METHOD /path"` a route step or a request step names: a method (`ANY` for any) and a path as the mock server
/// compares it, a route template (`/users/{id}`, `/files/*`, `/static/**`). What the server never compares (a query
/// string, a `#fragment`, a scheme and host, a `.` or `..` segment a client resolves before sending) can never match a
/// request: such a target is a load error naming it, since a count of 0 to it would always pass and a route to it
/// would never answer.
package enum RouteTarget {
    /// Why `path` can never be a request the server receives, or nil. `${NAME}` is left to run time (its value is
    /// checked then, by the same rule); `forRoute`: the step serves the path rather than counting requests to it.
    package static func problem(_ path: String, forRoute: Bool = false) -> String? {
        let written = path.escapingControlCharacters()
        if !path.hasPrefix("/") && !path.hasPrefix("${") {
            if path.contains("://") {
                return "\"\(written)\" is a URL; the step takes the path the server sees, as a route template: \"GET /users/{id}\""
            }
            return "the path \"\(written)\" must start with / (a route template: \"GET /users/{id}\")"
        }
        let outsideNames = withoutNames(path)
        if outsideNames.contains("?") {
            let instead =
                forRoute
                ? "match on the query in a stub file (\"query\": { \"a\": \"1\" }, Given the stubs \"file\")"
                : "count the path and check the query with … a request to \"GET /x\" with query \"a\" \"1\""
            return "\"\(written)\" holds a query string, which the server never compares with the path (it could never match); \(instead)"
        }
        if outsideNames.contains("#") {
            return "\"\(written)\" holds a #fragment, which a client never sends to the server (it could never match); leave it out"
        }
        let segments = outsideNames.split(separator: "/", omittingEmptySubsequences: false)
        if segments.contains(where: { $0 == "." || $0 == ".." }) {
            return
                "\"\(written)\" has a . or .. segment, which clients resolve before sending (/a/../x is sent as /x); write the path as sent"
        }
        if let index = segments.firstIndex(of: "**"), index != segments.count - 1 {
            return "** must be the last segment of \"\(written)\""
        }
        return nil
    }

    /// `text` without its `${NAME}`s, in one pass (a 1 MiB run of `${` is linear, never a rescan per start).
    static func withoutNames(_ text: String) -> String {
        var output = ""
        var rest = text[...]
        while let start = rest.firstRange(of: "${") {
            output += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else { return output + rest[start.lowerBound...] }
            rest = rest[rest.index(after: end)...]
        }
        return output + rest
    }

    /// The method a request step compares: `ANY` is any method, as in stub files and route steps.
    static func method(_ written: String) -> String? { written == "ANY" ? nil : written }
}
