/// A member name as the reader's handlers ask for it: a literal (`value["testCaseStartedId"]`), its bytes where the
/// compiler put them, so a lookup compares lengths first and bytes eight at a time (``MessagesString/equal(_:_:_:)``)
/// with no String made (a String's bytes reached through `withUTF8` cost ~100 instructions a lookup).
struct MessagesKey: ExpressibleByStringLiteral, Sendable {
    let name: StaticString

    @inline(__always)
    init(stringLiteral name: StaticString) { self.name = name }

    /// The name as a String (for ``JSONNode``, the slow path).
    var string: String { name.description }

    /// Whether the `count` bytes at `start` are this name.
    @inline(__always)
    func matches(_ start: UnsafePointer<UInt8>, count: Int) -> Bool {
        guard count == name.utf8CodeUnitCount else { return false }
        // A literal of one character may be stored as that character, not as bytes.
        guard name.hasPointerRepresentation else { return name.withUTF8Buffer { MessagesString.equal(start, $0.baseAddress!, count) } }
        return MessagesString.equal(start, name.utf8Start, count)
    }
}
