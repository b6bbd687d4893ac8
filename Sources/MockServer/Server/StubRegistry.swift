import AutomationSupport

/// What answers, behind a lock of its own: the router over the stubs, each stub's call count, the scenarios'
/// states, and the stub set loaded at start (what a reset returns to, the unexpected-request policy).
///
/// Matching runs on a snapshot taken under the lock and released at once, so one slow match (a regular
/// expression, a JSON body) never blocks other connections; ``version`` says whether the snapshot is still
/// current when its result is committed (counts, scenario transitions), else the match is redone.
package final class StubRegistry: @unchecked Sendable {
    private let lock = Lock()
    /// The stubs loaded at start (``resetStubs()`` returns to them; `mappings/save` replaces them).
    private var loaded: StubSet
    private var routerStorage: Router?
    private var pendingStubs: [Stub]
    /// True while ``buildRouter()`` runs (with the lock held).
    private let routerBeingBuilt = AtomicFlag()
    private var counts: [Int]
    /// Stubs with an `expect` removed through the admin API, with their calls when removed: expectations are the
    /// run's contract, so deleting the mapping must not make an unmet one pass.
    private var retired: [(stub: Stub, calls: Int)] = []
    /// Calls of stubs now in the router made before a reset through the admin API zeroed their counts: the admin
    /// API shows counts since its last reset, as WireMock does, but an `expect` is the run's contract and counts
    /// every call the run made (the program under test must not be able to reset its verdict green).
    /// Holds the stub itself, so that its identifier is never reused by another.
    private var callsBeforeReset: [ObjectIdentifier: (stub: Stub, calls: Int)] = [:]
    /// HEAD requests a GET route answered (as `curl -I` expects), by stub: not calls of the route (its `expect` counts
    /// GETs, as the runner's steps do), kept apart for the summary to show as HEAD. Holds the stub, as above.
    private var headCalls: [ObjectIdentifier: (stub: Stub, calls: Int)] = [:]
    /// Calls whose answer could not be made (a template refused, a file unreadable), by stub: left out of the route's
    /// calls and its `expect` (the program never got the answer). Holds the stub, as above.
    private var unanswered: [ObjectIdentifier: (stub: Stub, calls: Int)] = [:]
    private var scenarios: [String: String] = [:] { didSet { version += 1 } }
    private var version = 0

    /// One stub chosen to answer: its index, the stub and its call number (1 for the first call).
    typealias Choice = (index: Int, stub: Stub, call: Int)

    package init(_ stubs: StubSet) {
        loaded = stubs
        pendingStubs = stubs.stubs
        counts = [Int](repeating: 0, count: stubs.count)
    }

    /// What answers (call with the lock held). Built on first use: ``MockServer/start(port:)`` builds it once
    /// the socket listens, so that with thousands of routes the first connection is accepted meanwhile (its
    /// request waits for the router).
    private var router: Router {
        get {
            if let routerStorage { return routerStorage }
            let built = Router(pendingStubs)
            routerStorage = built
            pendingStubs = []
            return built
        }
        set {
            routerStorage = newValue
            version += 1
        }
    }

    /// Builds the router now (``MockServer/start(port:)``, once the socket listens).
    package func buildRouter() {
        routerBeingBuilt.value = true
        lock.withLock { _ = router }
        routerBeingBuilt.value = false
    }

    /// A request that arrives while the router is built polls for it, up to 10 ms, rather than block on the
    /// lock: a thread blocked then woken takes ~0.1 ms to run again on this VM, and this is the first answer.
    package func waitWhileTheRouterIsBuilt() {
        guard routerBeingBuilt.value else { return }
        _ = pollBriefly(milliseconds: 10) { !routerBeingBuilt.value }
    }

    // MARK: Matching

    /// The stub that answers `input`, counted as called, with its scenario moved on; nil when none matches.
    func choose(_ input: MatchInput) -> Choice? {
        for _ in 0..<4 {
            let (router, scenarios, version) = lock.withLock { (self.router, self.scenarios, self.version) }
            let found = Self.firstMatch(input, router: router, scenarios: scenarios)
            let committed: (done: Bool, choice: Choice?) = lock.withLock {
                guard self.version == version else { return (false, nil) }
                guard let found else { return (true, nil) }
                return (true, count(found.index, found.stub, head: Self.isHead(input, found.stub)))
            }
            if committed.done { return committed.choice }
        }
        // The stubs keep changing under us (an admin client adding mappings in a loop): decide under the lock.
        return lock.withLock {
            Self.firstMatch(input, router: router, scenarios: scenarios).map { count($0.index, $0.stub, head: Self.isHead(input, $0.stub)) }
        }
    }

    /// The first candidate that matches, its work taken from the request's budget; nil, with `input.exhausted` set,
    /// when the budget ran out first (no further stub is tried: the request is not decided).
    private static func firstMatch(_ input: MatchInput, router: Router, scenarios: [String: String]) -> (index: Int, stub: Stub)? {
        var budget = input.budget
        defer { input.budget = budget }
        guard budget >= 0 else { return nil }
        let candidates = router.candidates(for: input)
        for (position, index) in candidates.enumerated() {
            let stub = router.stubs[index]
            let scenarioState = stub.scenario.map { scenarios[$0.name] ?? ScenarioStates.started }
            if stub.matches(input, scenarioState: scenarioState, budget: &budget) { return (index, stub) }
            if budget < 0 {
                input.exhausted = (position + 1, candidates.count)
                return nil
            }
        }
        return nil
    }

    /// Counts a call of stub `index` and moves its scenario on (call with the lock held). A HEAD that a GET route
    /// answers is counted apart (``headCalls``), answered as the route's next call would be.
    private func count(_ index: Int, _ stub: Stub, head: Bool) -> Choice {
        if head { headCalls[ObjectIdentifier(stub), default: (stub, 0)].calls += 1 } else { counts[index] += 1 }
        if let scenario = stub.scenario, let newState = scenario.newState { scenarios[scenario.name] = newState }
        return (index, stub, counts[index] + (head ? 1 : 0))
    }

    /// A HEAD request answered by a route for GET only (``Stub/matches``).
    private static func isHead(_ input: MatchInput, _ stub: Stub) -> Bool { input.request.method == "HEAD" && stub.method == "GET" }

    /// Takes a call back whose answer could not be made: it is not a call of the route (a HEAD's is taken off the
    /// route's HEADs). The route's next request is still its next call (a sequence of answers moves on).
    package func countUnanswered(_ stub: Stub, method: String) {
        lock.withLock {
            if method == "HEAD" && stub.method == "GET" {
                headCalls[ObjectIdentifier(stub)]?.calls -= 1
            } else {
                unanswered[ObjectIdentifier(stub), default: (stub, 0)].calls += 1
            }
        }
    }

    /// Calls whose answer could not be made over the run, by stub.
    package func unansweredOfRun() -> [ObjectIdentifier: Int] {
        lock.withLock { unanswered.mapValues(\.calls) }
    }

    /// HEAD requests a GET route answered over the run, by stub.
    package func headCallsOfRun() -> [ObjectIdentifier: Int] {
        lock.withLock { headCalls.mapValues(\.calls) }
    }

    // MARK: Reading

    /// The stubs in router order with their call counts, and the scenarios' states.
    package func snapshot() -> (stubs: [Stub], counts: [Int], scenarios: [String: String]) {
        lock.withLock { (router.stubs, counts, scenarios) }
    }

    /// The stubs with an `expect` that were removed while the run went on, with their calls when removed.
    package func retiredExpectations() -> [(stub: Stub, calls: Int)] {
        lock.withLock { retired }
    }

    /// The stubs in router order with their calls over the whole run: admin resets do not take calls away.
    package func runCalls() -> (stubs: [Stub], calls: [Int]) {
        lock.withLock {
            let stubs = router.stubs
            return (stubs, stubs.indices.map { counts[$0] + (callsBeforeReset[ObjectIdentifier(stubs[$0])]?.calls ?? 0) })
        }
    }

    /// The stubs `include` picks, with their call counts.
    package func stubs(where include: (Stub) -> Bool) -> [(stub: Stub, calls: Int)] {
        lock.withLock {
            let stubs = router.stubs
            return stubs.indices.filter { include(stubs[$0]) }.map { (stubs[$0], counts[$0]) }
        }
    }

    /// What unexpected requests do to the run (the loaded set's policy, or the one set since).
    package var unexpectedPolicy: StubSet.UnexpectedPolicy {
        get { lock.withLock { loaded.unexpected } }
        set { lock.withLock { loaded.unexpected = newValue } }
    }

    /// Where mappings added through the admin API read their `bodyFileName`s: the `__files` the first WireMock
    /// mappings were loaded against (a root's `ROOT/__files`, as WireMock), else `__files` beside the first file
    /// loaded, else `./__files`.
    package var filesDirectory: String {
        lock.withLock {
            loaded.bodyFileDirectories.first ?? loaded.files.first.map { FileSystem.directory(of: $0) + "/__files" }
        } ?? "./__files"
    }
}

