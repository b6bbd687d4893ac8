import AutomationSupport

/// What a file's Gherkin documents and test cases define, read into its ``MessagesReader/FileState``.
extension MessagesReader {
    /// A document's feature name and its steps' keywords.
    func document<Value: JSONReading>(_ value: Value, _ state: inout FileState) {
        guard let uri = value["uri"]?.string, let feature = value["feature"] else { return }
        state.features[uri] = feature["name"]?.string ?? ""
        func steps(_ node: Value?) {
            for step in node?.list("steps") ?? Value.noElements {
                if let id = step["id"]?.string { state.keywords[id] = step["keyword"]?.string ?? "" }
            }
        }
        for child in feature.list("children") {
            steps(child["background"])
            steps(child["scenario"])
            for inner in child["rule"]?.list("children") ?? Value.noElements {
                steps(inner["background"])
                steps(inner["scenario"])
            }
        }
    }

    func testCase(_ value: some JSONReading, _ state: inout FileState, at place: Place) throws(Problem) {
        guard let id = value["id"]?.string, let pickleId = value["pickleId"]?.string, let pickle = state.pickles[pickleId] else {
            throw Problem(description: "\(place): a testCase whose pickle is not in the file before it")
        }
        guard state.cases[id] == nil else { throw Problem(description: "\(place): a second testCase with id \(id.prefix(80))") }
        var steps: [(id: String, text: String, argument: String?)] = []
        for step in value.list("testSteps") {
            guard let stepId = step["id"]?.string else { continue }
            if let hook = step["hookId"]?.string {
                steps.append((stepId, state.hooks[hook] ?? "hook", nil))
                continue
            }
            // A step of no pickle step of its pickle: rendered, it was a failing step with no text (R10B-3).
            let pickleStep = step["pickleStepId"]?.string
            if let pickleStep, pickle.steps[pickleStep] == nil {
                throw Problem(
                    description:
                        "\(place): testCase \(Self.shown(id)): its step \(Self.shown(stepId)) names pickleStepId \(Self.shown(pickleStep)), "
                        + "which its pickle \(Self.shown(pickleId)) does not hold")
            }
            steps.append((stepId, pickleStep.flatMap { pickle.steps[$0] } ?? "", pickleStep.flatMap { state.arguments[$0] }))
        }
        // A pickle step with no test step: its result could not be read, and the scenario would pass on the steps left
        // (r15b R15B-5: the failed step left out of its test case made a green report and nothing to rerun).
        let covered = Set(value.list("testSteps").compactMap { $0["pickleStepId"]?.string })
        if let left = pickle.steps.keys.filter({ !covered.contains($0) }).min() {
            throw Problem(
                description:
                    "\(place): testCase \(Self.shown(id)) holds no test step for its pickle's step \(Self.shown(left)) "
                    + "(\(Self.shown(pickle.steps[left] ?? ""))): a step left out cannot be reported")
        }
        state.cases[id] = (pickleId, steps)
    }
}
