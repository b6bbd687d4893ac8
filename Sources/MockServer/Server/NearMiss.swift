import AutomationSupport

/// Explains an unexpected request: the nearest stub and the fields that differed.
enum NearMiss {
    static func explain(_ input: MatchInput, stubs: [Stub], scenarios: [String: String]) -> String {
        var text = "No stub matched \(input.request.method) \(input.request.target)"
        var best: (stub: Stub, mismatches: [Mismatch], score: Double)?
        for stub in stubs {
            let state = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
            let mismatches = stub.evaluate(input, scenarioState: state, collectAll: true)
            let score = mismatches.reduce(0) { $0 + $1.weight }
            if best == nil || score < best!.score { best = (stub, mismatches, score) }
        }
        guard let best else { return text + "\nNo stubs are loaded." }
        text += "\nNearest stub: \(best.stub.name.escapingControlCharacters()) (\(best.stub.source.escapingControlCharacters()))"
        for mismatch in best.mismatches { text += "\n  \(mismatch.description)" }
        return text
    }
}
