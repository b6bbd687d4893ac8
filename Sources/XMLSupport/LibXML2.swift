import AutomationSupport

/// libxml2's functions, resolved at run time from the system's `libxml2.so.2` (as `LibSSL` resolves OpenSSL): no
/// header and no link-time dependency. Each field's type is the C declaration, written here; pointers to libxml2's
/// structs are raw, and the few fields read are at the offsets of libxml2 2.9's public structs (``Layout``), the same
/// on every 64-bit build of the `.so.2` ABI. Loaded once, the first time a mapping uses an XML matcher or helper.
struct LibXML2: @unchecked Sendable {
    typealias Pointer = UnsafeMutableRawPointer
    typealias Text = UnsafePointer<CChar>
    typealias ErrorHandler = @convention(c) (Pointer?, Pointer?) -> Void
    typealias FreeFunction = @convention(c) (Pointer?) -> Void

    static let libraryName = "libxml2.so.2"
    static let debianPackage = "libxml2"
    /// The oldest release whose XPath context has an operation limit (`opLimit`, 2.9.11): without it an expression
    /// over a big body has no budget, so an older libxml2 is refused.
    static let minimumVersion = 20911

    let initParser: @convention(c) () -> Void
    let readMemory: @convention(c) (Text?, Int32, Text?, Text?, Int32) -> Pointer?
    let freeDocument: @convention(c) (Pointer?) -> Void
    let rootElement: @convention(c) (Pointer?) -> Pointer?
    let newContext: @convention(c) (Pointer?) -> Pointer?
    let freeContext: @convention(c) (Pointer?) -> Void
    let registerNamespace: @convention(c) (Pointer?, Text?, Text?) -> Int32
    let compile: @convention(c) (Pointer?, Text?) -> Pointer?
    let freeCompiled: @convention(c) (Pointer?) -> Void
    let evaluate: @convention(c) (Pointer?, Pointer?) -> Pointer?
    let freeObject: @convention(c) (Pointer?) -> Void
    let nodeString: @convention(c) (Pointer?) -> UnsafeMutablePointer<CChar>?
    let setStructuredErrors: @convention(c) (Pointer?, ErrorHandler?) -> Void
    /// `xmlSetGenericErrorFunc`: the handler of the lines libxml2 prints without an error record (`XPath operation
    /// limit exceeded`, `xmlXPathRunEval: last is less than zero`). Its C type is variadic; the no-op given reads none
    /// of the arguments, which the C calling conventions allow.
    let setGenericErrors: @convention(c) (Pointer?, ErrorHandler?) -> Void
    /// The same two for threads whose libxml2 state is made later (`xmlThrDefSet…`), set once at load.
    let setDefaultStructuredErrors: @convention(c) (Pointer?, ErrorHandler?) -> Void
    let setDefaultGenericErrors: @convention(c) (Pointer?, ErrorHandler?) -> Void
    let lastError: @convention(c) () -> Pointer?
    let resetLastError: @convention(c) () -> Void
    let freeFunction: FreeFunction

    /// libxml2, loaded once per process; or why there is none.
    static let shared: Result<LibXML2, XMLError> = load()

    /// Why this process cannot load libxml2 at all: it is one static executable (``SharedLibrary/inStaticExecutable``).
    static let staticExecutableReason =
        "this sut-launch is one static executable, which cannot load libxml2 safely; run sut-launch-foundation (installed beside it, with a dynamic C library) for stubs with XML matchers"

    /// Loads `name` (tests name one that is missing).
    static func load(_ name: String = libraryName) -> Result<LibXML2, XMLError> {
        if SharedLibrary.inStaticExecutable {
            XML.staticRefusal.withLock { $0 = true }
            return .failure(XMLError(staticExecutableReason))
        }
        guard let library = SharedLibrary.open(firstOf: [name]) else {
            return .failure(XMLError("\(name) was not found (install the \(debianPackage) package)"))
        }
        do {
            let loaded = try LibXML2(library)
            loaded.initParser() // once, before any thread parses
            loaded.setDefaultStructuredErrors(nil, { _, _ in })
            loaded.setDefaultGenericErrors(nil, { _, _ in })
            return .success(loaded)
        } catch {
            return .failure(error)
        }
    }

