import AutomationSupport

/// A problem in a stub or mapping file, with where it is: `routes.json:12:7: unknown key "stauts"; did you mean "status"?`
public typealias StubError = LocatedError

/// Reads one JSON object of a stub file: typed member access, and unknown keys reported with a suggestion.
struct ObjectReader {
    /// Where the object starts (not the node itself: thousands of readers are made on the path to "ready",
    /// and each node held is one more retain and release).
    let position: SourcePosition
    let file: String
    let what: String
    let members: [JSONNode.Member]
    /// Each key's member, for an object too large to search member by member: reading a response's 5,000 headers by
    /// name cost 68 s (r11 R11-4). Nil for the small objects nearly every mapping holds (searched faster than hashed).
    private let index: [String: Int]?

    init(_ node: JSONNode, file: String, what: String) throws(StubError) {
        guard let members = node.members else {
            throw StubError(file: file, position: node.position, "\(what) must be a JSON object, found a JSON \(node.typeName)")
        }
        self.position = node.position
        self.file = file
        self.what = what
        self.members = members
        index = members.count > Self.searchedMembers ? Self.index(members) : nil
    }

    /// Objects up to this many members are searched, larger ones hashed (``index``).
    private static let searchedMembers = 32

    private static func index(_ members: [JSONNode.Member]) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(members.count)
        for (position, member) in members.enumerated() where index[member.key] == nil { index[member.key] = position }
        return index
    }

    /// Fails on the first key not in `known`; keys in `unsupported` get a message saying so by name.
    func checkKeys(_ known: [String], unsupported: [String: String] = [:]) throws(StubError) {
        try checkKeys(Set(known), ordered: known, unsupported: unsupported)
    }

    /// The same with a prepared set (for loaders that check thousands of objects).
    func checkKeys(_ knownSet: Set<String>, ordered known: [String], unsupported: [String: String] = [:]) throws(StubError) {
        for member in members where !knownSet.contains(member.key) {
            if let reason = unsupported[member.key] {
                throw StubError(
                    file: file, position: member.keyPosition, "\(what): \"\(member.key)\" is not supported by sut-launch (\(reason))")
            }
            throw StubError(
                file: file, position: member.keyPosition,
                "unknown key \"\(member.key)\" in \(what)\(Suggestion.didYouMean(member.key, among: known, otherwise: "; known keys: \(known.joined(separator: ", "))"))"
            )
        }
    }

    /// The value of `key`, compared byte for byte (a String key of the index equals canonically equivalent text too:
    /// such a hit is checked and searched past).
    subscript(key: String) -> JSONNode? {
        if let index {
            guard let position = index[key] else { return nil }
            if members[position].key.utf8.elementsEqual(key.utf8) { return members[position].value }
        }
        return JSONNode.member(key, in: members)
    }

    var keys: [String] { members.map(\.key) }

    func string(_ key: String) throws(StubError) -> String? {
        guard let value = self[key] else { return nil }
        guard let text = value.string else { throw typeError(key, value, "a string") }
        return text
    }

    /// A whole number in `range`, read by ``BoundedNumber``: `"delayMs": '9223372036854775807' is not a whole
    /// number from 0 to 600000`. Every number a stub file gives is read here, with the range its user can do
    /// arithmetic in.
    func int(_ key: String, in range: ClosedRange<Int>) throws(StubError) -> Int? {
        guard let value = self[key] else { return nil }
        switch value.value {
        case .int(let number) where range.contains(number): return number
        case .double(let number) where number == number.rounded(.towardZero) && BoundedNumber.integer(number, in: range) != nil:
            return BoundedNumber.integer(number, in: range)
        case .int, .double:
            do throws(NumberError) {
                return try BoundedNumber.requireInteger(JSONWriter.write(value), in: range)
            } catch {
                throw StubError(file: file, position: value.position, "\"\(key)\": \(error)")
            }
        default: throw typeError(key, value, "an integer")
        }
    }

    func bool(_ key: String) throws(StubError) -> Bool? {
        guard let value = self[key] else { return nil }
        guard let flag = value.bool else { throw typeError(key, value, "true or false") }
        return flag
    }

    func object(_ key: String) throws(StubError) -> ObjectReader? {
        guard let value = self[key] else { return nil }
        return try ObjectReader(value, file: file, what: "\"\(key)\"")
    }

    func array(_ key: String) throws(StubError) -> [JSONNode]? {
        guard let value = self[key] else { return nil }
        guard let elements = value.elements else { throw typeError(key, value, "an array") }
        return elements
    }

    func error(_ key: String, _ message: String) -> StubError {
        StubError(file: file, position: self[key]?.position ?? position, message)
    }

    func typeError(_ key: String, _ value: JSONNode, _ expected: String) -> StubError {
        StubError(file: file, position: value.position, "\"\(key)\" must be \(expected), found a JSON \(value.typeName)")
    }
}
