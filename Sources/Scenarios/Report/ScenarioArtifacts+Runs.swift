import AutomationSupport
import ProcessEngine

/// `--artifacts DIR` across runs: what one run could not write (exit 74), the directories an earlier run left for
/// scenarios that pass now (removed), and the staging directories of a run killed while it wrote (swept).
extension ScenarioArtifacts {
    /// The artefact files of this process's runs that could not be written, as one-line problems: the run ends 74.
    static let notWritten = Locked<[String]>([])

    /// Whether an artefact file of this process's runs could not be written (the run then ends 74).
    package static var anyNotWritten: Bool { notWritten.withLock { !$0.isEmpty } }

    /// Records and says at once what could not be written below `shown`; returns what ``write(_:result:under:attempt:attempts:)``
    /// returns for it.
    static func failed(_ shown: String, _ problems: [String]) -> (shown: String, problems: [String]) {
        for problem in problems {
            Console.error("--artifacts \(shown): \(problem) (the run ends \(ExitCode.ioError): an artefact asked for was not written)")
        }
        notWritten.withLock { $0 += problems.map { "\(shown): \($0)" } }
        return (shown, problems)
    }

    /// What a scenario leaves when it ends: a failed one its artefacts under `--artifacts DIR` (their problems added to
    /// its message) or, without DIR, its directory kept for a look, as --keep-going tools do; a passed one nothing, and
    /// the directories an earlier run left for it under DIR are removed (``removeStale(_:under:)``).
    static func keep(
        _ run: ScenarioRun, _ result: inout ScenarioResult, options: ScenarioOptions, progress: ScenarioProgress, rootDirectory: String
    ) {
        if result.status != .passed, let directory = options.artifactsDirectory {
            // An attempt that will run again (--retries) keeps its own directory; the last one the plain name.
            let retried = result.status == .failed && progress.attempt < progress.attemptsAllowed
            let written = write(
                run, result: result, under: directory, attempt: retried ? progress.attempt : nil, attempts: progress.attempt)
            result.artifacts = written.shown
            if !written.problems.isEmpty {
                result.message =
                    (result.message.map { $0 + "\n" } ?? "") + "artefacts not written: " + written.problems.joined(separator: "; ")
            }
            ScratchDirectory.remove(rootDirectory)
        } else if result.status != .passed {
            result.artifacts = run.workDirectory
        } else {
            if let directory = options.artifactsDirectory { removeStale(result.pickle, under: directory, from: progress.attempt) }
            ScratchDirectory.remove(rootDirectory)
        }
    }

    /// A scenario of this run that passed on attempt `from`: the directories an earlier run left for it (its failure,
    /// its attempts from `from` on) are removed, so nothing under DIR says it failed in this run; the attempts before
    /// `from` are this run's own (a flaky pass keeps them). Scenarios this run did not run keep theirs.
    static func removeStale(_ pickle: Pickle, under root: String, from attempt: Int) {
        guard let rootDirectory = try? RootedDirectory(root),
            let parent = try? rootDirectory.directory(FileName.component(pickle.featureName, key: pickle.uri), create: false)
        else { return }
        parent.remove(entry: Array(FileName.component("\(pickle.name) line \(pickle.line)").utf8CString))
        for stale in max(attempt, 1)...(ScenarioRunner.retryLimit.upperBound + 1) {
            parent.remove(entry: Array(FileName.component("\(pickle.name) line \(pickle.line) attempt \(stale)").utf8CString))
        }
    }

    /// The descriptor of DIR this process holds a shared lock on while it runs (``claim(_:)``).
    private static let held = Locked<Int32?>(nil)

    /// Holds a shared `flock` on DIR for the rest of the process, first sweeping what runs killed while they wrote
    /// left there (``sweep(_:)``) when no live run holds it: a run that could take the lock exclusively is alone, so
    /// every staging name under DIR is a dead run's. A live run's staging directory is never touched.
    package static func claim(_ root: String) {
        guard held.withLock({ $0 == nil }), let directory = try? RootedDirectory(root) else { return }
        let fd = DirectoryLock.holdShared(root) { sweep(directory) }
        held.withLock { $0 = fd }
    }

    /// Removes, in each feature directory of DIR (at most 10,000, links not followed), the entries named as a run's
    /// staging (`.sut-….new`, a scenario's directory being filled) or set aside (`.sut-….old`, an older one being
    /// replaced): what a run killed mid-write leaves, never output of a finished run.
    static func sweep(_ root: RootedDirectory) {
        for feature in root.entries().prefix(10_000) where root.kind(of: feature.name) == .directory && feature.isUTF8 {
            guard let directory = try? root.directory(feature.name, create: false) else { continue }
            for entry in directory.entries().prefix(10_000) where isStaging(entry.name) {
                directory.remove(entry: entry.bytes)
            }
        }
    }

    /// `.sut-` + up to 16 hex digits + `.new` or `.old`: the names ``write(_:result:under:attempt:attempts:)`` and
    /// ``RootedDirectory/replace(_:with:)`` give a directory for the moment of a write.
    static func isStaging(_ name: String) -> Bool {
        guard name.hasPrefix(".sut-"), name.hasSuffix(".new") || name.hasSuffix(".old") else { return false }
        let digits = name.dropFirst(5).dropLast(4)
        return (1...16).contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }
}