// MARK: - Changes

/// The registry's changes (the admin API's mappings and scenarios endpoints, resets); each is one short hold
/// of the lock, and each makes the matching snapshots taken before it stale.
extension StubRegistry {
    /// Removes every stub.
    package func removeAll() {
        lock.withLock {
            retire(router.stubs.indices.map { $0 })
            router = Router([])
            counts = []
        }
    }

    /// Back to the stubs loaded at start (or saved since), every count at 0.
    package func resetStubs() {
        lock.withLock { resetStubsLocked() }
    }

    /// Stubs, counts and scenario states back to the start.
    package func reset() {
        lock.withLock {
            resetStubsLocked()
            scenarios.removeAll()
        }
    }

    private func resetStubsLocked() {
        let returning = Set(loaded.stubs.map(ObjectIdentifier.init))
        // A stub that comes back keeps the calls it had (its admin count starts again); one that goes is retired.
        let stubs = router.stubs
        var leaving: [Int] = []
        for index in stubs.indices {
            let key = ObjectIdentifier(stubs[index])
            if returning.contains(key) { carry(stubs[index], counts[index]) } else { leaving.append(index) }
        }
        retire(leaving)
        // A loaded stub removed and now back is checked where it is, with the calls it had when removed.
        retired.removeAll { entry in
            let key = ObjectIdentifier(entry.stub)
            guard returning.contains(key) else { return false }
            carry(entry.stub, entry.calls)
            return true
        }
        router = Router(loaded.stubs)
        counts = [Int](repeating: 0, count: loaded.count)
    }

