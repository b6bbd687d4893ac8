import AutomationSupport
import ProcessEngine
import Scenarios

/// `--shard auto` and `--shard auto/N`: the shard this machine runs, read from the variables its CI sets.
///
/// | CI | index (base) | total |
/// |---|---|---|
/// | Bazel (`shard_count`) | `TEST_SHARD_INDEX` (0) | `TEST_TOTAL_SHARDS` |
/// | GitLab CI (`parallel:`) | `CI_NODE_INDEX` (1) | `CI_NODE_TOTAL` |
/// | Buildkite (`parallelism:`) | `BUILDKITE_PARALLEL_JOB` (0) | `BUILDKITE_PARALLEL_JOB_COUNT` |
/// | CircleCI (`parallelism:`) | `CIRCLE_NODE_INDEX` (0) | `CIRCLE_NODE_TOTAL` |
/// | Kubernetes Indexed Job | `JOB_COMPLETION_INDEX` (0) | N of `--shard auto/N` |
///
/// GitHub Actions sets no index: a matrix passes `--shard ${{ matrix.shard }}/N`. Every value goes through
/// ``BoundedNumber/written(_:in:)`` (the options' rule): empty, signed (`-0`, `+1`), a leading zero (`01`), negative, non-numeric,
/// huge, an index past the total and a total of 0 are usage errors
/// (exit 2) naming the variable. When several CIs' variables are set, the first in the table's order is used
/// (Bazel first: it runs inside a CI job); another one that splits the suite too (a total above 1) and says
/// otherwise is a usage error naming both, never a silent pick.
enum ShardEnvironment {
    /// One CI's pair of variables.
    struct Source {
        var ci: String
        var index: String
        /// nil: the total comes from `--shard auto/N` (a Kubernetes Indexed Job's pods see their index only).
        var total: String?
        /// 0 or 1: the index of the first shard.
        var base: Int
    }

    /// In order of precedence.
    static let sources: [Source] = [
        Source(ci: "Bazel", index: "TEST_SHARD_INDEX", total: "TEST_TOTAL_SHARDS", base: 0),
        Source(ci: "GitLab CI", index: "CI_NODE_INDEX", total: "CI_NODE_TOTAL", base: 1),
        Source(ci: "Buildkite", index: "BUILDKITE_PARALLEL_JOB", total: "BUILDKITE_PARALLEL_JOB_COUNT", base: 0),
        Source(ci: "CircleCI", index: "CIRCLE_NODE_INDEX", total: "CIRCLE_NODE_TOTAL", base: 0),
        Source(ci: "a Kubernetes Indexed Job", index: "JOB_COMPLETION_INDEX", total: nil, base: 0),
    ]

    /// The shard found, 1-based, with what it was read from.
    struct Found: Equatable {
        var ci: String
        var index: Int
        var count: Int
        /// `CI_NODE_INDEX=2, CI_NODE_TOTAL=4`.
        var variables: String
        var isBazel: Bool { ci == "Bazel" }
    }

    /// `--shard auto` (`total` nil) or `--shard auto/N`: the value's total, or nil when the value is not `auto…`.
    /// - Throws: ``UsageError`` for `auto/` followed by anything but a whole number from 1 to 10,000.
    static func parse(_ value: String, spelling: String) throws(UsageError) -> Int?? {
        guard value == "auto" || value.hasPrefix("auto/") else { return nil }
        guard value != "auto" else { return .some(nil) }
        let text = value.dropFirst(5)
        guard let total = BoundedNumber.written(text, in: NumericOptions.shardCount) else {
            throw UsageError(
                "\(spelling) '\(value.prefix(40))': the total after auto/ is a whole number from 1 to \(NumericOptions.shardCount.upperBound), like auto/4"
            )
        }
        return .some(total)
    }

    /// The shard the environment names.
    /// - Throws: ``UsageError`` naming the variable that is missing, empty, out of range or contradicted.
    static func resolve(total given: Int?, spelling: String, environment: [String: String]) throws(UsageError) -> Found {
        var found: [Found] = []
        for source in sources where environment[source.index] != nil || source.total.map({ environment[$0] != nil }) == true {
            found.append(try read(source, given: given, spelling: spelling, environment: environment))
        }
        guard let first = found.first else { throw UsageError(notFound(spelling: spelling, given: given, environment: environment)) }
        if let given, given != first.count {
            throw UsageError("\(spelling) auto/\(given) but \(first.variables) (\(first.ci)) splits the suite in \(first.count)")
        }
        for other in found.dropFirst() where other.count > 1 && (other.index, other.count) != (first.index, first.count) {
            throw UsageError(
                "\(spelling) auto: \(first.ci) says shard \(first.index)/\(first.count) (\(first.variables)) but \(other.ci) says "
                    + "\(other.index)/\(other.count) (\(other.variables)); unset one, or pass --shard K/N")
        }
        return first
    }