    private init(_ library: SharedLibrary) throws(XMLError) {
        func f<T>(_ symbol: String) throws(XMLError) -> T {
            guard let function = library.function(symbol, as: T.self) else { throw XMLError("\(library.name) lacks \(symbol)") }
            return function
        }
        let version: @convention(c) () -> UnsafeMutablePointer<Text?>? = try f("__xmlParserVersion")
        let number = version()?.pointee.flatMap { Int(String(cString: $0)) } ?? 0
        guard number >= Self.minimumVersion else {
            throw XMLError("\(library.name) is version \(number), older than 2.9.11 (no XPath operation limit)")
        }
        // `xmlFree` is a variable holding the function (a per-thread one behind `__xmlFree()` in builds with
        // LIBXML_THREAD_ALLOC_ENABLED, which Debian's is not).
        let variable =
            library.function("xmlFree", as: UnsafeMutablePointer<FreeFunction?>.self)
            ?? library.function("__xmlFree", as: (@convention(c) () -> UnsafeMutablePointer<FreeFunction?>?).self)?()
        guard let freeFunction = variable?.pointee else { throw XMLError("\(library.name) has no xmlFree") }
        self.freeFunction = freeFunction
        initParser = try f("xmlInitParser")
        readMemory = try f("xmlReadMemory")
        freeDocument = try f("xmlFreeDoc")
        rootElement = try f("xmlDocGetRootElement")
        newContext = try f("xmlXPathNewContext")
        freeContext = try f("xmlXPathFreeContext")
        registerNamespace = try f("xmlXPathRegisterNs")
        compile = try f("xmlXPathCtxtCompile")
        freeCompiled = try f("xmlXPathFreeCompExpr")
        evaluate = try f("xmlXPathCompiledEval")
        freeObject = try f("xmlXPathFreeObject")
        nodeString = try f("xmlXPathCastNodeToString")
        setStructuredErrors = try f("xmlSetStructuredErrorFunc")
        setGenericErrors = try f("xmlSetGenericErrorFunc")
        setDefaultStructuredErrors = try f("xmlThrDefSetStructuredErrorFunc")
        setDefaultGenericErrors = try f("xmlThrDefSetGenericErrorFunc")
        lastError = try f("xmlGetLastError")
        resetLastError = try f("xmlResetLastError")
    }

    /// Silences libxml2's error printing on this thread (its handlers are per thread) and forgets the last error:
    /// nothing libxml2 says reaches stderr (r9a B12: an XPath stopped at its budget printed three bare lines of its
    /// own through the generic handler); what it says is read back (``lastMessage()``) into the tool's own lines.
    func quiet() {
        setStructuredErrors(nil, { _, _ in })
        setGenericErrors(nil, { _, _ in })
        resetLastError()
    }

    /// The message of this thread's last libxml2 error, one line.
    func lastMessage() -> String? {
        guard let error = lastError(), let message = error.load(fromByteOffset: Layout.errorMessage, as: Text?.self) else { return nil }
        return String(cString: message).split(whereSeparator: \.isNewline).joined(separator: " ").trimmingXMLSpace
    }

    /// Text libxml2 allocated, copied and freed.
    func take(_ text: UnsafeMutablePointer<CChar>?) -> String {
        guard let text else { return "" }
        defer { freeFunction(text) }
        return String(cString: text)
    }
}

/// Offsets of the fields read in libxml2's public structs (`xmlNode`, `xmlAttr`, `xmlNs`, `xmlDoc`, `xmlXPathObject`,
/// `xmlNodeSet`, `xmlError`, `xmlXPathContext`), LP64, as tree.h, xpath.h and xmlerror.h of 2.9.11+ declare them
/// (measured with offsetof against 2.9.14's headers; the fields before `opLimit` are unchanged through 2.14's).
enum Layout {
    static let nodeType = 8, nodeName = 16, nodeChildren = 24, nodeNext = 48, nodeNamespace = 72, nodeContent = 80
    static let nodePrivate = 0, nodePrevious = 56, nodeAttributes = 88, nodeDeclarations = 96
    static let namespaceNext = 0, namespaceHref = 16, namespacePrefix = 24
    static let objectType = 0, objectNodes = 8, objectBool = 16, objectNumber = 24, objectString = 32
    static let setCount = 0, setNodes = 8
    static let errorMessage = 8
    static let contextOpLimit = 352, contextOpCount = 360
}
