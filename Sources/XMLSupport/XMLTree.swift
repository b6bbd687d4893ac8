/// An element of a parsed document, as the XML matchers and helpers see it: its local name, namespace URI,
/// attributes and children (elements, text and processing instructions; adjacent text and CDATA are one text,
/// comments are left out).
package struct XMLElement: Sendable, Equatable {
    package var name: String
    package var namespace: String?
    /// The prefix it was written with and the namespaces it declares (`xmlns:p`), for printing only.
    package var prefix: String?
    package var declarations: [XMLNamespace] = []
    package var attributes: [XMLAttribute]
    package var children: [XMLChild]

    package init(
        name: String, namespace: String? = nil, prefix: String? = nil, attributes: [XMLAttribute] = [], children: [XMLChild] = []
    ) {
        self.name = name
        self.namespace = namespace
        self.prefix = prefix
        self.attributes = attributes
        self.children = children
    }
}

package struct XMLAttribute: Sendable, Equatable {
    package var name: String
    package var namespace: String?
    package var prefix: String?
    package var value: String

    var qualifiedName: String { prefix.map { "\($0):\(name)" } ?? name }
}

/// A namespace declaration: `xmlns="uri"` (no prefix) or `xmlns:p="uri"`.
package struct XMLNamespace: Sendable, Equatable {
    package var prefix: String?
    package var uri: String
}

package indirect enum XMLChild: Sendable, Equatable {
    case element(XMLElement)
    case text(String)
    /// A CDATA section, where a document is read for printing (a comparison reads it as text).
    case cdata(String)
    /// `<?target data?>`: data as written after the white space that follows the target.
    case instruction(target: String, data: String)
}

extension XMLElement {
    /// XPath's string value: the text of every descendant, in order.
    package var stringValue: String {
        children.map {
            switch $0 {
            case .element(let element): element.stringValue
            case .text(let text), .cdata(let text): text
            case .instruction: ""
            }
        }.joined()
    }

    /// The element as WireMock 2.35 prints a node (Java's Transformer, indented by 2, no declaration): an element
    /// holding text alone on one line, one with child elements a line per child, text in mixed content trimmed on a
    /// line of its own, a processing instruction on a line of its own as written (`<?pi d ?>`, `<?pi?>`); a final
    /// newline. A CDATA section is printed as one (see ``renderWithCDATA(_:into:depth:)``).
    package var rendered: String {
        var out = ""
        render(into: &out, depth: 0)
        return out
    }

    private func render(into out: inout String, depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        let name = prefix.map { "\($0):\(self.name)" } ?? self.name
        out += indent + "<" + name
        for declaration in declarations {
            out += " xmlns" + (declaration.prefix.map { ":" + $0 } ?? "") + "=\"\(Self.escape(declaration.uri, quote: true))\""
        }
        for attribute in attributes { out += " \(attribute.qualifiedName)=\"\(Self.escape(attribute.value, quote: true))\"" }
        // An empty section prints nothing, as in Java's printing (`<a><![CDATA[]]></a>` is `<a/>`).
        let children = self.children.filter { if case .cdata(let text) = $0 { !text.isEmpty } else { true } }
        if children.contains(where: { if case .cdata = $0 { true } else { false } }) {
            renderWithCDATA(children, into: &out, depth: depth)
            return
        }
        let meaningful = children.filter {
            if case .text(let text) = $0 { return !text.allSatisfy(\.isXMLSpace) }
            return true
        }
        if meaningful.isEmpty {
            out += "/>\n"
            return
        }
        if meaningful.count == 1, case .text(let text) = meaningful[0] {
            out += ">" + Self.escape(text, quote: false) + "</" + name + ">\n"
            return
        }
        out += ">\n"
        for child in meaningful {
            switch child {
            case .element(let element): element.render(into: &out, depth: depth + 1)
            case .text(let text): out += indent + "  " + Self.escape(text.trimmingXMLSpace, quote: false) + "\n"
            case .cdata(let text): out += indent + "  <![CDATA[" + text + "]]>\n"
            case .instruction(let target, let data): out += indent + "  <?" + target + (data.isEmpty ? "" : " " + data) + "?>\n"
            }
        }
        out += indent + "</" + name + ">\n"
    }

    /// The children of an element holding a CDATA section, as Java's Transformer (JDK 17, indenting) prints them,
    /// measured against WireMock 2.35.1: text and sections alone on the element's line, as written; beside elements or
    /// processing instructions and text that is not white space, each child on a line of its own, text trimmed;
    /// beside elements or instructions alone, a section follows what comes before it on its line, an element or
    /// instruction after it starts a line, and the end tag follows a section or instruction on its line.
    private func renderWithCDATA(_ children: [XMLChild], into out: inout String, depth: Int) {
        let indent = String(repeating: "  ", count: depth)
        let name = prefix.map { "\($0):\(self.name)" } ?? self.name
        let structured = children.contains {
            switch $0 {
            case .element, .instruction: true
            default: false
            }
        }
        let mixedText = children.contains { if case .text(let text) = $0 { !text.allSatisfy(\.isXMLSpace) } else { false } }
        out += ">"
        if !structured {
            for child in children {
                if case .text(let text) = child { out += Self.escape(text, quote: false) }
                if case .cdata(let text) = child { out += "<![CDATA[" + text + "]]>" }
            }
            out += "</" + name + ">\n"
            return
        }
        if mixedText {
            out += "\n"
            for child in children {
                switch child {
                case .element(let element): element.render(into: &out, depth: depth + 1)
                case .text(let text) where !text.allSatisfy(\.isXMLSpace):
                    out += indent + "  " + Self.escape(text.trimmingXMLSpace, quote: false) + "\n"
                case .text: break
                case .cdata(let text): out += indent + "  <![CDATA[" + text + "]]>\n"
                case .instruction(let target, let data): out += indent + "  <?" + target + (data.isEmpty ? "" : " " + data) + "?>\n"
                }
            }
            out += indent + "</" + name + ">\n"
            return
        }
        enum Last { case start, element, glued, text }
        var last = Last.start
        for child in children {
            switch child {
            case .element(let element):
                out += "\n"
                element.render(into: &out, depth: depth + 1)
                out.removeLast()
                last = .element
            case .instruction(let target, let data):
                out += "\n" + indent + "  <?" + target + (data.isEmpty ? "" : " " + data) + "?>"
                last = .glued
            case .cdata(let text):
                out += "<![CDATA[" + text + "]]>"
                last = .glued
            case .text(let text):
                // White space only here: after a section on a line of its own, else where it stands.
                if case .glued = last {
                    out += "\n" + indent + "  " + text
                    last = .text
                } else {
                    out += text
                }
            }
        }
        switch last {
        case .element, .text: out += "\n" + indent + "</" + name + ">\n"
        default: out += "</" + name + ">\n"
        }
    }

    static func escape(_ text: String, quote: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"" where quote: out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }
}

extension Character {
    /// XML's white space: space, tab, CR, LF.
    var isXMLSpace: Bool { self == " " || self == "\t" || self == "\n" || self == "\r" || self == "\r\n" }
}

extension String {
    var trimmingXMLSpace: String {
        guard let first = firstIndex(where: { !$0.isXMLSpace }), let last = lastIndex(where: { !$0.isXMLSpace }) else { return "" }
        return String(self[first...last])
    }
}