    /// The stubs now become what ``resetStubs()`` returns to (`POST /__admin/mappings/save`).
    package func saveAsLoaded() {
        lock.withLock { loaded.stubs = router.stubs }
    }

    /// Adds stubs after the others (most recent: they win among equals).
    package func add(_ stubs: [Stub]) {
        lock.withLock {
            var set = StubSet()
            for existing in router.stubs { set.stubs.append(existing) }
            for stub in stubs { set.append(stub) }
            router = Router(set.stubs)
            counts += [Int](repeating: 0, count: stubs.count)
        }
    }

    /// Removes every stub `remove` picks, then adds `stub` if given (most recent: it wins among equals).
    package func replace(where remove: (Stub) -> Bool, with stub: Stub?) {
        lock.withLock {
            var set = StubSet()
            var kept: [Int] = []
            var removed: [Int] = []
            for (index, existing) in router.stubs.enumerated() {
                if remove(existing) {
                    removed.append(index)
                    continue
                }
                set.stubs.append(existing)
                kept.append(counts[index])
            }
            retire(removed)
            if let stub {
                set.append(stub)
                kept.append(0)
            }
            router = Router(set.stubs)
            counts = kept
        }
    }

    /// Puts `stub` in `old`'s place, with its rank among equals (`PUT /__admin/mappings/{id}`, as WireMock edits a
    /// mapping); `old`'s calls go (an `expect` on it is still checked). False when `old` is gone.
    package func edit(_ old: Stub, to stub: Stub) -> Bool {
        lock.withLock {
            var stubs = router.stubs
            guard let index = stubs.firstIndex(where: { $0 === old }) else { return false }
            retire([index])
            stub.order = old.order
            stubs[index] = stub
            router = Router(stubs)
            counts[index] = 0
            return true
        }
    }

