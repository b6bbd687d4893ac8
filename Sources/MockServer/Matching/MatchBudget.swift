import AutomationSupport

/// The work one request's matching may do: every stub's matchers, then the near-miss comparison, draw from one
/// counter, an `Int` passed `inout` (no lock, no allocation per check); below zero it is spent.
///
/// A unit is about one step of the regex engine (one thread at one input position: 5-10 ns in a release build on the
/// yes/no fast path, ~20 ns on the general one); other work is converted at its cost measured against that, the budget
/// at about 2 s of CPU for the dearest (`scripts/bench-match.sh`: `equalToJson` in any order, 1.8 s): text decoded for
/// the regex engine, bytes scanned by `contains`, text folded for a case-insensitive comparison, XML parsed, a JSON body
/// parsed, JSON nodes compared, JSONPath's units.
/// Spent while stubs are tried, no further stub is tried and the request is answered 500 naming the budget (the
/// journal keeps that answer); spent during the near-miss comparison, the 404 stands and its text says it stopped.
/// The admin API's searches (`requests/find`, `requests/count`, `near-misses/…`) have a budget of their own per call.
package enum MatchBudget {
    /// Units per request (~2 s of CPU), and per admin search (a posted pattern against the whole journal): a 16 MiB body
    /// against 1,000 regex mappings stops here, not after minutes. (`MockServer.Options.matchBudget` sets another.)
    package static let perRequest = 50_000_000

    /// Text of `bytes` bytes decoded into scalars for the regex engine (~2.5 ns a byte).
    @inline(__always) static func decoding(_ bytes: Int) -> Int { bytes >> 4 + 1 }
    /// Text scanned by a byte-wise search or comparison (memmem, memcmp: well under 1 ns a byte).
    @inline(__always) static func scanning(_ bytes: Int) -> Int { bytes >> 6 + 1 }
    /// Text lower-cased for a case-insensitive comparison (a copy: ~5 ns a byte).
    @inline(__always) static func folding(_ bytes: Int) -> Int { bytes >> 3 + 1 }
    /// Text parsed as XML by libxml2 (~20 ns a byte, a tree built).
    @inline(__always) static func parsingXML(_ bytes: Int) -> Int { bytes >> 1 + 1 }
    /// Text parsed as JSON into a tree, charged before the parse (a release build parses 12-14 MB in 0.1-0.4 s: ~30 ns a
    /// byte at worst, a node every two bytes), once per request for the body.
    @inline(__always) static func parsingJSON(_ bytes: Int) -> Int { bytes + 1 }
    /// A date-time read for a date matcher (~1 µs in a release build for a short value, more for a long one).
    @inline(__always) static func readingDate(_ bytes: Int) -> Int { 25 + bytes >> 2 }
    /// A value printed as JSON for a matcher to read (a String built: ~10 ns a byte).
    @inline(__always) static func printing(_ bytes: Int) -> Int { bytes >> 2 + 1 }
    /// Bodies up to this size are charged their counted units only, not timed (``chargingCPU(_:timed:_:)``): the two reads of
    /// the thread's CPU clock cost more than the work on them, which the units bound (printing included).
    static let untimedBytes = 4096
    /// CPU time measured (an XPath evaluation, timed by its watchdog): 40 ns a unit, the budget's ~2 s for 50,000,000.
    @inline(__always) static func cpu(nanoseconds: Int) -> Int { nanoseconds / 40 + 1 }
    /// The CPU time `units` of budget buy (the limit an evaluation is stopped at), at most 10 s.
    @inline(__always) static func cpuNanoseconds(_ units: Int) -> Int { min(max(units, 0), 250_000_000) * 40 }

    /// Runs `work` on `budget` and, when `timed`, charges at least the CPU time it used (``cpu(nanoseconds:)``), for
    /// work whose counted units under-state its cost: XML parsed, compared and printed, a JSONPath scan and its
    /// sub-matcher (`$..a` with `contains` on a 5 MB body was charged a tenth of its cost: 60 stubs, 19.7 s of CPU). So
    /// every stub tried draws on the request's one budget at its real cost, and the request stops at about 2 s of CPU.
    /// `work` gets the ``CPUFloor`` its loops check. Untimed (work on at most ``untimedBytes`` bytes, which its units
    /// bound), the clock is never read and the floor never stops anything.
    static func chargingCPU<Result>(_ budget: inout Int, timed: Bool = true, _ work: (inout Int, inout CPUFloor) -> Result) -> Result {
        var floor = CPUFloor(clock: timed ? ThreadCPUClock.current() : nil, units: budget)
        let before = budget
        let result = work(&budget, &floor)
        if let clock = floor.clock { budget = min(budget, before - cpu(nanoseconds: clock.elapsedNanoseconds)) }
        return result
    }

    /// A check, inside work that ``chargingCPU(_:timed:_:)`` times, that the CPU used since it began has not bought
    /// more than the budget then held: a loop over the values a path or expression found (a date sub-matcher reading
    /// each one) stops once its CPU would spend the request's budget, not only once its counted units do (r9a B7, r10a
    /// C1: one `$..a` with `before: now` read 120,000 values, 7 s of CPU, before the 500). The clock is read every
    /// 128th check (a read is ~1.3 µs on a loaded VM).
    struct CPUFloor {
        fileprivate let clock: ThreadCPUClock?
        private let units: Int
        private var checks = 0

        /// From the clock's start, against `units`, the budget the timed work may spend (no clock: never stops).
        fileprivate init(clock: ThreadCPUClock?, units: Int) {
            self.clock = clock
            self.units = units
        }

        /// Lowers `budget` below zero once the CPU used since the work began has bought more than its units.
        mutating func check(_ budget: inout Int) {
            checks &+= 1
            guard checks & 127 == 0, let clock else { return }
            let left = units - MatchBudget.cpu(nanoseconds: clock.elapsedNanoseconds)
            if left < 0 { budget = min(budget, left) }
        }
    }

    /// The answer when matching spent the request's budget: which stubs were tried and what to do.
    static func exhausted(_ request: HTTPRequest, _ budget: Int, tried: Int, of total: Int) -> String {
        "sut-launch: matching \(request.method) \(request.target) spent its work budget of \(budget) units after trying \(tried) of \(total) candidate stubs; "
            .escapingControlCharacters()
            + "no stub was chosen (a body this large against this many regex/JSON/XML matchers: send a smaller body, or narrow the mappings by URL or method first)"
    }

    /// The line a near-miss text ends with when the comparison stopped at the budget.
    static func nearMissStopped(_ budget: Int) -> String {
        "(the comparison stopped: the request's matching budget of \(budget) units is spent)"
    }

    /// An admin search's answer when it spent its budget.
    static func adminExhausted(_ what: String, _ budget: Int, searched: Int, of total: Int, items: String) -> String {
        "sut-launch: \(what) spent its work budget of \(budget) units after \(searched) of \(total) \(items); narrow the pattern or request (a URL or method first), or reset the journal"
    }
}

extension RegexBox {
    /// Whether the whole of `text` matches (Java's `matches()`), its decoding and steps taken from `budget`; nil once the
    /// budget is spent (no answer: neither `matches` nor `doesNotMatch` holds, and the request stops there).
    func matchesWhole(_ text: String, budget: inout Int) -> Bool? {
        if !requiredLiteral.isEmpty {
            // Text without the literal every match holds cannot match: memmem says so before any decoding (`.*zz.*`
            // against 15 MB of `a`).
            budget -= MatchBudget.scanning(text.utf8.count)
            var text = text
            if text.withUTF8({ ByteSearch.firstRange(of: requiredLiteral, in: $0) == nil }) { return budget >= 0 ? false : nil }
        }
        budget -= MatchBudget.decoding(text.utf8.count)
        guard budget >= 0 else { return nil }
        return matches(Array(text.unicodeScalars), whole: true, budget: &budget)
    }
}
