import AutomationSupport

extension MultipartMatcher {
    static let keys = ["name", "matchingType", "headers", "bodyPatterns"]

    /// One of `multipartPatterns`: `{"matchingType": "ANY", "headers": {…}, "bodyPatterns": […]}`, with WireMock's
    /// names and their case (`matchingType` is `ANY` or `ALL`, in capitals, as WireMock's enum reads it).
    static func parse(_ node: JSONNode, file: String) throws(StubError) -> MultipartMatcher {
        let reader = try ObjectReader(node, file: file, what: "a multipart pattern")
        try reader.checkKeys(keys)
        var matcher = MultipartMatcher()
        if let type = try reader.string("matchingType") {
            guard let parsed = MatchingType(rawValue: type) else {
                throw reader.error(
                    "matchingType", "matchingType is \"ANY\" or \"ALL\", in capitals as WireMock reads it, not \"\(type.prefix(40))\"")
            }
            matcher.matchingType = parsed
        }
        if let name = reader["name"] { matcher.name = name.string ?? JSONWriter.write(name) }
        matcher.headers = try StubSet.namedMatchers(reader, "headers", file: file, place: .values)
        matcher.bodyPatterns = try StubSet.bodyPatterns(reader)
        return matcher
    }
}