    /// Adds `stubs` as ``replace(where:with:)`` would one by one, last first as WireMock 2.35 imports (the list's
    /// first mapping wins among equals, and of two with one id the first is kept) (a stub replaces the ones its id names, or with
    /// `keepExisting` is left out when its id is in use), with one router built at the end: an import of 2,000 mappings
    /// built 2,000 routers (69 s); now it costs what loading the same file does. Ids are looked up in a table.
    package func importStubs(_ stubs: [Stub], keepExisting: Bool) {
        lock.withLock {
            var entries: [(stub: Stub, calls: Int)?] = zip(router.stubs, counts).map { ($0, $1) }
            let loadedCount = entries.count
            var named: [String: [Int]] = [:]
            func index(_ stub: Stub, at position: Int) {
                named[stub.id, default: []].append(position)
                if stub.adminID != stub.id { named[stub.adminID, default: []].append(position) }
            }
            for (position, entry) in entries.enumerated() { index(entry!.stub, at: position) }
            var removed: [Int] = []
            for stub in stubs.reversed() {
                let holders = (named[stub.id] ?? []).filter { entries[$0] != nil }
                if keepExisting && !holders.isEmpty { continue }
                for position in holders {
                    if position < loadedCount { removed.append(position) }
                    entries[position] = nil
                }
                named[stub.id] = nil
                entries.append((stub, 0))
                index(stub, at: entries.count - 1)
            }
            retire(removed.sorted())
            var set = StubSet()
            var kept: [Int] = []
            for (position, entry) in entries.enumerated() {
                guard let entry else { continue }
                if position < loadedCount { set.stubs.append(entry.stub) } else { set.append(entry.stub) }
                kept.append(entry.calls)
            }
            router = Router(set.stubs)
            counts = kept
        }
    }

    /// Keeps the stubs at `indices` that carry an `expect`, with their calls over the run (call with the lock held).
    private func retire(_ indices: [Int]) {
        let stubs = router.stubs
        for index in indices {
            let before = callsBeforeReset.removeValue(forKey: ObjectIdentifier(stubs[index]))?.calls ?? 0
            if stubs[index].expectation != nil { retired.append((stubs[index], counts[index] + before)) }
        }
    }

    /// Adds `calls` made before a reset to `stub`'s calls over the run (call with the lock held).
    private func carry(_ stub: Stub, _ calls: Int) {
        guard calls > 0 else { return }
        callsBeforeReset[ObjectIdentifier(stub), default: (stub, 0)].calls += calls
    }

    // MARK: Scenarios

    /// Every scenario a stub names, sorted, with its state now ("Started" until it moves) and the states the
    /// stubs mention (Started first).
    package func scenarioStates() -> [(name: String, state: String, possible: [String])] {
        lock.withLock {
            scenarioNames().map { name, possible in (name, scenarios[name] ?? ScenarioStates.started, possible) }
        }
    }

    /// What ``setScenario(_:state:)`` did.
    package enum ScenarioChange: Equatable {
        case set
        /// No stub names that scenario.
        case noScenario
        /// No stub of the scenario requires or sets that state (nil: no state given): unchanged, as WireMock 2.35
        /// refuses it; `possible` are its states.
        case unsupported(possible: [String])
    }

    /// Sets scenario `name`'s state ("Started" forgets it) when one of its stubs requires or sets it: a state none
    /// has (a typo) would leave the scenario where no stub answers.
    package func setScenario(_ name: String, state: String?) -> ScenarioChange {
        lock.withLock {
            guard let possible = scenarioNames().first(where: { $0.0 == name })?.1 else { return .noScenario }
            guard let state, possible.contains(state) else { return .unsupported(possible: possible) }
            scenarios[name] = state == ScenarioStates.started ? nil : state
            return .set
        }
    }

    /// Every scenario back to "Started".
    package func resetScenarios() {
        lock.withLock { scenarios.removeAll() }
    }

    /// The scenarios the stubs name, sorted, with the states they mention (call with the lock held).
    private func scenarioNames() -> [(String, [String])] {
        var states: [String: [String]] = [:]
        for stub in router.stubs {
            guard let rule = stub.scenario else { continue }
            var known = states[rule.name] ?? [ScenarioStates.started]
            for name in [rule.requiredState, rule.newState].compactMap({ $0 }) where !known.contains(name) { known.append(name) }
            states[rule.name] = known
        }
        return states.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}
