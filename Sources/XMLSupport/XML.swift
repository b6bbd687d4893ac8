import AutomationSupport

/// The XML engine: the system's libxml2, loaded on first use. A document is used only on the thread that parsed it
/// (a request's body, once for all its matchers: ``XMLBody``), so connection threads evaluate concurrently.
package enum XML {
    /// Why XML matchers and helpers cannot work in this process (no libxml2, a static executable), or nil when they
    /// can. Asking loads libxml2 (once).
    package static var unavailableReason: String? {
        if case .failure(let error) = LibXML2.shared { return error.message }
        return nil
    }

    /// True once a mapping asked for libxml2 in a static executable, which cannot load it: the command line then
    /// hands the whole command to `sut-launch-foundation` (a dynamic C library), as it does for `--https`.
    package static var refusedInStaticExecutable: Bool { staticRefusal.current }

    static let staticRefusal = Locked(false)

    /// The root element of `text`, parsed securely (no network, no entities, libxml2's depth and size limits).
    package static func parse(_ text: String) throws(XMLError) -> XMLElement {
        let library = try LibXML2.shared.get()
        let document = try XMLDocument(text, library: library)
        guard let root = document.root else { throw XMLError("XML without a root element") }
        return try document.element(root)
    }
}
