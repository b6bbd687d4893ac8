/// The one scan of a Scenario Outline's text for its `<name>` spans, which filling (``OutlineTemplate``) and linting
/// (``OutlineLint/placeholders(_:)``) both read, so that a span one finds is the span the other finds. A span is `<`,
/// a name without `<` or `>`, then `>`: a `<` restarts a span (`<<a>` is `<a>` after a `<`), a `>` with no `<` open
/// is text.
enum OutlinePlaceholders {
    /// Calls `visit` with each span (from its `<` to past its `>`) and the name inside it, in order, until `visit`
    /// returns false. Linear in the text: each byte is looked at once.
    static func scan(_ text: String, _ visit: (_ span: Range<String.Index>, _ name: Substring) -> Bool) {
        let utf8 = text.utf8
        var open: String.Index?
        var position = utf8.startIndex
        while position < utf8.endIndex {
            let byte = utf8[position]
            if byte == UInt8(ascii: "<") {
                open = position
            } else if byte == UInt8(ascii: ">"), let start = open {
                open = nil
                let end = utf8.index(after: position)
                guard visit(start..<end, text[utf8.index(after: start)..<position]) else { return }
            }
            position = utf8.index(after: position)
        }
    }
}
