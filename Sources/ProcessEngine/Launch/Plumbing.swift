import AutomationSupport

/// The descriptors of one launch: the child's side (closed once it is spawned) and ours.
struct Plumbing {
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
            let fd = Pipe.openNull(forWriting: false)
            plumbing.descriptors[0] = fd
            plumbing.childSide.append(fd)
        case .pipe:
            guard let pipe = Pipe.make() else { throw LaunchError(.cannotLaunch, "cannot create a pipe: \(Errno.current)") }
            plumbing.descriptors[0] = pipe.read
            plumbing.childSide.append(pipe.read)
            plumbing.standardInput = pipe.write
        }
        guard let out = Pipe.make(), let err = Pipe.make() else {
            let error = Errno.current
            plumbing.ourSide.forEach { Descriptor.close($0) }
            plumbing.childSide.forEach { Descriptor.close($0) }
            throw LaunchError(.cannotLaunch, "cannot create a pipe: \(error)")
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
        let terminal: PseudoTerminal
        do { terminal = try PseudoTerminal.open(size) } catch {
            throw LaunchError(.cannotLaunch, "cannot open a pseudo-terminal: \(error)")
        }
        var plumbing = Plumbing()
        plumbing.terminalPath = terminal.path
        plumbing.standardInput = terminal.keyboard
        plumbing.output = [(.stdout, terminal.controller)]
        return plumbing
    }
}
