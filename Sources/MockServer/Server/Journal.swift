#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request the mock server received, and how it answered.
public struct JournalEntry: Sendable {
    /// 1, 2, 3… in arrival order.
    public var sequence: Int
    /// Milliseconds since the server started.
    public var receivedAtMs: Double
    public var request: HTTPRequest
    /// The stub that answered; nil for an unexpected request.
    public var stubID: String?
    public var stubName: String?
    public var status: Int
    public var fault: String?
    /// Why the request matched nothing, with the nearest stub (unexpected requests only).
    public var nearMiss: String?

    public var isUnexpected: Bool { stubID == nil && !request.path.hasPrefix("/__admin") }
}

/// Every request and response, bounded: the oldest entries go first once `limit` is reached.
public struct Journal: Sendable {
    public let limit: Int
    public private(set) var entries: [JournalEntry] = []
    /// Entries dropped to stay within the limit.
    public private(set) var dropped = 0
    private var head = 0

    public init(limit: Int = 10_000) { self.limit = max(1, limit) }

    mutating func append(_ entry: JournalEntry) {
        if entries.count < limit {
            entries.append(entry)
        } else {
            entries[head] = entry
            head = (head + 1) % limit
            dropped += 1
        }
    }

    mutating func removeAll() {
        entries.removeAll()
        head = 0
        dropped = 0
    }

    /// Entries in arrival order.
    public var ordered: [JournalEntry] { Array(entries[head...] + entries[..<head]) }

    /// The journal as JSON: `{"total": N, "dropped": D, "requests": [...]}`.
    public func json() -> String {
        var output = "{\"total\":\(entries.count + dropped),\"dropped\":\(dropped),\"requests\":["
        for (offset, entry) in ordered.enumerated() {
            if offset > 0 { output += "," }
            output += "\n"
            output += Self.json(entry)
        }
        output += "\n]}\n"
        return output
    }

    static func json(_ entry: JournalEntry) -> String {
        let request = entry.request
        var output = "{\"sequence\":\(entry.sequence),\"receivedAtMs\":\(JSONWriter.number((entry.receivedAtMs * 1000).rounded() / 1000))"
        output += ",\"method\":" + JSONWriter.quoted(request.method)
        output += ",\"url\":" + JSONWriter.quoted(request.target)
        output += ",\"path\":" + JSONWriter.quoted(request.path)
        output += ",\"query\":{" + request.queryItems.map { JSONWriter.quoted($0.name) + ":" + JSONWriter.quoted($0.value) }.joined(separator: ",") + "}"
        output += ",\"headers\":{" + request.headers.entries.map { JSONWriter.quoted($0.name) + ":" + JSONWriter.quoted($0.value) }.joined(separator: ",") + "}"
        if let text = String(validating: request.body, as: UTF8.self) {
            output += ",\"body\":" + JSONWriter.quoted(text)
        } else {
            output += ",\"bodyBase64\":" + JSONWriter.quoted(Base64.encode(request.body))
        }
        output += ",\"clientAddress\":" + JSONWriter.quoted(request.clientAddress)
        output += ",\"matched\":" + (entry.stubID == nil ? "false" : "true")
        if let id = entry.stubID { output += ",\"stub\":{\"id\":" + JSONWriter.quoted(id) + ",\"name\":" + JSONWriter.quoted(entry.stubName ?? "") + "}" }
        output += ",\"response\":{\"status\":\(entry.status)" + (entry.fault.map { ",\"fault\":" + JSONWriter.quoted($0) } ?? "") + "}"
        if let nearMiss = entry.nearMiss { output += ",\"nearMiss\":" + JSONWriter.quoted(nearMiss) }
        return output + "}"
    }
}

/// Base64 encoding for binary bodies in the journal.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)], alphabet[Int(value & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = UInt32(bytes[index]) << 16
            output += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: output, as: UTF8.self)
    }
}
