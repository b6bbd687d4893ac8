import AutomationSupport

/// Explains an unexpected request: the nearest stub and the fields that differed.
///
/// Bounded: with more than ``maxCompared`` stubs, only the ``maxCompared`` nearest by method and URL are compared
/// field by field (bodies, dates, multipart): an unmatched request to 1,000 such mappings cost 40 ms of CPU, and a
/// client sending only those could keep the server busy.
enum NearMiss {
    static let maxCompared = 64

    static func explain(_ input: MatchInput, stubs: [Stub], scenarios: [String: String], budget allowed: Int) -> String {
        var text = "No stub matched \(input.request.method) \(input.request.target)"
        var best: (stub: Stub, mismatches: [Mismatch], score: Double)?
        // The request's budget, what choosing a stub left of it: a near miss never costs more than matching may.
        var budget = input.budget
        defer { input.budget = budget }
        for stub in nearest(input, stubs, &budget) where budget >= 0 {
            let state = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
            let mismatches = stub.evaluate(input, scenarioState: state, collectAll: true, budget: &budget)
            guard budget >= 0 else { break } // a comparison cut short is no measure of nearness
            let score = mismatches.reduce(0) { $0 + $1.weight }
            if best == nil || score < best!.score { best = (stub, mismatches, score) }
        }
        let stopped = budget < 0 ? "\n" + MatchBudget.nearMissStopped(allowed) : ""
        guard let best else { return text + (stubs.isEmpty ? "\nNo stubs are loaded." : stopped) }
        text += "\nNearest stub: \(best.stub.name.escapingControlCharacters()) (\(best.stub.source.escapingControlCharacters()))"
        for mismatch in best.mismatches { text += "\n  \(mismatch.description)" }
        return text + stopped
    }

    /// The stubs to compare in full, in their order (the first of equal scores wins, as before the bound).
    private static func nearest(_ input: MatchInput, _ stubs: [Stub], _ budget: inout Int) -> [Stub] {
        guard stubs.count > maxCompared else { return stubs }
        let weights = stubs.map { $0.targetWeight(input, budget: &budget) }
        let chosen = stubs.indices.sorted { (weights[$0], $0) < (weights[$1], $1) }.prefix(maxCompared)
        return chosen.sorted().map { stubs[$0] }
    }
}
