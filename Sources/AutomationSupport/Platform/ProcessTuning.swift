internal import CSystemShims

/// Process-wide tuning: how glibc's malloc caches memory, and whether a thread that takes half of some work
/// starts on another CPU. A library never changes these (they belong to the whole process); `main.swift`
/// chooses once, first thing, before any thread starts. Without a choice the C library's defaults hold and
/// threads start where the scheduler puts them.
package enum ProcessTuning: Sendable {
    /// A long-lived server (`serve`, `test`): buffers of 1 MiB and more are mapped and unmapped, never kept in an
    /// arena, and at most 4 arenas (measured: 210 MB peak without, for two clients posting 4 MiB bodies in a loop).
    case server
    /// One program run: one malloc arena (a run's few threads allocate little; an arena each is a 128 MiB
    /// reservation trimmed with three system calls), and the server's 1 MiB rule for its mock server.
    case run
    /// The C library's defaults (help, init, check, completions: short and single-threaded).
    case none

    /// The tuning for sut-launch's command line (argv without argv[0]), by subcommand.
    package static func forCommandLine(_ arguments: [String]) -> ProcessTuning {
        switch arguments.first {
        case "serve", "test": .server
        case "check", "init", "help", "completions", "manpage": .none
        default: .run // a program run, `--help`, `--version` or a usage error
        }
    }

    /// Applies the choice. Call once, from `main.swift`, before starting any thread.
    package func apply() {
        switch self {
        case .server:
            csystem_bound_malloc_caching()
        case .run:
            csystem_bound_malloc_caching()
            csystem_single_malloc_arena()
        case .none:
            return
        }
        Self.threadsStartOnAnotherCPU.value = true
    }

    /// Whether ``startDetachedThread(onAnotherCPU:_:)`` honours `onAnotherCPU` (set by ``apply()``).
    static let threadsStartOnAnotherCPU = AtomicFlag()
}
