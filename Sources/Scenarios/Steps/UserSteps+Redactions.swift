import AutomationSupport

extension UserSteps {
    /// The `"redactions": {"NAME": "REGEX", …}` of step files written as an object (`{"steps": […], "redactions": …}`),
    /// in file order, then member order; problems name the file and line.
    package static func redactions(_ paths: [String]) -> (redactions: [Redaction], problems: [String]) {
        var redactions: [Redaction] = []
        var problems: [String] = []
        for path in paths {
            guard let bytes = FileSystem.read(path), let root = try? JSONParser.parse(bytes), let node = root["redactions"] else {
                continue
            }
            guard let members = node.members else {
                problems.append("\(path):\(node.position.line): \"redactions\" must be an object {\"NAME\": \"REGEX\"}")
                continue
            }
            for member in members {
                let source = "\(path):\(member.keyPosition.line)"
                guard let pattern = member.value.string else {
                    problems.append("\(source): redaction \(member.key.prefix(40)) needs a pattern string")
                    continue
                }
                do { redactions.append(try Redaction(name: member.key, pattern: pattern, source: source)) } catch {
                    problems.append("\(source): \(error.message)")
                }
            }
        }
        return (redactions, problems)
    }
}
