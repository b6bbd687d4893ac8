extension MockServer {
    /// Who may change the server through its admin API, and what an answer of a mapping the program under test added
    /// counts as. A run judges its program by what its own stubs answered: a program that could add a catch-all
    /// mapping would make its unexpected requests expected and talk its run green.
    public enum AdminWrites: String, Sendable, CaseIterable {
        /// `serve`, and a server a library embeds: the admin API is how its clients set it up; every write is answered.
        case open
        /// A run's server (the launcher's, a `test` scenario's, the Swift API's): the admin API is read-only to the
        /// program; a write is refused (403, naming the option that allows it) and counted as unexpected.
        case refuse
        /// `--admin-writes allow`: writes are answered; a request answered by a mapping the program added is journaled
        /// as such and counted as unexpected (a strict run fails on it).
        case allow
        /// `--admin-writes trust`: writes are answered, and a mapping the program added answers as a stub does (its
        /// answers are still marked in the journal and the summary).
        case trust
    }
}

extension AdminAPI {
    /// Admin requests that change nothing although they are POSTs: searches of the journal and of the mappings.
    static let readOnlyPosts: Set<String> = [
        "POST /__admin/requests/count", "POST /__admin/requests/find", "POST /__admin/near-misses/request",
        "POST /__admin/near-misses/request-pattern", "POST /__admin/mappings/find-by-metadata",
    ]

    /// The 403 for a write the program may not make (``MockServer/AdminWrites/refuse``); nil when it may. Every method
    /// but GET, HEAD and OPTIONS is a write unless it is one of ``readOnlyPosts``: an endpoint unknown today is refused
    /// rather than guessed harmless.
    static func writeRefusal(_ route: String, _ request: HTTPRequest, mode: MockServer.AdminWrites) -> MockResponse? {
        guard mode == .refuse, !["GET", "HEAD", "OPTIONS"].contains(request.method), !readOnlyPosts.contains(route) else { return nil }
        return .unanswered(
            "the admin API of a run's mock server is read-only to the program "
                + "under test (a mapping it added would answer what its run is judged by); pass --admin-writes allow to let it "
                + "(MockServerBuilder.adminWrites(.allow) in Swift)",
            status: 403)
    }
}

extension Stub {
    /// Whether this stub came from the admin API (a mapping posted, put or imported, or made by a recording the admin
    /// API started), rather than from the run's own stubs.
    var cameFromAdminAPI: Bool { addedThroughAdmin || recorded }
}
