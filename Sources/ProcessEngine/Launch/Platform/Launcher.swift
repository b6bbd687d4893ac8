internal import CSystemShims
#if canImport(Glibc)
import AutomationSupport
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Starts programs under test: each in a process group of its own, with an empty signal mask and default
/// signal dispositions, stdout/stderr through pipes that are read live, and exit detected by waitpid
/// without a polling floor.
public enum Launcher {
    /// Spawns are serialized: concurrent `Process.run()` calls can crash on Swift 6.3.1, and posix_spawn is
    /// not safe to call concurrently with other spawns that change descriptors on some toolchains (they take
    /// microseconds).
    private static let spawnLock = Locked(())

    /// Launches the program.
    /// - Returns: the running process; a failing exit is reported by ``LaunchedProcess/waitForExit(timeout:)``, not thrown.
    /// - Throws: ``LaunchError`` when the program cannot be started (not found, not executable, bad directory).
    public static func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchedProcess {
        if request.backend != .posixSpawn && registered(request.backend) == nil {
            throw LaunchError(.cannotLaunch, "the \(request.backend.rawValue) launcher is not linked into this program (\(request.backend.linkHint))")
        }
        let callerDirectory = ExecutableLocator.currentDirectory()
        let path = try ExecutableLocator.locate(request.executable, path: request.environment["PATH"], currentDirectory: callerDirectory).get()
        if let directory = request.workingDirectory {
            var info = stat()
            guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
                throw LaunchError(.cannotLaunch, "cannot use working directory \(directory): no such directory")
            }
        }

        if request.terminal != nil && request.backend != .posixSpawn {
            throw LaunchError(.cannotLaunch, "a pseudo-terminal needs the posix-spawn launcher, not \(request.backend.rawValue)")
        }
        let plumbing: Plumbing
        if let size = request.terminal { plumbing = try Plumbing.terminal(size) } else { plumbing = try Plumbing.pipes(request.standardInput) }
        defer { plumbing.childSide.forEach { close($0) } }
        let descriptors = plumbing.descriptors

        let argv = [request.argv0 ?? request.executable] + request.arguments
        let environment = request.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let started = ContinuousClock.now
        let spawnOnce = { () -> Result<(pid_t, @Sendable () -> Int32, guarded: Bool), Errno> in
            spawnLock.withLock { _ in
                switch request.backend {
                case .posixSpawn:
                    PosixSpawn.spawn(path: path, argv: argv, environment: environment, workingDirectory: request.workingDirectory,
                                     descriptors: descriptors, terminal: plumbing.terminalPath, guarded: true)
                        .map { spawned in (spawned.pid, { PosixSpawn.waitForExit(spawned.pid) }, spawned.guarded) }
                case let other:
                    registered(other)!(Spawn(path: path, arguments: request.arguments, environment: request.environment,
                                             workingDirectory: request.workingDirectory, descriptors: descriptors))
                        .map { ($0.0, $0.1, false) }
                }
            }
        }
        Watchdog.start()
        var result = spawnOnce()
        // ETXTBSY: another thread's child still held the file open for writing in the instant between its
        // fork and its exec (a test that writes a script and runs it). It passes in microseconds: retry.
        var backoff: UInt32 = 1_000
        while case .failure(let error) = result, error.rawValue == ETXTBSY, backoff <= 64_000 {
            usleep(backoff)
            backoff *= 2
            result = spawnOnce()
        }
        let pid: pid_t
        let waitForExit: @Sendable () -> Int32
        let guarded: Bool
        switch result {
        case .success(let spawned): (pid, waitForExit, guarded) = spawned
        case .failure(let error):
            plumbing.ourSide.forEach { close($0) }
            throw launchError(for: error, path: request.executable, argv: argv, environment: environment)
        }

