import AutomationSupport
import Coverage
import ProcessEngine

/// `--coverage DIR`, `--coverage-threshold PCT` and `--llvm-profdata PATH`, as runs and `test` take them.
package struct CoverageOptions: Sendable {
    package var directory: String?
    package var threshold: Double?
    package var profdata: String?
    /// How each was written, for messages.
    var spellings: [String: String] = [:]

    package init() {}

    /// The variables `--coverage` sets for every launch.
    static let variables: Set<String> = ["LLVM_PROFILE_FILE", "GOCOVERDIR"]

    static let directorySpec = OptionSpec(
        "--coverage", value: "DIR", help: "code coverage of every launch: raw profiles in DIR, then DIR/lcov.info and DIR/coverage.xml",
        topic: "coverage")
    static let thresholdSpec = OptionSpec(
        "--coverage-threshold", value: "PCT", help: "fail (exit 6) when line coverage is below PCT (0 to 100), after the reports",
        topic: "coverage")
    static let profdataSpec = OptionSpec(
        "--llvm-profdata", value: "PATH", help: "the llvm-profdata to merge with (default: the one beside swift; llvm-cov beside it)",
        topic: "coverage")

    /// `--coverage-threshold`: a plain decimal from 0 to 100 (`80`, `72.5`) as every option's number is written
    /// (``BoundedNumber/writtenDecimal(_:in:)``); `80%`, `-1`, `-0`, `080`, `101`, `NaN`, `1e1`, `.5`, `5.`, empty are
    /// refused, and digits a Double would round (`80.000000000000000000001`).
    mutating func setThreshold(_ value: String, spelling: String, index: Int) throws(UsageError) {
        guard let number = BoundedNumber.writtenDecimal(value, in: 0...100) else {
            let problem = "'\(value.prefix(40))' is not a percentage from 0 to 100 (write 80 or 72.5: no sign, no leading zero, no %)"
            throw UsageError(.invalidNumber(spelling, problem: problem, index: index))
        }
        // Compared with the measured percentage as a Double: digits a Double would round are refused, never rounded
        // (80.000000000000000000001 would read as 80 and pass a run at 80.0 %).
        if let problem = BoundedNumber.roundingProblem(value, reads: number) {
            throw UsageError(
                .invalidNumber(spelling, problem: "'\(value.prefix(40))': \(problem); write at most 15 significant digits", index: index))
        }
        threshold = number
        spellings["threshold"] = spelling
    }

    mutating func setDirectory(_ value: String, spelling: String, index: Int) throws(UsageError) {
        guard !value.isEmpty else { throw UsageError(.emptyName(spelling, index: index)) }
        directory = value
    }

    mutating func setProfdata(_ value: String, spelling: String, index: Int) throws(UsageError) {
        guard !value.isEmpty else { throw UsageError(.emptyName(spelling, index: index)) }
        profdata = value
        spellings["profdata"] = spelling
    }

    /// The threshold and the tool need `--coverage`.
    func check() throws(UsageError) {
        guard directory == nil else { return }
        if threshold != nil { throw UsageError(.coverageOptionNeedsCoverage(spellings["threshold"] ?? "--coverage-threshold")) }
        if profdata != nil { throw UsageError(.coverageOptionNeedsCoverage(spellings["profdata"] ?? "--llvm-profdata")) }
    }

    /// DIR, which a run clears of its reports and data as it starts, may not be an input, hold one, or sit inside an
    /// input directory (`tree`: a features directory, a fixture, a stub directory): exit 2 naming both, before DIR is
    /// opened. Paths are compared resolved (links, `./`, `..`), DIR whether or not it exists yet.
    func checkInputs(_ inputs: [(path: String, origin: String, tree: Bool)]) throws(UsageError) {
        guard let directory, let dir = FileSystem.resolvedPath(directory) else { return }
        for input in inputs {
            guard let path = FileSystem.resolvedPath(input.path) else { continue }
            let holds = path == dir || FileSystem.isBelow(path, dir)
            let inside = input.tree && FileSystem.isBelow(dir, path)
            guard holds || inside else { continue }
            let relation = path == dir ? "is" : holds ? "holds" : "is inside"
            throw UsageError(
                .coverage(
                    "--coverage \(directory.escapingControlCharacters()) \(relation) \(input.path.escapingControlCharacters()) "
                        + "(\(input.origin.escapingControlCharacters())): a run clears DIR's reports and data as it starts; "
                        + "give coverage a directory of its own, outside the features and fixtures"))
        }
    }

    /// Removes the reports an earlier run left in DIR (``CoverageSession/removeEarlierReports(in:)``), before the feature
    /// files load: a run killed while loading leaves none of them looking current.
    func removeEarlierReports() {
        if let directory { CoverageSession.removeEarlierReports(in: directory) }
    }

    /// The coverage of the run: the tools found and DIR opened (made when missing), before anything launches.
    /// - Throws: ``UsageError`` naming the missing tool or the directory's problem (exit 2).
    func plan(environment: [String: String]) throws(UsageError) -> CoveragePlan? {
        guard let directory else { return nil }
        do {
            let tools = try CoverageTools.locate(explicit: profdata, environment: environment)
            let session = try CoverageSession(
                directory: directory, tools: tools, runner: CoverageToolLauncher(callerEnvironment: environment))
            return CoveragePlan(session: session, threshold: threshold)
        } catch {
            throw UsageError(.coverage(error.description))
        }
    }
}
