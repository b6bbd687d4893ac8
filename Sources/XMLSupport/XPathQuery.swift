import AutomationSupport

/// An XPath 1.0 expression (libxml2's), checked when the mapping loads and compiled again for each evaluation.
package struct XPathQuery: Sendable {
    package let source: String
    /// Prefixes and their URIs (`xPathNamespaces`). Without any, the document's namespaces are stripped first, as
    /// WireMock does, so `/Envelope/Body` finds `soap:Envelope/soap:Body`.
    package let namespaces: [(prefix: String, uri: String)]

    /// What an expression gives.
    package enum Result: Sendable, Equatable {
        case nodes([Node])
        case boolean(Bool)
        case number(Double)
        case string(String)
    }

    /// A node found: an element (printed as WireMock prints it), or the text WireMock gives any other node (an
    /// attribute's or text's value; a CDATA section, comment or processing instruction as Java's DOM names it:
    /// `[#cdata-section: y]`, `[#comment: c]`, `[target: data]`).
    package enum Node: Sendable, Equatable {
        case element(XMLElement)
        case text(String)

        /// The text WireMock matches a sub-matcher against and `xPath` prints.
        package var text: String {
            switch self {
            case .element(let element): element.rendered
            case .text(let text): text
            }
        }
    }

    /// libxml2's XPath operation limit per evaluation: an expression like `//*[count(//*) > 0]` over a big body stops.
    /// 20,000,000 let `//*//*//*//*//*//*//*` run 22 s over 150 KB (an outside attack); 2,000,000 still visits every
    /// node of a 16 MiB body a few times.
    static let operationLimit = 2_000_000
    /// At most this many nodes of a result are read.
    static let maxNodes = 100_000

    /// Compiles `source` once to check it (loading libxml2). - Throws: ``XMLError`` saying why.
    package init(_ source: String, namespaces: [(prefix: String, uri: String)] = []) throws(XMLError) {
        self.source = source
        self.namespaces = namespaces
        guard source.utf8.count <= 64 << 10 else { throw XMLError("an XPath expression longer than 64 KiB is refused") }
        guard !source.contains("\0") else { throw XMLError("an XPath expression holds a NUL") }
        let library = try LibXML2.shared.get()
        library.quiet()
        guard let context = library.newContext(nil) else { throw XMLError("libxml2 could not make an XPath context") }
        defer { library.freeContext(context) }
        try register(library, context)
        guard let compiled = library.compile(context, source) else {
            throw XMLError("invalid XPath expression \"\(source)\": \(library.lastMessage() ?? "libxml2 refused it")")
        }
        library.freeCompiled(compiled)
    }

    /// The CPU one evaluation may use when its caller gives no limit.
    package static let defaultCPULimitNanoseconds = 1_000_000_000

    /// The expression's value over `text`. - Throws: ``XMLError`` when `text` is not XML, the expression fails on it
    /// (an unbound prefix), or a budget is spent.
    package func evaluate(_ text: String) throws(XMLError) -> Result {
        var used = 0
        return try evaluate(text, cpuLimitNanoseconds: Self.defaultCPULimitNanoseconds, cpuUsed: &used)
    }

    /// The expression's value over a body parsed once for every matcher that reads it, with the default CPU limit.
    package func evaluate(_ body: XMLBody) throws(XMLError) -> Result {
        var used = 0
        return try evaluate(body, cpuLimitNanoseconds: Self.defaultCPULimitNanoseconds, cpuUsed: &used)
    }

    /// The expression's value over `text`, stopped once the parse, the evaluation and the reading of the nodes found
    /// have used `cpuLimitNanoseconds` of CPU (``XPathWatchdog`` for libxml2's evaluation: its operation limit alone
    /// let one request spend 16 s; ``XMLDocument/cpuLimit`` for the nodes read); the CPU the evaluation used is added
    /// to `cpuUsed`, for the caller's budget (request matching charges the whole call's CPU: ``MatchBudget``). - Throws: ``XMLError`` as ``evaluate(_:)``, and when stopped at the limit.
    package func evaluate(_ text: String, cpuLimitNanoseconds: Int, cpuUsed: inout Int) throws(XMLError) -> Result {
        try evaluate(XMLBody(text), cpuLimitNanoseconds: cpuLimitNanoseconds, cpuUsed: &cpuUsed)
    }

    /// The same over a body parsed once for every matcher that reads it (parsed here when none did before; the
    /// CPU limit counts the parse then).
    package func evaluate(_ body: XMLBody, cpuLimitNanoseconds: Int, cpuUsed: inout Int) throws(XMLError) -> Result {
        let clock = ThreadCPUClock.current()
        let document = try body.document()
        let library = document.library
        library.quiet() // this thread's, which may not be the one that parsed the body
        document.begin(clock, cpuLimitNanoseconds: cpuLimitNanoseconds)
        if namespaces.isEmpty { document.stripNamespaces() } else { document.restoreNamespaces() }
        guard let context = library.newContext(document.pointer) else { throw XMLError("libxml2 could not make an XPath context") }
        defer { library.freeContext(context) }
        context.storeBytes(of: UInt(Self.operationLimit), toByteOffset: Layout.contextOpLimit, as: UInt.self)
        try register(library, context)
        guard let compiled = library.compile(context, source) else { throw XMLError("invalid XPath expression \"\(source)\"") }
        defer { library.freeCompiled(compiled) }
        let spent = clock?.elapsedNanoseconds ?? 0
        guard let watch = XPathWatchdog.shared.begin(context, limitNanoseconds: max(0, cpuLimitNanoseconds - spent)) else {
            throw XMLError("XPath \"\(source)\" was not evaluated: its CPU time cannot be watched here")
        }
        let evaluated = library.evaluate(compiled, context)
        let (used, stopped) = XPathWatchdog.shared.end(watch)
        cpuUsed += used
        if stopped {
            if let evaluated { library.freeObject(evaluated) }
            throw XMLError("XPath \"\(source)\" stopped after \(used / 1_000_000) ms of CPU, its limit", stoppedAtLimit: true)
        }
        guard let object = evaluated else {
            // libxml2 sets opCount to opLimit when it stops there: a budget spent, not an expression that fails.
            let limited = context.load(fromByteOffset: Layout.contextOpCount, as: UInt.self) >= UInt(Self.operationLimit)
            throw XMLError(
                "XPath \"\(source)\" failed: \(library.lastMessage() ?? "libxml2 gave no value")", stoppedAtLimit: limited)
        }
        defer { library.freeObject(object) }
        switch object.load(fromByteOffset: Layout.objectType, as: Int32.self) {
        case 1: return .nodes(try nodes(object, document))
        case 2: return .boolean(object.load(fromByteOffset: Layout.objectBool, as: Int32.self) != 0)
        case 3: return .number(object.load(fromByteOffset: Layout.objectNumber, as: Double.self))
        case 4:
            return .string(object.load(fromByteOffset: Layout.objectString, as: LibXML2.Text?.self).map { String(cString: $0) } ?? "")
        default: throw XMLError("XPath \"\(source)\" gave a value of a kind XPath 1.0 does not have")
        }
    }

    private func nodes(_ object: LibXML2.Pointer, _ document: XMLDocument) throws(XMLError) -> [Node] {
        guard let set = object.load(fromByteOffset: Layout.objectNodes, as: LibXML2.Pointer?.self) else { return [] }
        let count = Int(set.load(fromByteOffset: Layout.setCount, as: Int32.self))
        guard count > 0, let table = set.load(fromByteOffset: Layout.setNodes, as: UnsafeMutablePointer<LibXML2.Pointer?>?.self) else {
            return []
        }
        var found: [Node] = []
        for index in 0..<min(count, Self.maxNodes) {
            guard let node = table[index] else { continue }
            switch node.load(fromByteOffset: Layout.nodeType, as: Int32.self) {
            case 1: found.append(.element(try document.element(node, keepingCDATA: true)))
            case 9, 13: if let root = document.root { found.append(.element(try document.element(root, keepingCDATA: true))) }
            case 3 where Self.followsText(node), 4 where Self.followsText(node):
                // Java's XPath reads a run of adjacent text and CDATA as one text node, found as the run's first node:
                // `//a/text()` over `<a>x<![CDATA[y]]></a>` is `x` alone in WireMock, never `y` nor `xy`.
                continue
            case 4, 7, 8:
                // Java's DOM node printed by its toString: `[name: value]` (WireMock's XmlNode prints only elements,
                // documents, attributes and texts its own way).
                let kind = node.load(fromByteOffset: Layout.nodeType, as: Int32.self)
                let name = kind == 4 ? "#cdata-section" : kind == 8 ? "#comment" : XMLDocument.name(node)
                let text = "[\(name): \(document.library.take(document.library.nodeString(node)))]"
                try document.charge(text.utf8.count + 16)
                found.append(.text(text))
            default:
                let text = document.library.take(document.library.nodeString(node))
                try document.charge(text.utf8.count + 16)
                found.append(.text(text))
            }
        }
        return found
    }

    /// Whether `node` (a text or CDATA section) comes right after another.
    private static func followsText(_ node: LibXML2.Pointer) -> Bool {
        guard let previous = node.load(fromByteOffset: Layout.nodePrevious, as: LibXML2.Pointer?.self) else { return false }
        let kind = previous.load(fromByteOffset: Layout.nodeType, as: Int32.self)
        return kind == 3 || kind == 4
    }

    private func register(_ library: LibXML2, _ context: LibXML2.Pointer) throws(XMLError) {
        for (prefix, uri) in namespaces where library.registerNamespace(context, prefix, uri) != 0 {
            throw XMLError("cannot register the XPath namespace prefix \"\(prefix)\"")
        }
    }
}
