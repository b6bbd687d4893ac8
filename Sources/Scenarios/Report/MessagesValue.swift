import AutomationSupport

/// What the Messages reader and ``ReportRecord`` read of a JSON value: a ``JSONNode`` (a line read the slow way)
/// or a ``MessagesValue`` (what the fast path kept), so one reading serves both.
protocol JSONReading {
    associatedtype Elements: Sequence where Elements.Element == Self
    /// The member named `key`, if this is an object that has one.
    subscript(key: MessagesKey) -> Self? { get }
    var string: String? { get }
    /// A string's UTF-8 bytes.
    var utf8: [UInt8]? { get }
    var int: Int? { get }
    var double: Double? { get }
    var bool: Bool? { get }
    /// The elements, if this is an array.
    var elements: Elements? { get }
    var isObject: Bool { get }
    /// No elements (what ``list(_:)`` gives for a member that is not an array).
    static var noElements: Elements { get }
}

extension JSONReading {
    /// The elements of the member named `key`: none when there is no such member or it is not an array.
    func list(_ key: MessagesKey) -> Elements { self[key]?.elements ?? Self.noElements }
}

extension JSONNode: JSONReading {
    subscript(key: MessagesKey) -> JSONNode? { self[key.string] }
    var isObject: Bool { members != nil }
    var utf8: [UInt8]? { string.map { Array($0.utf8) } }
    static var noElements: [JSONNode] { [] }
}

/// What ``MessagesLine`` keeps of a line: its values in one flat list, each followed by its members or elements,
/// pointing into the file's bytes. Nothing is allocated per value (the list is reused line after line): where a
/// tree of nodes cost an array per object and a reference count per string, this costs a store.
final class MessagesValues {
    struct Entry {
        enum Kind: UInt8 { case null, no, yes, int, double, string, escaped, object, array }
        /// Where the member's name lies in the bytes, and its tag (count 0 for an element or the line's value).
        var key: Int
        var tag: MessagesLine.KeyTag
        var kind: Kind
        /// How many entries its value takes, itself included: the next member or element is `size` further on.
        var size: Int32
        /// int: the number; double: its bits; string: where its content starts in the bytes.
        var payload: Int
        /// string: its content's length in bytes; object and array: how many members or elements.
        var count: Int32
    }

    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 256) {
        self.capacity = capacity
        entries = .allocate(capacity: capacity)
    }

    deinit {
        entries.deallocate()
        names.deallocate()
        frames.deallocate()
    }

    func removeAll() {
        count = 0
        nameCount = 0
    }

    /// Appends `entry` and says where it is.
    func append(_ entry: Entry) -> Int {
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
            capacity *= 2
        }
        entries[count] = entry
        count += 1
        return count - 1
    }

    /// The member names of the objects open (where each lies, and its tag), for ``MessagesLine`` to refuse a name
    /// given twice: a stack, reused line after line as the entries are.
    private(set) var names: UnsafeMutablePointer<(start: Int, tag: MessagesLine.KeyTag)> = .allocate(capacity: 64)
    private(set) var nameCount = 0
    private var nameCapacity = 64

    func pushName(_ start: Int, _ tag: MessagesLine.KeyTag) {
        if nameCount == nameCapacity {
            let grown = UnsafeMutablePointer<(start: Int, tag: MessagesLine.KeyTag)>.allocate(capacity: nameCapacity * 2)
            grown.moveInitialize(from: names, count: nameCount)
            names.deallocate()
            names = grown
            nameCapacity *= 2
        }
        (names + nameCount).initialize(to: (start, tag))
        nameCount += 1
    }

    /// What ``MessagesLine``'s skip has open at each depth: an object (where its names start among ``names``), or
    /// an array (-1). No deeper than ``JSONParser`` goes.
    let frames = UnsafeMutablePointer<Int>.allocate(capacity: JSONParser.maxDepth + 1)

    /// Forgets the names pushed since there were `count`.
    func popNames(to count: Int) { nameCount = count }

    /// Closes the object or array at `at`: its size is everything appended since, and it holds `members`.
    func close(_ at: Int, members: Int) {
        entries[at].size = Int32(count - at)
        entries[at].count = Int32(members)
    }
}

/// One value ``MessagesLine`` kept, read as a ``JSONNode`` is, straight from the file's bytes. Valid until the
/// scanner reads its next line (it points into the scanner's list and into the file).
struct MessagesValue: JSONReading {
    let entries: UnsafePointer<MessagesValues.Entry>
    let bytes: UnsafePointer<UInt8>
    let at: Int

    private var entry: MessagesValues.Entry { entries[at] }

    subscript(key: MessagesKey) -> MessagesValue? {
        guard entry.kind == .object else { return nil }
        var child = at + 1
        for _ in 0..<Int(entry.count) {
            let member = entries[child]
            if key.matches(bytes + member.key, count: member.tag.count) { return MessagesValue(entries: entries, bytes: bytes, at: child) }
            child += Int(member.size)
        }
        return nil
    }

    private var content: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: bytes + entry.payload, count: Int(entry.count)) }

    var string: String? {
        switch entry.kind {
        case .string: String(decoding: content, as: UTF8.self)
        case .escaped: String(decoding: decoded, as: UTF8.self)
        default: nil
        }
    }

    /// A string's bytes, escapes decoded (invalid UTF-8 kept as it is).
    var utf8: [UInt8]? {
        switch entry.kind {
        case .string: Array(content)
        case .escaped: decoded
        default: nil
        }
    }

    private var decoded: [UInt8] {
        MessagesString.decoded(
            UnsafeBufferPointer(start: bytes, count: entry.payload + Int(entry.count)), entry.payload..<entry.payload + Int(entry.count))
    }

    /// As ``JSONNode/int``: a whole number, written with or without a fraction.
    var int: Int? {
        switch entry.kind {
        case .int: return entry.payload
        case .double:
            let number = Double(bitPattern: UInt64(UInt(bitPattern: entry.payload)))
            return number.rounded() == number && abs(number) < 9e18 ? Int(number) : nil
        default: return nil
        }
    }

    var double: Double? {
        switch entry.kind {
        case .int: Double(entry.payload)
        case .double: Double(bitPattern: UInt64(UInt(bitPattern: entry.payload)))
        default: nil
        }
    }

    var bool: Bool? {
        switch entry.kind {
        case .yes: true
        case .no: false
        default: nil
        }
    }

    var isObject: Bool { entry.kind == .object }

    static var noElements: Elements { Elements(entries: nil, bytes: nil, at: 0, remaining: 0) }

    var elements: Elements? {
        guard entry.kind == .array else { return nil }
        return Elements(entries: entries, bytes: bytes, at: at + 1, remaining: Int(entry.count))
    }

    /// An array's elements, one after the other in the list.
    struct Elements: Sequence, IteratorProtocol {
        let entries: UnsafePointer<MessagesValues.Entry>?
        let bytes: UnsafePointer<UInt8>?
        var at: Int
        var remaining: Int

        mutating func next() -> MessagesValue? {
            guard remaining > 0, let entries, let bytes else { return nil }
            remaining -= 1
            defer { at += Int(entries[at].size) }
            return MessagesValue(entries: entries, bytes: bytes, at: at)
        }
    }
}