        // Nothing of the run outlives us, even if we are SIGKILLed. Our own spawn registers the group from inside
        // the child, before it execs; Foundation's and posix_spawn's cannot, so a kill in the instant before this
        // line orphans their program (Watchdog's doc comment).
        if !guarded { Watchdog.guardGroup(pid) }
        let terminal = request.standardInput == .inherit && request.terminal == nil ? TerminalHandoff.give(to: pid) : nil
        let recorder = OutputRecorder(captureLimit: request.captureLimit, spoolDirectory: request.spoolDirectory)
        // posix_spawn's child is ours to reap: its pidfd lets the output thread see the exit too. Foundation
        // reaps its own children, so that backend keeps a thread waiting for its termination handler.
        let exitDescriptor = request.backend == .posixSpawn ? csystem_pidfd_open(pid) : -1
        // Foundation.Process cannot set argv[0]: the program sees the resolved path there.
        let sent = request.backend == .foundation ? [path] + request.arguments : argv
        return LaunchedProcess(pid: pid, executablePath: path, argv: sent, started: started, waitForExit: waitForExit,
                               output: recorder, pipes: plumbing.output, forward: request.forwardsOutput,
                               exitDescriptor: exitDescriptor, standardInput: plumbing.standardInput, terminal: terminal)
    }

    /// What a backend linked from another module is given: the resolved path, argv after argv[0], the whole
    /// environment, and `descriptors[i]` to become the child's fd i.
    package struct Spawn: Sendable {
        package let path: String
        package let arguments: [String]
        package let environment: [String: String]
        package let workingDirectory: String?
        package let descriptors: [Int32]
    }
    /// Starts the program; returns its pid and a function that blocks until it exits and returns a wait status.
    package typealias SpawnFunction = @Sendable (Spawn) -> Result<(Int32, @Sendable () -> Int32), Errno>

    private static let backends = Locked<[LauncherBackend: SpawnFunction]>([:])

    /// Makes a backend that lives in another module (FoundationLauncher) available to ``launch(_:)``.
    package static func register(_ backend: LauncherBackend, _ spawn: @escaping SpawnFunction) {
        backends.withLock { $0[backend] = spawn }
    }

    /// True when ``launch(_:)`` can use `backend` in this process.
    public static func isAvailable(_ backend: LauncherBackend) -> Bool {
        backend == .posixSpawn || registered(backend) != nil
    }

    private static func registered(_ backend: LauncherBackend) -> SpawnFunction? { backends.withLock { $0[backend] } }

    private static func launchError(for error: Errno, path: String, argv: [String], environment: [String]) -> LaunchError {
        switch error.rawValue {
        case ETXTBSY: LaunchError(.notExecutable, "\(path): \(error) (still open for writing after 7 tries over 127 ms)")
        case ENOENT: LaunchError(.notFound, "\(path): \(error) (a missing interpreter in its #! line?)")
        case EACCES, EISDIR: LaunchError(.notExecutable, "\(path): \(error)")
        case ENOEXEC: LaunchError(.notExecutable, "\(path): exec format error (a script without a #! line?)")
        case E2BIG: LaunchError(.cannotLaunch, "\(path): cannot launch: \(error) (\(argumentSizes(argv, environment)))")
        default: LaunchError(.cannotLaunch, "\(path): cannot launch: \(error)")
        }
    }

    /// Why execve refused the arguments: the longest argument and variable (Linux takes at most 128 KiB each, so
    /// a huge flag value in `EPHEMERAL_{…}` or `SUT_EPHEMERAL` is the usual cause) and the total.
    private static func argumentSizes(_ argv: [String], _ environment: [String]) -> String {
        let longestArgument = argv.map(\.utf8.count).max() ?? 0
        let longest = environment.max { $0.utf8.count < $1.utf8.count }
        let longestVariable = longest.map { "\($0.prefix { $0 != "=" }) \($0.utf8.count) bytes" } ?? "none"
        let total = (argv + environment).reduce(0) { $0 + $1.utf8.count + 1 }
        return "longest argument \(longestArgument) bytes, longest variable \(longestVariable), \(total) bytes in all; "
            + "one argument or variable may hold 131,072 bytes: a flag that large belongs in a file the program reads"
    }
}

extension LaunchRequest.StandardInput: Equatable {}

