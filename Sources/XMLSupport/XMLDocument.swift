import AutomationSupport

/// A document parsed by libxml2 for one request body (``XMLBody``: every XML matcher of every stub reads the one
/// parse) or one mapping's expected document, used on one thread (libxml2's documents are not shared between
/// threads), freed when it goes. Each evaluation over it starts its own count of work and CPU (``begin(_:)``).
final class XMLDocument {
    let library: LibXML2
    let pointer: LibXML2.Pointer
    /// Units of work spent converting nodes (``XMLDocument/maxWork``).
    var work = 0
    /// The CPU time the caller's budget has left, from the clock taken before the parse: converting and comparing
    /// nodes stops past it (checked every ``cpuCheckUnits`` units), as the XPath watchdog stops an evaluation. Node
    /// printing got 64 Mi units per stub and request, outside the request's budget: 6 stubs on one URL cost 12.6 s.
    var cpuLimit: (clock: ThreadCPUClock, nanoseconds: Int)?
    private var nextCPUCheck = 0

    /// The body sizes parsed: the server's body limit.
    static let maxBytes = 16 << 20
    /// Units of work (a node visited, a byte of text copied) one evaluation may spend turning libxml2's nodes into
    /// ``XMLElement``s: `//*` over a deep document copies each subtree again.
    static let maxWork = 64 << 20
    /// libxml2's parser options: XML_PARSE_NOERROR | NOWARNING (no printing), NONET (no network). CDATA sections stay
    /// nodes of their own, as in WireMock's DOM (`//a/text()` over `<a>x<![CDATA[y]]></a>` finds `x` and the section;
    /// NOCDATA merged them into `xy`); the comparison joins them with the text beside them, as XMLUnit does. Never
    /// NOENT (entity substitution), DTDLOAD, DTDATTR, DTDVALID or HUGE: documents stay within libxml2's default limits
    /// (256 levels of nesting, 10 MB text nodes).
    static let options: Int32 = (1 << 5) | (1 << 6) | (1 << 11)
    /// Whether ``stripNamespaces()`` is in effect (XPath without `xPathNamespaces`), undone by ``restoreNamespaces()``.
    private var namespacesStripped = false

