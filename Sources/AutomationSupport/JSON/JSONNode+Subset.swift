extension JSONNode {
    /// As the expected side of a subset match (extra members and elements allowed), this value names nothing a body
    /// could hold but its shape: `{}`, `[]`, or an object whose members are only those (`{"items": []}`). Every body
    /// of that shape includes it, so an assertion on it could never fail on content.
    package var includesNothing: Bool {
        switch value {
        case .array(let elements): elements.isEmpty
        case .object(let members): members.allSatisfy { $0.value.includesNothing }
        default: false
        }
    }
}