/// The descriptors of one launch: the child's side (closed once it is spawned) and ours.
private struct Plumbing {
    /// The child's fds 0, 1, 2 (pipes), or unused (terminal).
    var descriptors: [Int32] = [0, 1, 2]
    /// The pseudo-terminal's program side, opened by the child.
    var terminalPath: String?
    /// Where ``LaunchedProcess/writeToStandardInput(_:)`` writes; -1: nowhere.
    var standardInput: Int32 = -1
    /// What the output pump reads.
    var output: [(StandardStream, Int32)] = []
    /// Closed in this process after the spawn.
    var childSide: [Int32] = []

    /// Ours, closed when the spawn fails.
    var ourSide: [Int32] { output.map(\.1) + (standardInput >= 0 ? [standardInput] : []) }

    static func pipes(_ standardInput: LaunchRequest.StandardInput) throws(LaunchError) -> Plumbing {
        var plumbing = Plumbing()
        switch standardInput {
        case .inherit: break
        case .null:
            let fd = PosixSpawn.openNull(forWriting: false)
            plumbing.descriptors[0] = fd
            plumbing.childSide.append(fd)
        case .pipe:
            guard let pipe = PosixSpawn.pipe() else { throw LaunchError(.cannotLaunch, "cannot create a pipe: \(Errno(errno))") }
            plumbing.descriptors[0] = pipe.read
            plumbing.childSide.append(pipe.read)
            plumbing.standardInput = pipe.write
        }
        guard let out = PosixSpawn.pipe(), let err = PosixSpawn.pipe() else {
            plumbing.ourSide.forEach { close($0) }
            plumbing.childSide.forEach { close($0) }
            throw LaunchError(.cannotLaunch, "cannot create a pipe: \(Errno(errno))")
        }
        plumbing.descriptors[1] = out.write
        plumbing.descriptors[2] = err.write
        plumbing.childSide += [out.write, err.write]
        plumbing.output = [(.stdout, out.read), (.stderr, err.read)]
        return plumbing
    }

    /// A pseudo-terminal: the child opens its program side; we read and type through the controller side
    /// (two descriptors of it, so the pump closing its own at the end does not close the test's keyboard).
    static func terminal(_ size: TerminalSize) throws(LaunchError) -> Plumbing {
        var name = [CChar](repeating: 0, count: 256)
        let controller = csystem_open_pseudo_terminal(Int32(clamping: size.columns), Int32(clamping: size.rows), &name, UInt(name.count))
        guard controller >= 0 else { throw LaunchError(.cannotLaunch, "cannot open a pseudo-terminal: \(Errno(errno))") }
        let keyboard = fcntl(controller, F_DUPFD_CLOEXEC, 3)
        guard keyboard >= 0 else {
            close(controller)
            throw LaunchError(.cannotLaunch, "cannot open a pseudo-terminal: \(Errno(errno))")
        }
        var plumbing = Plumbing()
        plumbing.terminalPath = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        plumbing.standardInput = keyboard
        plumbing.output = [(.stdout, controller)]
        return plumbing
    }
}

/// Hands the controlling terminal to the program while it runs, so a program that reads the terminal
/// is not stopped by SIGTTIN in its own process group; gives it back afterwards.
struct TerminalHandoff: Sendable {
    let ourGroup: pid_t

    static func give(to pid: pid_t) -> TerminalHandoff? {
        guard isatty(0) == 1, tcgetpgrp(0) == getpgrp() else { return nil }
        guard tcsetpgrp(0, pid) == 0 else { return nil }
        kill(-pid, SIGCONT) // in case it read the terminal before the handoff and was stopped
        return TerminalHandoff(ourGroup: getpgrp())
    }

    func takeBack() {
        // We are in the background now: tcsetpgrp would raise SIGTTOU unless it is blocked.
        var block = sigset_t(), old = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGTTOU)
        pthread_sigmask(SIG_BLOCK, &block, &old)
        tcsetpgrp(0, ourGroup)
        pthread_sigmask(SIG_SETMASK, &old, nil)
    }
}
