import AutomationHost
package import AutomationSupport

extension FlagValue {
    /// Converts a parsed JSON node into a flag value.
    package init(_ node: JSONNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .double(number)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .array(elements.map(FlagValue.init))
        case .object(let members):
            self = .object(Dictionary(members.map { ($0.key, FlagValue($0.value)) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
