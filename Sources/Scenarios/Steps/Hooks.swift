import AutomationSupport

/// Code that runs around scenarios (`Before`, `After`) or around the whole run (`BeforeAll`, `AfterAll`), as
/// Cucumber's hooks and bats' `setup`/`teardown`: a shell command in a step file, or a Swift closure in
/// AutomationTesting's `StepLibrary`.
///
/// ```json
/// { "hooks": [ { "hook": "Before", "tags": "@db", "order": 1, "timeout": "10s", "run": ["./reset-db.sh"] },
///              { "hook": "After", "run": ["sh", "-c", "echo $SCENARIO_STATUS >> ../statuses"] } ] }
/// ```
/// Before hooks run in `order` (then file order), After hooks in the reverse (Cucumber's rule: the last set up is
/// the first torn down). A scenario's hooks run in its directory with its environment, plus `SCENARIO_NAME` and, for
/// After hooks, `SCENARIO_STATUS` (`passed`, `failed`, `timed-out`, `interrupted`). Each has a deadline (`timeout`,
/// default 30 s, at most 1 h) and a failing or late hook fails its scenario, naming the hook by file and line.
package struct Hook: @unchecked Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case before = "Before"
        case after = "After"
        case beforeAll = "BeforeAll"
        case afterAll = "AfterAll"

        /// Cucumber Messages' HookType.
        var messageType: String {
            switch self {
            case .before: "BEFORE_TEST_CASE"
            case .after: "AFTER_TEST_CASE"
            case .beforeAll: "BEFORE_TEST_RUN"
            case .afterAll: "AFTER_TEST_RUN"
            }
        }
    }

    package let kind: Kind
    /// Only scenarios whose tags match (Before/After); nil: all.
    package let tags: TagExpression?
    /// The tag expression as written, for Messages.
    let tagSource: String?
    /// Lower runs first (Before, BeforeAll); After and AfterAll run from the highest.
    package let order: Int
    /// The command (a step file's hook); empty for a Swift hook.
    let run: [String]
    /// A Swift hook: the scenario's context (nil for BeforeAll/AfterAll) and its status so far.
    let code: (@Sendable (StepContext?, String) throws -> Void)?
    /// How long the hook may take.
    package let timeout: Duration
    /// `steps.json:4` or `Hooks.swift:12`.
    package let source: String
    /// A relative `run[0]` with a `/` is found from here (the step file's directory).
    let directory: String

    /// The default deadline of a hook, and the longest one may have.
    package static let defaultTimeout: Duration = .seconds(30)
    package static let maxTimeout: Duration = .seconds(3600)
    /// `order` from -1,000,000 to 1,000,000.
    static let orderRange = -1_000_000...1_000_000

    /// A Swift hook (AutomationTesting's `StepLibrary`).
    package init(
        kind: Kind, tags: String?, order: Int, timeout: Duration, source: String,
        code: @escaping @Sendable (StepContext?, String) throws -> Void
    ) throws(StepFailure) {
        self.kind = kind
        self.tagSource = tags
        self.tags = try Self.expression(tags, source: source)
        self.order = min(max(order, Self.orderRange.lowerBound), Self.orderRange.upperBound)
        self.timeout = min(max(timeout, .zero), Self.maxTimeout)
        self.source = source
        self.code = code
        self.run = []
        self.directory = ""
    }

    init(kind: Kind, tags: String?, order: Int, timeout: Duration, source: String, run: [String], directory: String) throws(StepFailure) {
        self.kind = kind
        self.tagSource = tags
        self.tags = try Self.expression(tags, source: source)
        self.order = order
        self.timeout = timeout
        self.source = source
        self.code = nil
        self.run = run
        self.directory = directory
    }

    private static func expression(_ text: String?, source: String) throws(StepFailure) -> TagExpression? {
        guard let text else { return nil }
        do { return try TagExpression.parse(text) } catch {
            throw StepFailure("\(source): hook tags \"\(text.prefix(80).escapingControlCharacters())\": \(error)", kind: .error)
        }
    }

    /// `Before hook (steps.json:4)`, as messages name it; a control character in the step file's path escaped (`\n`,
    /// `\u{1B}`), as in every line of sut-launch's own: a line break in a file name must not forge console lines.
    package var title: String { "\(kind.rawValue) hook (\(source.escapingControlCharacters()))" }

    /// The hooks of `kind` for a scenario tagged `tags` (all for BeforeAll/AfterAll), in the order they run.
    package static func ordered(_ hooks: [Hook], _ kind: Kind, tags: [String] = []) -> [Hook] {
        let chosen = hooks.enumerated().filter { $0.element.kind == kind && ($0.element.tags?.matches(tags) ?? true) }
        let sorted = chosen.sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
        return kind == .before || kind == .beforeAll ? sorted : sorted.reversed()
    }
}

