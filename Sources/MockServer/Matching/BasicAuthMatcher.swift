import AutomationSupport

/// WireMock's `basicAuthCredentials` (2.35 also reads `basicAuth`): an `Authorization` header equal, in any case, to
/// `Basic ` and the base64 of `username:password` in UTF-8, as WireMock compiles it (an `equalToIgnoreCase` on the
/// header). A missing username or password is the text `null`, as Java writes a null string.
struct BasicAuthMatcher: Sendable {
    let username: String
    /// `Basic dXNlcjpwYXNz`.
    let headerValue: String

    init(username: String, password: String) {
        self.username = username
        headerValue = "Basic " + Base64Text.encode(Array("\(username):\(password)".utf8))
    }

    /// nil when one `Authorization` value holds these credentials. A near miss names the user it expected and the
    /// user the request sent; never a password, from either side.
    func mismatch(_ request: HTTPRequest) -> Mismatch? {
        // `headerValue` is ASCII: a value equal to it in any case is ASCII of its length (no copy lower-cased per request).
        for entry in request.headers.entries where entry.name.equalsIgnoringASCIICase("Authorization") {
            if entry.value.equalsIgnoringASCIICase(headerValue) { return nil }
        }
        let values = request.headers.values("Authorization")
        return Mismatch(
            field: "basic auth", expected: "user \"\(username)\" and the mapping's password",
            actual: values.isEmpty ? "no Authorization header" : values.map(sentUser).joined(separator: ", "), weight: 1)
    }

    /// What an `Authorization` value says without its secret: `user "bob"`, or the scheme of other credentials (a
    /// short word before a space; anything else may be a secret itself, and is not shown).
    private func sentUser(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic" else {
            let scheme = parts.count == 2 && parts[0].count <= 20 && parts[0].allSatisfy { $0.isASCII && $0.isLetter } ? parts[0] : nil
            return scheme.map { "\"\($0)\" credentials" } ?? "credentials that are not Basic"
        }
        guard let decoded = try? Base64Text.decodeExplained(String(parts[1])), let text = String(validUTF8: decoded),
            let colon = text.firstIndex(of: ":")
        else { return "Basic credentials that are not base64 of user:password" }
        let user = text[..<colon]
        return user == username ? "user \"\(username)\" with another password" : "user \"\(user.prefix(80))\""
    }
}
