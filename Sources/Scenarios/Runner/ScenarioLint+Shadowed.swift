import AutomationSupport

extension ScenarioLint {
    /// `file:line: step "…" matches both …`, once per line: a step text that a built-in step and a step file's
    /// pattern both match (or two step files' patterns), as Cucumber's AMBIGUOUS. The load-time clash check tries
    /// one sample text per pattern; this one tries the texts the features hold, so a pattern that shadows a
    /// built-in step on exactly those texts (`I (do )see "goodbye"`) is refused too, before anything runs.
    package static func ambiguousSteps(_ pickles: [Pickle], userSteps: [UserStep]) -> [String] {
        guard !userSteps.isEmpty else { return [] }
        var problems: [String] = []
        var reported: Set<String> = []
        for pickle in pickles {
            for step in pickle.steps where step.text.utf8.count <= StepCatalog.maxStepBytes {
                // Each match has a work budget (many `{}` against a long step): one spent is a load error naming it.
                var matching: [UserStep] = []
                var spent: UserStep?
                for userStep in userSteps {
                    switch userStep.regex.groups(whole: step.text, budget: UserStep.matchBudget) {
                    case .matched: matching.append(userStep)
                    case .gaveUp: spent = spent ?? userStep
                    case .noMatch: break
                    }
                }
                if let spent {
                    if reported.insert("\(pickle.uri):\(step.line)").inserted {
                        problems.append("\(pickle.uri):\(step.line): " + spent.budgetProblem(step.text))
                    }
                    continue
                }
                guard let first = matching.first else { continue }
                let other: String
                if let (builtIn, _) = StepCatalog.find(step.text) {
                    other = "the built-in step \"\(builtIn.example.split(separator: "\n").first ?? "")\""
                } else if matching.count > 1 {
                    other = "step \"\(matching[1].pattern)\" (\(matching[1].source))"
                } else {
                    continue
                }
                guard reported.insert("\(pickle.uri):\(step.line)").inserted else { continue }
                problems.append(
                    "\(pickle.uri):\(step.line): step \"\(step.text.prefix(120))\" matches both \(other) and step \"\(first.pattern)\" "
                        + "(\(first.source)); change the pattern so one step matches (as Cucumber, which calls it ambiguous)")
            }
        }
        return problems.map { $0.escapingControlCharacters() }
    }
}
