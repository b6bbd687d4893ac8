/// How a program is started. Both backends meet one contract (LauncherContractTests); where
/// Foundation.Process cannot, the test for that row says why, measured.
public enum LauncherBackend: String, Sendable, CaseIterable {
    /// This library's own spawn: on Linux clone + execve (`_CProcessSpawn`; the program's group is guarded by the
    /// reaper before it execs), on macOS posix_spawn. Own process group, clear mask, default dispositions, fds
    /// 0-2 only, exit seen at once. The default.
    case spawn

    /// Foundation.Process, as the design card names it: the path to platforms without posix_spawn.
    case foundation

    /// How a program gets this backend when it is not linked in.
    var linkHint: String {
        switch self {
        case .spawn: "it always is"
        case .foundation:
            "call FoundationLauncher.register(), or run sut-launch-foundation, which sut-launch starts for --launcher foundation"
        }
    }

    /// The backend a command line names: its raw value, or `posix-spawn`, the own spawn's name before it stopped
    /// calling posix_spawn on Linux (scripts written then keep working).
    public init?(named name: String) {
        if name == "posix-spawn" { self = .spawn } else { self.init(rawValue: name) }
    }

    /// The own spawn's old name.
    @available(*, deprecated, renamed: "spawn")
    public static var posixSpawn: LauncherBackend { .spawn }
}

/// A terminal's size in character cells.
public struct TerminalSize: Sendable, Hashable {
    /// Character cells per row.
    public var columns: Int
    /// Rows.
    public var rows: Int
    /// A size (80 × 24 by default, as terminals start).
    public init(columns: Int = 80, rows: Int = 24) {
        self.columns = columns
        self.rows = rows
    }
}

/// What to launch and how. Flags are already marshalled into `arguments` and `environment` by the caller.
package struct LaunchRequest: Sendable {
    /// Where the program's stdin comes from.
    package enum StandardInput: Sendable {
        /// Our own stdin, passed through as is (a terminal is handed to the program while it runs).
        case inherit
        /// /dev/null: the program sees end of file at once.
        case null
        /// A pipe the test writes with ``LaunchedProcess/writeToStandardInput(_:)``.
        case pipe
    }

    /// The program: a path (with a `/`) or a name looked up in the PATH of `environment`.
    package var executable: String
    /// argv[0] as the program sees it; defaults to `executable` as given.
    package var argv0: String?
    /// Arguments after argv[0].
    package var arguments: [String]
    /// The complete environment of the program.
    package var environment: [String: String]
    /// The program's working directory; nil keeps ours.
    package var workingDirectory: String?
    /// Where the program's stdin comes from.
    package var standardInput: StandardInput
    /// Write the program's output through to our own stdout/stderr as it arrives.
    package var forwardsOutput: Bool
    /// Bytes of each stream kept for ``OutputRecorder/captured(_:)`` (0: only the tail).
    package var captureLimit: Int
    /// Where bytes past ``captureLimit`` are kept (an unlinked file per stream, up to 1 GiB), so a scenario's steps
    /// read the whole stream; nil: they are kept nowhere.
    package var spoolDirectory: String?
    /// How the program is started.
    package var backend: LauncherBackend = .spawn
    /// Run the program on a pseudo-terminal of this size (nil: pipes). Its stdin, stdout and stderr are then the
    /// terminal: output arrives as one stream (`.stdout`, with the terminal's `\r\n`), input is typed into it
    /// (``LaunchedProcess/writeToStandardInput(_:)``, Ctrl-C as byte 3), and `isatty` is true.
    package var terminal: TerminalSize?

    /// A request to run `executable` with these `arguments` and this complete `environment`.
    package init(
        executable: String, arguments: [String] = [], environment: [String: String],
        workingDirectory: String? = nil, standardInput: StandardInput = .inherit,
        forwardsOutput: Bool = true, captureLimit: Int = 0
    ) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardInput = standardInput
        self.forwardsOutput = forwardsOutput
        self.captureLimit = captureLimit
    }
}