    /// One source's shard, its values checked.
    private static func read(_ source: Source, given: Int?, spelling: String, environment: [String: String]) throws(UsageError)
        -> Found
    {
        let limit = NumericOptions.shardCount.upperBound
        var variables: [String] = []
        let count: Int
        if let name = source.total {
            let raw = environment[name] ?? ""
            guard environment[name] != nil else {
                throw UsageError("\(spelling) auto: \(source.index) is set but \(name) is not (\(source.ci) sets both)")
            }
            guard let total = BoundedNumber.written(raw, in: NumericOptions.shardCount) else {
                throw UsageError("\(spelling) auto: \(name)=\(quoted(raw)) is not a whole number from 1 to \(limit) (\(source.ci))")
            }
            count = total
            variables.append("\(name)=\(raw)")
        } else if let given {
            count = given
        } else {
            throw UsageError(
                "\(spelling) auto: \(source.index) is set (\(source.ci)) but gives no total; pass --shard auto/N with N the Job's completions"
            )
        }
        guard let raw = environment[source.index] else {
            // GitLab and CircleCI set the total (1) on every job, the index only on parallel ones.
            guard count == 1 else {
                throw UsageError("\(spelling) auto: \(source.total ?? "") is \(count) but \(source.index) is not set (\(source.ci))")
            }
            return Found(ci: source.ci, index: 1, count: 1, variables: variables.joined(separator: ", "))
        }
        let range = source.base...(count - 1 + source.base)
        guard let index = BoundedNumber.written(raw, in: range) else {
            throw UsageError(
                "\(spelling) auto: \(source.index)=\(quoted(raw)) is not a whole number from \(range.lowerBound) to \(range.upperBound) "
                    + "(\(source.ci) counts from \(source.base), \(source.total.map { "\($0)=\(count)" } ?? "auto/\(count)"))")
        }
        variables.insert("\(source.index)=\(raw)", at: 0)
        return Found(ci: source.ci, index: index - source.base + 1, count: count, variables: variables.joined(separator: ", "))
    }

    /// Resolves `--shard auto` into `options` and says on stderr what it used. Under Bazel it also touches
    /// `TEST_SHARD_STATUS_FILE` (this runner shards) and, without `--junit`, writes JUnit to `XML_OUTPUT_FILE`.
    /// - Throws: ``CommandFailure`` when the environment names no shard, a bad one, or files that cannot be written,
    ///   with the early reports to write; none when `XML_OUTPUT_FILE` is an output option's file (R10B-1: its
    ///   placeholder replaced the file, as two options on one file never do).
    static func apply(_ options: inout TestOptions, environment: [String: String]) throws(CommandFailure) {
        guard let auto = options.autoShard else { return }
        let found: Found
        do {
            found = try resolve(total: auto.total, spelling: auto.spelling, environment: environment)
        } catch {
            throw CommandFailure(error, report: options.earlyReport)
        }
        do {
            try applyBazel(&options, found: found, spelling: auto.spelling, environment: environment)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(error, report: options.earlyReport)
        }
    }

    /// What `--shard auto` does with what it found: the shard and, under Bazel, the status file and `XML_OUTPUT_FILE`.
    private static func applyBazel(_ options: inout TestOptions, found: Found, spelling: String, environment: [String: String])
        throws
    {
        options.scenario.shard = (found.index, found.count)
        var said = "\(spelling) auto: shard \(found.index)/\(found.count) from \(found.ci) (\(found.variables))"
        let xml = found.isBazel && options.junitPath == nil ? environment["XML_OUTPUT_FILE"] : nil
        // Paths from the environment that are not UTF-8 read as their U+FFFD spelling: written there, the file Bazel
        // named stayed empty (r15b R15B-1). Refused as the same names on the command line are.
        for name in ["XML_OUTPUT_FILE", "TEST_SHARD_STATUS_FILE"] where found.isBazel {
            if let value = environment[name], let bytes = OriginalBytes.of(value) {
                throw UsageError(.notUTF8Path(name, shown: OriginalBytes.shown(bytes), index: nil))
            }
        }
        if let xml, !xml.isEmpty {
            // An output option naming the same file: one report would silently replace the other, as for two options.
            // Refused with no report, as two options are: the placeholders would replace that file (R10B-1).
            for other in TestReadFiles.outputs(options) where FileSystem.sameFile(other.path, xml) {
                throw CommandFailure(UsageError(.sameFile(first: other.origin, second: "XML_OUTPUT_FILE \(xml)")), report: nil)
            }
        }
        if found.isBazel, let status = environment["TEST_SHARD_STATUS_FILE"], !status.isEmpty,
            let problem = OutputFile.touch(status)
        {
            throw UsageError("\(spelling) auto: cannot touch TEST_SHARD_STATUS_FILE \(status): \(problem)")
        }
        if let xml, xml.isEmpty {
            // Bazel always names a file: an empty value would have the run write no JUnit without a word.
            throw UsageError(
                "\(spelling) auto: XML_OUTPUT_FILE is set and empty, so no JUnit would be written; unset it, or pass --junit FILE")
        }
        if let xml, !xml.isEmpty {
            if let problem = OutputFile.problem(xml) {
                throw UsageError("\(spelling) auto: cannot write JUnit to XML_OUTPUT_FILE \(xml): \(problem)")
            }
            OutputFile.pin(xml)
            options.junitPath = xml
            options.junitFromEnvironment = true
            said += "; JUnit to XML_OUTPUT_FILE"
        }
        Console.line(said)
    }

    /// A CI writes its index and total as bare digits: a sign (`-0`, `+1`) or a space is not one of its values.
    /// A value for a message: quoted, cut at 40 characters, control characters escaped.
    private static func quoted(_ value: String) -> String { "'" + String(value.prefix(40)).escapingControlCharacters() + "'" }

    /// The message when no CI's variables are set.
    private static func notFound(spelling: String, given: Int?, environment: [String: String]) -> String {
        let pairs = sources.map { source in source.total.map { "\(source.index)/\($0)" } ?? "\(source.index) with auto/N" }
        let github =
            environment["GITHUB_ACTIONS"] == "true"
            ? "this is GitHub Actions, which sets no shard index: pass --shard ${{ matrix.shard }}/N"
            : "on GitHub Actions pass --shard ${{ matrix.shard }}/N"
        return
            "\(spelling) auto\(given.map { "/\($0)" } ?? ""): no CI shard variables are set (\(pairs.joined(separator: ", "))); \(github)"
    }
}
