import AutomationHost
import AutomationSupport
internal import CSystemShims

/// Starts programs under test: each in a process group of its own, with an empty signal mask and default
/// signal dispositions, stdout/stderr through pipes that are read live, and exit detected by waitpid
/// without a polling floor. The system calls are in `Platform/` (``Spawn``, ``Reaper``, ``Pipe``,
/// ``PseudoTerminal``); this is the order they are made in.
package enum Launcher {
    /// Spawns are serialized: concurrent `Process.run()` calls can crash on Swift 6.3.1, and posix_spawn is
    /// not safe to call concurrently with other spawns that change descriptors on some toolchains (they take
    /// microseconds).
    private static let spawnLock = Locked(())

    /// Launches the program.
    /// - Returns: the running process; a failing exit is reported by ``LaunchedProcess/waitForExit(timeout:)``, not thrown.
    /// - Throws: ``LaunchError`` when the program cannot be started (not found, not executable, bad directory).
    package static func launch(_ request: LaunchRequest) throws(LaunchError) -> LaunchedProcess {
        if request.backend != .spawn && registered(request.backend) == nil {
            throw LaunchError(
                .cannotLaunch, "the \(request.backend.rawValue) launcher is not linked into this program (\(request.backend.linkHint))")
        }
        // Foundation.Process (its run loop's wakeup sockets, its descriptor sweep) trapped (SIGILL) at `ulimit -n 16`
        // and failed with EBADF up to about 200, where our own spawn runs at 16: a clear refusal instead.
        if request.backend == .foundation, let soft = DescriptorLimit.soft, soft < 256 {
            throw LaunchError(
                .cannotLaunch,
                "the Foundation launcher needs at least 256 open files and the limit is \(soft) (ulimit -n): raise it (ulimit -n 256) "
                    + "or use the default launcher")
        }
        // A NUL cannot pass through execve: the word would silently end there (`echo A\0B` ran `echo A`).
        if let problem = nulProblem(request) { throw LaunchError(.cannotLaunch, problem) }
        Reaper.begin() // its start overlaps the work below
        let callerDirectory = ExecutableLocator.currentDirectory()
        let path = try ExecutableLocator.locate(request.executable, path: request.environment["PATH"], currentDirectory: callerDirectory)
            .get()
        if let directory = request.workingDirectory, !ExecutableLocator.isDirectory(directory) {
            let problem = ExecutableLocator.exists(directory) ? "not a directory" : "no such directory"
            throw LaunchError(.cannotLaunch, "cannot use working directory \(directory): \(problem)")
        }
        if request.terminal != nil && request.backend != .spawn {
            throw LaunchError(.cannotLaunch, "a pseudo-terminal needs the spawn launcher, not \(request.backend.rawValue)")
        }
        let plumbing: Plumbing
        if let size = request.terminal {
            plumbing = try Plumbing.terminal(size)
        } else {
            plumbing = try Plumbing.pipes(request.standardInput)
        }
        defer { plumbing.childSide.forEach { Descriptor.close($0) } }

        let argv = [request.argv0 ?? request.executable] + request.arguments
        // Its token: what the program starts carries it, and is stopped with it (``Descendants/stop(token:grace:)``).
        let token = Descendants.nextToken()
        var request = request
        request.environment = Descendants.tagged(request.environment, token: token)
        let environment = request.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        // Bytes that are not UTF-8 pass as given, or the launch is refused by name: never other bytes, never U+FFFD.
        if let problem = OriginalBytes.problem(argv: argv, environment: environment, foundation: request.backend == .foundation) {
            plumbing.ourSide.forEach { Descriptor.close($0) }
            throw LaunchError(.cannotLaunch, problem)
        }
        let started = ContinuousClock.now
        Reaper.start() // running before the first program is
        let spawned: Spawned
        switch spawnRetryingWhileBusy({ spawnOnce(request, path: path, argv: argv, environment: environment, plumbing: plumbing) }) {
        case .success(let result): spawned = result
        case .failure(let error):
            plumbing.ourSide.forEach { Descriptor.close($0) }
            throw launchError(for: error, path: request.executable, argv: argv, environment: environment)
        }
        let pid = spawned.pid
        // Nothing of the run outlives us, even if we are SIGKILLed. Our own spawn registers the group from inside
        // the child, before it execs; Foundation's cannot, so a kill in the instant before this line orphans its
        // program (Reaper's doc comment).
        if !spawned.guarded { Reaper.guardGroup(pid) }
        let terminal = request.standardInput == .inherit && request.terminal == nil ? TerminalHandoff.give(to: pid) : nil
        let recorder = OutputRecorder(captureLimit: request.captureLimit, spoolDirectory: request.spoolDirectory)
        // Our spawn's child is ours to reap: its pidfd lets the output thread see the exit too. Foundation
        // reaps its own children, so that backend keeps a thread waiting for its termination handler.
        let exitDescriptor = request.backend == .spawn ? csystem_pidfd_open(pid) : -1
        // Foundation's own wait ends only once every holder of the descriptor it passes on closed it (a setsid
        // grandchild: the run held until it ended, and never swept): its exit is read without reaping it instead.
        let waitForExit = request.backend == .spawn ? spawned.waitForExit : peekingExit(pid, otherwise: spawned.waitForExit)
        // Foundation.Process cannot set argv[0]: the program sees the resolved path there.
        let sent = request.backend == .foundation ? [path] + request.arguments : argv
        return LaunchedProcess(
            pid: pid, executablePath: path, argv: sent, started: started, waitForExit: waitForExit,
            output: recorder, pipes: plumbing.output, forward: request.forwardsOutput,
            exitDescriptor: exitDescriptor, standardInput: plumbing.standardInput, terminal: terminal, token: token)
    }

    /// Waits for child `pid`'s exit through a pidfd, leaving it to be reaped by the backend that started it; its
    /// status then, or `otherwise`'s where there is no pidfd (not Linux, before 5.4) or the backend reaped it first.
    private static func peekingExit(_ pid: Int32, otherwise: @escaping @Sendable () -> Int32) -> @Sendable () -> Int32 {
        let descriptor = csystem_pidfd_open(pid)
        guard descriptor >= 0 else { return otherwise }
        let held = Locked(descriptor)
        return {
            let fd = held.withLock { fd in
                defer { fd = -1 }
                return fd
            }
            guard fd >= 0 else { return otherwise() }
            let status = csystem_pidfd_peek_exit(fd)
            Descriptor.close(fd)
            return status >= 0 ? status : otherwise()
        }
    }

    /// A started program: its pid, how to wait for it (a raw wait status), whether the reaper guards it already.
    private struct Spawned {
        let pid: Int32
        let waitForExit: @Sendable () -> Int32
        let guarded: Bool
    }

    /// One spawn with the request's backend, under ``spawnLock``.
    private static func spawnOnce(
        _ request: LaunchRequest, path: String, argv: [String], environment: [String],
        plumbing: Plumbing
    ) -> Result<Spawned, Errno> {
        spawnLock.withLock { _ in
            switch request.backend {
            case .spawn:
                Spawn.start(
                    path: path, argv: argv, environment: environment, workingDirectory: request.workingDirectory,
                    descriptors: plumbing.descriptors, terminal: plumbing.terminalPath, guarded: true
                )
                .map { started in Spawned(pid: started.pid, waitForExit: { Spawn.waitForExit(started.pid) }, guarded: started.guarded) }
            case let other:
                registered(other)!(
                    SpawnRequest(
                        path: path, arguments: request.arguments, environment: request.environment,
                        workingDirectory: request.workingDirectory, descriptors: plumbing.descriptors)
                )
                .map { Spawned(pid: $0.0, waitForExit: $0.1, guarded: false) }
            }
        }
    }

    /// Runs `spawn` again while it fails with ETXTBSY: another thread's child still held the file open for writing
    /// in the instant between its fork and its exec (a test that writes a script and runs it). It passes in
    /// microseconds: 7 tries over 127 ms.
    private static func spawnRetryingWhileBusy(_ spawn: () -> Result<Spawned, Errno>) -> Result<Spawned, Errno> {
        var result = spawn()
        var backoff: UInt32 = 1_000
        while case .failure(let error) = result, error == .textBusy, backoff <= 64_000 {
            Spawn.backOff(microseconds: backoff)
            backoff *= 2
            result = spawn()
        }
        return result
    }

    /// What a backend linked from another module is given: the resolved path, argv after argv[0], the whole
    /// environment, and `descriptors[i]` to become the child's fd i.
    package struct SpawnRequest: Sendable {
        package let path: String
        package let arguments: [String]
        package let environment: [String: String]
        package let workingDirectory: String?
        package let descriptors: [Int32]
    }
    /// Starts the program; returns its pid and a function that blocks until it exits and returns a wait status.
    package typealias SpawnFunction = @Sendable (SpawnRequest) -> Result<(Int32, @Sendable () -> Int32), Errno>

    private static let backends = Locked<[LauncherBackend: SpawnFunction]>([:])

    /// Makes a backend that lives in another module (FoundationLauncher) available to ``launch(_:)``.
    package static func register(_ backend: LauncherBackend, _ spawn: @escaping SpawnFunction) {
        backends.withLock { $0[backend] = spawn }
    }

    /// True when ``launch(_:)`` can use `backend` in this process.
    package static func isAvailable(_ backend: LauncherBackend) -> Bool {
        backend == .spawn || registered(backend) != nil
    }

    private static func registered(_ backend: LauncherBackend) -> SpawnFunction? { backends.withLock { $0[backend] } }

    /// Which argument or variable of `request` holds a NUL byte, or nil.
    static func nulProblem(_ request: LaunchRequest) -> String? {
        for (index, word) in ([request.executable] + request.arguments).enumerated() where word.utf8.contains(0) {
            let which = index == 0 ? "the program's name" : "argument \(index)"
            return
                "\(which) \(word.escapingControlCharacters()) holds a NUL byte, which cannot be passed to a program; nothing was launched"
        }
        for (name, value) in request.environment where name.utf8.contains(0) || value.utf8.contains(0) {
            return
                "the environment variable \(name.escapingControlCharacters()) holds a NUL byte, which cannot be passed to a program; nothing was launched"
        }
        return nil
    }

    private static func launchError(for error: Errno, path: String, argv: [String], environment: [String]) -> LaunchError {
        switch error {
        case .textBusy: LaunchError(.notExecutable, "\(path): \(error) (still open for writing after 7 tries over 127 ms)")
        case .noSuchFile: LaunchError(.notFound, "\(path): \(error) (a missing interpreter in its #! line?)")
        case .permissionDenied, .isADirectory: LaunchError(.notExecutable, "\(path): \(error)")
        case .execFormat: LaunchError(.notExecutable, "\(path): exec format error (a script without a #! line?)")
        case .argumentsTooLong: LaunchError(.cannotLaunch, "\(path): cannot launch: \(error) (\(argumentSizes(argv, environment)))")
        default: LaunchError(.cannotLaunch, "\(path): cannot launch: \(error)")
        }
    }

    /// Why execve refused the arguments: the longest argument and variable (Linux takes at most 128 KiB each, so
    /// a huge flag value in `EPHEMERAL_{…}` or `SUT_EPHEMERAL` is the usual cause) and the total, then what helps.
    private static func argumentSizes(_ argv: [String], _ environment: [String]) -> String {
        let longestArgument = argv.map(\.utf8.count).max() ?? 0
        let longest = environment.max { $0.utf8.count < $1.utf8.count }
        let longestVariable = longest.map { "\($0.prefix { $0 != "=" }) \($0.utf8.count) bytes" } ?? "none"
        let total = (argv + environment).reduce(0) { $0 + $1.utf8.count + 1 }
        return "longest argument \(longestArgument) bytes, longest variable \(longestVariable), \(total) bytes in all; "
            + argumentAdvice(argv, environment)
    }

    /// What helps when execve said E2BIG: each kind of flags is one JSON text, and one argument or variable holds at
    /// most 131,072 bytes on Linux, wherever it travels (`--flags-in` does not lift that); under that cap, flags that
    /// travel twice (launch arguments and environment) can travel once.
    static func argumentAdvice(_ argv: [String], _ environment: [String]) -> String {
        let cap = 131_072
        let flagArguments = [WireFormat.ephemeralPrefix, WireFormat.automationPrefix]
        let flagVariables = [WireFormat.ephemeralVariable, WireFormat.automationVariable].map { $0 + "=" }
        let isFlags = { (word: String) in flagArguments.contains(where: word.hasPrefix) || flagVariables.contains(where: word.hasPrefix) }
        if let big = (argv.dropFirst() + environment).first(where: { $0.utf8.count >= cap }) {
            guard isFlags(big) else {
                return "one argument or variable may hold 131,072 bytes: a value that large belongs in a file the program reads"
            }
            let name = big.prefix { $0 != "=" && $0 != "{" }
            return "the flags travel as one JSON text (\(name)…), and one argument or variable may hold 131,072 bytes wherever it "
                + "travels (--flags-in env or args does not lift that): put the large value in a file and send its path as a flag "
                + "(-f config=./large.json)"
        }
        let inArguments = argv.contains { word in flagArguments.contains(where: word.hasPrefix) }
        if inArguments && environment.contains(where: { word in flagVariables.contains(where: word.hasPrefix) }) {
            return "the flags travel twice, as launch arguments and in the environment: --flags-in env (or args) sends them once"
        }
        return "arguments and environment together pass the system's limit (getconf ARG_MAX): send less, or put large values in a file"
    }
}

extension LaunchRequest.StandardInput: Equatable {}