extension UserSteps {
    /// The `"hooks": […]` of step files written as an object, in file order; problems name the file and line.
    package static func hooks(_ paths: [String]) -> (hooks: [Hook], problems: [String]) {
        var hooks: [Hook] = []
        var problems: [String] = []
        for path in paths {
            guard let bytes = FileSystem.read(path), let root = try? JSONParser.parse(bytes), let node = root["hooks"] else { continue }
            guard let entries = node.elements else {
                problems.append("\(path):\(node.position.line): \"hooks\" must be a list of {\"hook\": \"Before\", \"run\": [\"command\"]}")
                continue
            }
            for entry in entries {
                do { hooks.append(try hook(entry, path: path)) } catch { problems.append(error.message) }
            }
        }
        return (hooks, problems)
    }

    private static func hook(_ entry: JSONNode, path: String) throws(StepFailure) -> Hook {
        let source = "\(path):\(entry.position.line)"
        let known = ["hook", "run", "tags", "order", "timeout"]
        if let key = (entry.members ?? []).map(\.key).first(where: { !known.contains($0) }) {
            throw StepFailure("\(source): unknown key \"\(key.prefix(40))\"\(Suggestion.didYouMean(key, among: known))", kind: .error)
        }
        guard let name = entry["hook"]?.string, let kind = Hook.Kind(rawValue: name) else {
            throw StepFailure("\(source): a hook needs \"hook\": \"Before\", \"After\", \"BeforeAll\" or \"AfterAll\"", kind: .error)
        }
        guard let run = entry["run"]?.elements?.compactMap(\.string), !run.isEmpty, run.count == entry["run"]?.elements?.count,
            !run[0].isEmpty
        else {
            throw StepFailure("\(source): a hook needs \"run\": [\"command\", \"argument\", …]", kind: .error)
        }
        if let problem = StepCatalog.nulProblem(inWords: run) { throw StepFailure("\(source): \(problem)", kind: .error) }
        var order = 0
        if let node = entry["order"] {
            guard case .int(let value) = node.value, Hook.orderRange.contains(value) else {
                throw StepFailure("\(source): \"order\" must be a whole number from -1000000 to 1000000", kind: .error)
            }
            order = value
        }
        var timeout = Hook.defaultTimeout
        if let node = entry["timeout"] {
            // 0s, or anything below the 1 ms a deadline is counted in (0.0000000001s), would fail every scenario the
            // hook runs for ("still running after its 0ms timeout"): refused here.
            guard let text = node.string, let value = DurationParser.parse(text), value >= .milliseconds(1), value <= Hook.maxTimeout
            else {
                throw StepFailure("\(source): \"timeout\" must be a duration from 1ms up to 1h: 500ms, 30s, 2m", kind: .error)
            }
            timeout = value
        }
        if let tags = entry["tags"], tags.string == nil || kind == .beforeAll || kind == .afterAll {
            throw StepFailure("\(source): \"tags\" is a tag expression string, for Before and After hooks only", kind: .error)
        }
        return try Hook(
            kind: kind, tags: entry["tags"]?.string, order: order, timeout: timeout, source: source, run: run,
            directory: FileSystem.directory(of: path))
    }
}
