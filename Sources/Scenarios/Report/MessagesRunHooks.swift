import AutomationSupport

/// A Messages file's BeforeAll/AfterAll hooks (`testRunHookStarted`, `testRunHookFinished`) as ``MessagesReader``
/// reads them: what did not pass, including a hook that started and never finished (a run killed mid-hook, or a
/// file a tool cut), becomes a ``ReportRun/runHookFailures`` entry: never a green run.
struct MessagesRunHooks {
    /// testRunHookStarted id → its hook's id and the line that started it.
    private var started: [String: (hook: String, line: Int)] = [:]
    /// The testRunHookStarted ids a testRunHookFinished named.
    private var finished: Set<String> = []

    /// A `testRunHookStarted`. As for a `testCaseStarted`, a hook that is not in the file before it, or an id given
    /// twice, is not a run the reader can vouch for.
    mutating func start(_ value: some JSONReading, hooks: [String: String], at place: MessagesReader.Place) throws(MessagesReader.Problem) {
        guard let id = value["id"]?.string, let hook = value["hookId"]?.string, hooks[hook] != nil else {
            throw MessagesReader.Problem(description: "\(place): a testRunHookStarted whose hook is not in the file before it")
        }
        guard started[id] == nil else {
            throw MessagesReader.Problem(description: "\(place): a second testRunHookStarted with id \(id.prefix(80))")
        }
        started[id] = (hook, place.line)
    }

    /// A `testRunHookFinished`: why the hook did not pass, or nil when it did (PASSED or SKIPPED).
    mutating func finish(_ value: some JSONReading, hooks: [String: String], at place: MessagesReader.Place) throws(MessagesReader.Problem)
        -> String?
    {
        guard let id = value["testRunHookStartedId"]?.string, let hook = started[id] else {
            throw MessagesReader.Problem(
                description: "\(place): a testRunHookFinished whose testRunHookStarted is not in the file before it")
        }
        finished.insert(id)
        let status = value["result"]?["status"]?.string ?? "UNKNOWN"
        guard status != "PASSED", status != "SKIPPED" else { return nil }
        let message = value["result"]?["message"]?.string.map { ": " + String($0.prefix(2000)) } ?? ""
        return "\(place): \(hooks[hook.hook] ?? "a hook") around the run (BeforeAll or AfterAll) ended \(status.prefix(40))\(message)"
    }

    /// The hooks of file `name` that started and never finished, in file order.
    func unfinished(hooks: [String: String], file name: String) -> [String] {
        started.filter { !finished.contains($0.key) }.values.sorted { $0.line < $1.line }.map { hook in
            "\(name):\(hook.line): \(hooks[hook.hook] ?? "a hook") around the run (BeforeAll or AfterAll) started and never finished"
        }
    }
}
