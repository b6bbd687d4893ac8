import AutomationSupport

/// Finds the stubs that may match a request without scanning them all: exact paths by hash, templates by a
/// segment trie, regular expressions by their literal prefix. Candidates come back best first:
/// lower priority number, then more specific path (literal > {param} > * > **), then the stub added later.
struct Router: Sendable {
    let stubs: [Stub]
    /// Position of each stub in the total order "best first".
    private let rank: [Int]
    private let index: URLIndex

    final class TrieNode: @unchecked Sendable {
        var literal: [String: TrieNode] = [:]
        var parameter: TrieNode?
        var star: TrieNode?
        var doubleStar: [Int] = []
        var terminal: [Int] = []
    }

    init(_ stubs: [Stub]) {
        self.stubs = stubs
        rank = Self.rank(stubs)
        var index = URLIndex(capacity: stubs.count)
        for position in stubs.indices { index.add(stubs[position], at: position) }
        self.index = index
    }

    /// Each stub's position in the total order "best first".
    private static func rank(_ stubs: [Stub]) -> [Int] {
        // Sort keys computed once: comparing whole Stub values would copy them on every comparison.
        let keys = stubs.map { (priority: $0.priority, specificity: $0.specificity, order: $0.order) }
        let order = keys.indices.sorted { a, b in
            let x = keys[a]
            let y = keys[b]
            if x.priority != y.priority { return x.priority < y.priority }
            if x.specificity != y.specificity { return x.specificity > y.specificity }
            return x.order > y.order
        }
        var rank = [Int](repeating: 0, count: stubs.count)
        for (position, index) in order.enumerated() { rank[index] = position }
        return rank
    }

    /// "/a/b" for all-literal segments (nil otherwise), built in one allocation: 10,000 routes load on the
    /// path to "ready".
    static func exactPath(_ segments: [PathSegment]) -> String? {
        var length = 0
        for segment in segments {
            guard case .literal(let text) = segment else { return nil }
            length += 1 + text.utf8.count
        }
        if length == 0 { return "/" }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var offset = 0
            for case .literal(var text) in segments {
                buffer[offset] = UInt8(ascii: "/")
                offset += 1
                text.withUTF8 { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[offset..<offset + bytes.count]).initialize(from: bytes)
                    offset += bytes.count
                }
            }
            return offset
        }
    }

    /// Stub indices whose URL may match, best first. The caller still checks every field.
    func candidates(for input: MatchInput) -> [Int] {
        var result = index.exactPaths[input.request.path] ?? []
        if input.request.rawQuery != nil, let targets = index.exactTargets[input.request.originTarget] { result += targets }
        collect(input.segments[...], node: index.trie, into: &result)
        if input.isEncoded {
            // Native routes are indexed by their decoded literals: look the decoded path up too.
            var decoded = index.exactPaths[input.decodedPath] ?? []
            collect(input.decodedSegments.map { Substring($0) }[...], node: index.trie, into: &decoded)
            let seen = Set(result)
            result += decoded.filter { !seen.contains($0) }
        }
        for pattern in index.patterns
        // Bytes, not Characters: `hasPrefix` compares canonically and "/cafe" is no prefix of "/cafe\u{301}x" there.
        where (pattern.includesQuery ? input.request.originTarget : input.request.path).utf8.starts(with: pattern.prefix.utf8) {
            result.append(pattern.index)
        }
        result += index.anyURL
        if result.count > 1 { result.sort { rank[$0] < rank[$1] } }
        return result
    }

    private func collect(_ segments: ArraySlice<Substring>, node: TrieNode, into result: inout [Int]) {
        result += node.doubleStar
        guard let first = segments.first else {
            result += node.terminal
            return
        }
        let rest = segments.dropFirst()
        if let child = node.literal[String(first)] { collect(rest, node: child, into: &result) }
        if !first.isEmpty {
            if let child = node.parameter { collect(rest, node: child, into: &result) }
            if let child = node.star { collect(rest, node: child, into: &result) }
        }
    }

    /// The literal text a regular expression's matches must start with ("" when unknown).
    static func literalPrefix(_ source: String) -> String {
        var text = Substring(source)
        if text.hasPrefix("^") { text = text.dropFirst() }
        var prefix = ""
        let special: Set<Character> = [".", "^", "$", "*", "+", "?", "(", ")", "[", "]", "{", "}", "|", "\\"]
        for character in text {
            if special.contains(character) {
                // A quantifier applies to the last literal character: it is optional or repeated.
                if character == "*" || character == "?" || character == "{", !prefix.isEmpty { prefix.removeLast() }
                break
            }
            prefix.append(character)
        }
        return prefix
    }
}

/// Which stubs a URL may match, by position: exact paths by hash, templates by a segment trie, regular
/// expressions by their literal prefix, and the stubs that take any URL. Built one stub at a time, in order.
struct URLIndex: Sendable {
    private(set) var exactPaths: [String: [Int]] = [:]
    /// WireMock `url` mappings with a query, by their whole target: a recording holds hundreds of one path.
    private(set) var exactTargets: [String: [Int]] = [:]
    private(set) var trie = Router.TrieNode()
    private(set) var patterns: [(prefix: String, includesQuery: Bool, index: Int)] = []
    private(set) var anyURL: [Int] = []
    private var lastInsertion = InsertionPath()

    /// An empty index with room for `capacity` exact paths. Copies share the trie's nodes: add to one only.
    init(capacity: Int) {
        exactPaths.reserveCapacity(capacity)
    }

    /// Indexes `stub` at `position` (its index in the router's stubs).
    mutating func add(_ stub: Stub, at position: Int) {
        if case .exactURL(let target) = stub.url, target.contains("?") {
            exactTargets[target, default: []].append(position)
            return
        }
        if let path = stub.exactPath {
            exactPaths[path, default: []].append(position)
            return
        }
        switch stub.url {
        case .exactURL: break
        case .template(let segments): insert(segments, index: position)
        case .pattern(let regex, _, let includesQuery): patterns.append((Router.literalPrefix(regex.source), includesQuery, position))
        case .any: anyURL.append(position)
        }
    }

    /// Where the previous insertion went: route files list the routes of one resource together, so the next
    /// one walks the prefix they share by comparing segments instead of hashing them at every level.
    private struct InsertionPath {
        var segments: [PathSegment] = []
        /// The node reached after each of `segments` (fewer when it ended in `**`).
        var nodes: [Router.TrieNode] = []
    }

    private mutating func insert(_ segments: [PathSegment], index: Int) {
        var shared = 0
        let limit = min(segments.count, lastInsertion.nodes.count)
        while shared < limit, segments[shared] == lastInsertion.segments[shared] { shared += 1 }
        var node = shared == 0 ? trie : lastInsertion.nodes[shared - 1]
        lastInsertion.nodes.removeSubrange(shared...)
        lastInsertion.segments = segments
        for segment in segments[shared...] {
            switch segment {
            case .literal(let text):
                // One hash whether the child exists or not: the default is stored by the subscript's modify.
                node = Self.child(&node.literal[text, default: Router.TrieNode()])
            case .parameter:
                let child = node.parameter ?? Router.TrieNode()
                node.parameter = child
                node = child
            case .star:
                let child = node.star ?? Router.TrieNode()
                node.star = child
                node = child
            case .doubleStar:
                node.doubleStar.append(index)
                return
            }
            lastInsertion.nodes.append(node)
        }
        node.terminal.append(index)
    }

    private static func child(_ slot: inout Router.TrieNode) -> Router.TrieNode { slot }
}