    /// Parses `text` as UTF-8 (the body as WireMock reads it: a declared encoding does not change how it is read).
    init(_ text: String, library: LibXML2) throws(XMLError) {
        self.library = library
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw XMLError("an empty body is not XML") }
        guard bytes.count <= Self.maxBytes else { throw XMLError("XML larger than 16 MiB is not parsed") }
        // WireMock reads the body as text, so a byte order mark is a character before the prolog: Java's parser
        // refuses it ("Content is not allowed in prolog"), and so do we, where libxml2 would skip it.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { throw XMLError("XML that starts with a byte order mark is not parsed, as WireMock") }
        // Entity declarations are refused before libxml2 sees them: no billion laughs, no external entities.
        if Self.contains(bytes, Array("<!ENTITY".utf8)) { throw XMLError("XML that declares entities (<!ENTITY) is refused") }
        if Self.mostAttributes(bytes) > Self.maxAttributes {
            throw XMLError("an element with more than \(Self.maxAttributes) attributes is not parsed")
        }
        library.quiet()
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                library.readMemory($0, Int32(buffer.count), "body.xml", "UTF-8", Self.options)
            }
        }
        guard let parsed else { throw XMLError("not well-formed XML: \(library.lastMessage() ?? "libxml2 refused it")") }
        pointer = parsed
    }

    deinit { library.freeDocument(pointer) }

    /// Starts an evaluation: its work count from zero, its CPU limit from `clock` (taken before the parse when this
    /// evaluation parsed the document, so the parse counts).
    func begin(_ clock: ThreadCPUClock?, cpuLimitNanoseconds: Int?) {
        work = 0
        nextCPUCheck = 0
        if let clock, let cpuLimitNanoseconds { cpuLimit = (clock, cpuLimitNanoseconds) } else { cpuLimit = nil }
    }

    var root: LibXML2.Pointer? { library.rootElement(pointer) }

    /// The element `node` points to, with its subtree; throws past ``maxWork``.
    /// With `keepingCDATA`, a CDATA section is a child of its own (printing); without, it is one text with the text
    /// beside it (comparing).
    func element(_ node: LibXML2.Pointer, keepingCDATA: Bool = false) throws(XMLError) -> XMLElement {
        var (element, children) = try shallow(node, keepingCDATA: keepingCDATA)
        element.children.reserveCapacity(children.count)
        for child in children {
            switch child {
            case .element(_, let pointer): element.children.append(.element(try self.element(pointer, keepingCDATA: keepingCDATA)))
            case .text(let text): element.children.append(.text(text))
            case .cdata(let text): element.children.append(.cdata(text))
            case .instruction(let target, let data): element.children.append(.instruction(target: target, data: data))
            }
        }
        return element
    }

    /// A child of ``shallow(_:keepingCDATA:)``: an element by name, not yet read, a text (adjacent text and CDATA as
    /// one, unless CDATA is kept), a CDATA section, or a processing instruction.
    enum ShallowChild {
        case element(String, LibXML2.Pointer)
        case text(String)
        case cdata(String)
        case instruction(target: String, data: String)
    }

    /// Whether a processing instruction stands before or after the root element (`<?xml …?>` is a declaration, not
    /// one; comments and a DOCTYPE are not counted).
    var hasInstructionOutsideRoot: Bool {
        var child = pointer.load(fromByteOffset: Layout.nodeChildren, as: LibXML2.Pointer?.self)
        while let current = child {
            if current.load(fromByteOffset: Layout.nodeType, as: Int32.self) == 7 { return true }
            child = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
        }
        return false
    }

    /// The element `node` points to without its subtree (its children as names and pointers), so a comparison reads
    /// only what it compares: a 15.8 MB body was read whole, 800,000 elements, to be told at its root that its child
    /// count differs.
    func shallow(_ node: LibXML2.Pointer, keepingCDATA: Bool = false) throws(XMLError) -> (element: XMLElement, children: [ShallowChild]) {
        try charge(64)
        let namespace = Self.namespace(node)
        var element = XMLElement(name: Self.text(node, Layout.nodeName), namespace: namespace?.uri, prefix: namespace?.prefix)
        var declaration = node.load(fromByteOffset: Layout.nodeDeclarations, as: LibXML2.Pointer?.self)
        while let current = declaration {
            let uri = current.load(fromByteOffset: Layout.namespaceHref, as: LibXML2.Text?.self).map { String(cString: $0) } ?? ""
            let prefix = current.load(fromByteOffset: Layout.namespacePrefix, as: LibXML2.Text?.self).map { String(cString: $0) }
            element.declarations.append(XMLNamespace(prefix: prefix, uri: uri))
            declaration = current.load(fromByteOffset: Layout.namespaceNext, as: LibXML2.Pointer?.self)
        }
        var attribute = node.load(fromByteOffset: Layout.nodeAttributes, as: LibXML2.Pointer?.self)
        while let current = attribute {
            var value = ""
            var child = current.load(fromByteOffset: Layout.nodeChildren, as: LibXML2.Pointer?.self)
            while let text = child {
                value += Self.text(text, Layout.nodeContent)
                child = text.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
            }
            try charge(value.utf8.count + 64)
            let namespace = Self.namespace(current)
            element.attributes.append(
                XMLAttribute(name: Self.text(current, Layout.nodeName), namespace: namespace?.uri, prefix: namespace?.prefix, value: value))
            attribute = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
        }
        var children: [ShallowChild] = []
        // Adjacent texts are appended in place (a new string for each of thousands of CDATA sections was quadratic).
        var pending: String?
        var child = node.load(fromByteOffset: Layout.nodeChildren, as: LibXML2.Pointer?.self)
        while let current = child {
            switch current.load(fromByteOffset: Layout.nodeType, as: Int32.self) {
            case 1:
                try charge(16)
                if let text = pending { children.append(.text(text)) }
                pending = nil
                children.append(.element(Self.text(current, Layout.nodeName), current))
            case 4 where keepingCDATA:
                let text = Self.text(current, Layout.nodeContent)
                try charge(text.utf8.count + 16)
                if let text = pending { children.append(.text(text)) }
                pending = nil
                children.append(.cdata(text))
            case 3, 4:
                let text = Self.text(current, Layout.nodeContent)
                try charge(text.utf8.count + 16)
                pending = (pending ?? "") + text
            case 7:
                let target = Self.text(current, Layout.nodeName)
                let data = Self.text(current, Layout.nodeContent)
                try charge(target.utf8.count + data.utf8.count + 16)
                if let text = pending { children.append(.text(text)) }
                pending = nil
                children.append(.instruction(target: target, data: data))
            default: break // comments (the text on either side of one stays one text)
            }
            child = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
        }
        if let text = pending { children.append(.text(text)) }
        return (element, children)
    }

    /// Whether an element holds an attribute in the `xml:` namespace (`xml:space`, `xml:lang`): WireMock 2.35.1's
    /// comparison fails on every such document (the transform that drops comments refuses the attribute,
    /// NAMESPACE_ERR), so `equalToXml` matches none, not even the document itself. Read once, over every element.
    lazy var holdsXMLPrefixedAttribute: Bool = {
        guard let root = self.root else { return false }
        var stack = [root]
        while let node = stack.popLast() {
            var attribute = node.load(fromByteOffset: Layout.nodeAttributes, as: LibXML2.Pointer?.self)
            while let current = attribute {
                if Self.namespace(current)?.prefix == "xml" { return true }
                attribute = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
            }
            var child = node.load(fromByteOffset: Layout.nodeChildren, as: LibXML2.Pointer?.self)
            while let current = child {
                if current.load(fromByteOffset: Layout.nodeType, as: Int32.self) == 1 { stack.append(current) }
                child = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
            }
        }
        return false
    }()

    /// Forgets every namespace (elements and attributes keep their local names), as WireMock reads a document for
    /// an XPath expression given no `xPathNamespaces`. The namespace moves to the node's `_private` field, where
    /// ``element(_:)`` finds it to print the node as written.
    func stripNamespaces() {
        guard !namespacesStripped else { return }
        namespacesStripped = true
        moveNamespaces(hiding: true)
    }

    /// Undoes ``stripNamespaces()``, for an XPath expression with `xPathNamespaces` over a body an expression without
    /// them read first.
    func restoreNamespaces() {
        guard namespacesStripped else { return }
        namespacesStripped = false
        moveNamespaces(hiding: false)
    }

    private func moveNamespaces(hiding: Bool) {
        guard let root else { return }
        let move = hiding ? Self.hide : Self.unhide
        var stack = [root]
        while let node = stack.popLast() {
            move(node)
            var attribute = node.load(fromByteOffset: Layout.nodeAttributes, as: LibXML2.Pointer?.self)
            while let current = attribute {
                move(current)
                attribute = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
            }
            var child = node.load(fromByteOffset: Layout.nodeChildren, as: LibXML2.Pointer?.self)
            while let current = child {
                if current.load(fromByteOffset: Layout.nodeType, as: Int32.self) == 1 { stack.append(current) }
                child = current.load(fromByteOffset: Layout.nodeNext, as: LibXML2.Pointer?.self)
            }
        }
    }

    func charge(_ units: Int) throws(XMLError) {
        work += units
        if work > Self.maxWork { throw XMLError("the XML work budget (64 Mi units) is spent") }
        guard work >= nextCPUCheck, let cpuLimit else { return }
        nextCPUCheck = work + Self.cpuCheckUnits
        let used = cpuLimit.clock.elapsedNanoseconds
        if used > cpuLimit.nanoseconds {
            throw XMLError("the XML work stopped after \(used / 1_000_000) ms of CPU: the matching budget is spent", stoppedAtLimit: true)
        }
    }

    /// Units of work between two readings of the CPU clock (a reading is a system call: ~0.3 us).
    static let cpuCheckUnits = 16 << 10

    /// A node's name (an element's local name, a processing instruction's target).
    static func name(_ node: LibXML2.Pointer) -> String { text(node, Layout.nodeName) }

    private static func text(_ node: LibXML2.Pointer, _ offset: Int) -> String {
        node.load(fromByteOffset: offset, as: LibXML2.Text?.self).map { String(cString: $0) } ?? ""
    }

    private static func hide(_ node: LibXML2.Pointer) {
        let namespace = node.load(fromByteOffset: Layout.nodeNamespace, as: LibXML2.Pointer?.self)
        node.storeBytes(of: namespace, toByteOffset: Layout.nodePrivate, as: LibXML2.Pointer?.self)
        node.storeBytes(of: nil, toByteOffset: Layout.nodeNamespace, as: LibXML2.Pointer?.self)
    }

    private static func unhide(_ node: LibXML2.Pointer) {
        let namespace = node.load(fromByteOffset: Layout.nodePrivate, as: LibXML2.Pointer?.self)
        node.storeBytes(of: namespace, toByteOffset: Layout.nodeNamespace, as: LibXML2.Pointer?.self)
        node.storeBytes(of: nil, toByteOffset: Layout.nodePrivate, as: LibXML2.Pointer?.self)
    }

    private static func namespace(_ node: LibXML2.Pointer) -> (uri: String, prefix: String?)? {
        guard
            let namespace = node.load(fromByteOffset: Layout.nodeNamespace, as: LibXML2.Pointer?.self)
                ?? node.load(fromByteOffset: Layout.nodePrivate, as: LibXML2.Pointer?.self)
        else { return nil }
        let uri = namespace.load(fromByteOffset: Layout.namespaceHref, as: LibXML2.Text?.self).map { String(cString: $0) } ?? ""
        return (uri, namespace.load(fromByteOffset: Layout.namespacePrefix, as: LibXML2.Text?.self).map { String(cString: $0) })
    }

    /// Attributes one element may have: libxml2 before 2.12 checks each new one against all before it, so 50,000
    /// on one element took a minute (an outside attack); real documents have a handful.
    static let maxAttributes = 1_000

    /// The most `=` signs outside quotes in one start tag (`<name` to `>`): an upper bound of any element's attribute
    /// count. Comments, CDATA, declarations and processing instructions (`<!`, `<?`) and end tags are not counted.
    static func mostAttributes(_ bytes: [UInt8]) -> Int {
        var most = 0
        var count = 0
        var inTag = false
        var quote: UInt8 = 0
        for (index, byte) in bytes.enumerated() {
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if inTag {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
                case UInt8(ascii: "="): count += 1
                case UInt8(ascii: ">"):
                    most = max(most, count)
                    inTag = false
                default: break
                }
            } else if byte == UInt8(ascii: "<"), index + 1 < bytes.count, !"!?/".utf8.contains(bytes[index + 1]) {
                inTag = true
                count = 0
            }
        }
        return max(most, count)
    }

    static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        var index = 0
        while let found = bytes[index...].firstIndex(of: needle[0]), found + needle.count <= bytes.count {
            if bytes[found..<found + needle.count].elementsEqual(needle) { return true }
            index = found + 1
        }
        return false
    }
}
