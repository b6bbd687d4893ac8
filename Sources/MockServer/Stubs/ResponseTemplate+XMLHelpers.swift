import XMLSupport

// MARK: - XML helpers: xPath, soapXPath (libxml2 through XMLSupport)

extension ResponseTemplate.Renderer {
    /// WireMock 2.35's `{{xPath text 'expr'}}` and `{{soapXPath text 'expr'}}` (`/Envelope/Body/` + expr, namespaces
    /// stripped): the first node found (an element printed as WireMock prints it, any other node's text), nothing when
    /// none is, and WireMock's `[ERROR: …]` texts for a text that is not XML or an expression that finds no nodes.
    /// The body's bytes are charged as parsing, the result as output.
    mutating func xmlHelper(_ helper: String, _ arguments: [Value]) throws(RenderError) -> Value? {
        guard helper == "xPath" || helper == "soapXPath" else { return nil }
        let body = try text(arguments.first ?? .null, at: helper)
        let expression =
            (helper == "soapXPath" ? "/Envelope/Body/" : "") + (try text(arguments.count > 1 ? arguments[1] : .null, at: helper))
        try charge((body.utf8.count + expression.utf8.count) * ResponseTemplate.xmlParseCost, at: helper)
        let result: XPathQuery.Result
        // The evaluation may use the CPU the work budget has left (15 ns a unit: 64 Mi units is about a second), and
        // is charged what it used; stopped there, the budget is spent.
        var used = 0
        do {
            result = try XPathQuery(expression).evaluate(
                body, cpuLimitNanoseconds: remainingWork * ResponseTemplate.cpuNanosecondsPerUnit, cpuUsed: &used)
        } catch {
            if error.stoppedAtLimit { throw .budget(ResponseTemplate.workBudget, at: helper) }
            try charge(used / ResponseTemplate.cpuNanosecondsPerUnit, at: helper)
            do { _ = try XML.parse(body) } catch {
                // WireMock reads XML nested past 256 levels (thousands deep): a limit of ours is named, never said of the XML.
                if error.isReadersLimit {
                    throw RenderError(
                        status: 500,
                        description:
                            "template: {{\(helper)}}: the XML is past this server's reader's limits (\(error.message.prefix(120))): "
                            + "WireMock reads it, this answer is not made here")
                }
                return .string("[ERROR: \(body) is not valid XML]")
            }
            return .string("[ERROR: \(expression) is not a valid XPath expression]")
        }
        try charge(used / ResponseTemplate.cpuNanosecondsPerUnit, at: helper)
        guard case .nodes(let nodes) = result else { return .string("[ERROR: \(expression) is not a valid XPath expression]") }
        let first = nodes.first?.text ?? ""
        try charge(first.utf8.count * ResponseTemplate.printCost, at: helper)
        return .string(first)
    }
}
