import AutomationSupport

extension ScenarioLint {
    /// `file:line: step "…" matches both …`, once per line: a step text that a built-in step and a step file's
    /// pattern both match (or two step files' patterns), as Cucumber's AMBIGUOUS. The load-time clash check tries
    /// one sample text per pattern; this one tries the texts the features hold, so a pattern that shadows a
    /// built-in step on exactly those texts (`I (do )see "goodbye"`) is refused too, before anything runs.
    /// Each step text tries only the patterns whose literal head it starts with (``UserStepIndex``); each match has
    /// ``UserStep/matchBudget``, and all the matches against one step file ``UserStep/fileBudget``.
    /// - Parameter fileBudget: the work all the matches against one step file may spend (``UserStep/fileBudget``).
    package static func ambiguousSteps(_ pickles: [Pickle], userSteps: [UserStep], fileBudget: Int = UserStep.fileBudget) -> [String] {
        guard !userSteps.isEmpty else { return [] }
        let index = UserStepIndex(userSteps)
        var problems: [String] = []
        var reported: Set<String> = []
        var budget = FileBudget(index, limit: fileBudget)
        for pickle in pickles {
            for step in pickle.steps where step.text.utf8.count <= StepCatalog.maxStepBytes {
                // Each match has a work budget (many `{}` against a long step): one spent is a load error naming it.
                var matching: [UserStep] = []
                var spent: UserStep?
                for userStep in index.candidates(for: step.text) where !budget.isSpent(userStep) {
                    var units = 0
                    let answer = userStep.regex.groups(whole: step.text, budget: UserStep.matchBudget, spent: &units)
                    if let problem = budget.spend(units, on: userStep) { problems.append(problem) }
                    switch answer {
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

    /// The work spent matching the run's steps against each step file; a file past its budget is named
    /// once, and its patterns are tried no more (the load ends with that error).
    struct FileBudget {
        private var spent: [String: Int] = [:]
        private var over: Set<String> = []
        private let patterns: [String: Int]
        private let limit: Int

        init(_ index: UserStepIndex, limit: Int) {
            patterns = Dictionary(index.steps.map { ($0.file, 1) }, uniquingKeysWith: +)
            self.limit = limit
        }

        func isSpent(_ step: UserStep) -> Bool { over.contains(step.file) }

        /// Counts `units` against `step`'s file; the problem when this spent the file's budget.
        mutating func spend(_ units: Int, on step: UserStep) -> String? {
            spent[step.file, default: 0] += units
            guard spent[step.file, default: 0] > limit, over.insert(step.file).inserted else { return nil }
            return UserStep.fileBudgetProblem(step.file, patterns: patterns[step.file] ?? 0, budget: limit)
        }
    }
}
