import AutomationSupport
import ProcessEngine
import Scenarios

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A test's own directory, as a scenario has: `directory` (where ``SUTApplication/run(_:in:environment:timeout:)``
/// runs commands) and `home/`, `tmp/`, `xdg/…` beside it, which `HOME`, `TMPDIR` and `XDG_*` point to.
/// Made on first use in a scope (``AutomationScope/scratch``) and removed with everything in it at teardown
/// (symbolic links are removed, never followed).
public final class ScratchSpace: Sendable {
    /// The working directory for commands.
    public let directory: String
    /// `HOME`, `TMPDIR`, `XDG_CONFIG_HOME`, `XDG_CACHE_HOME`, `XDG_DATA_HOME`, `XDG_STATE_HOME`.
    public let environment: [String: String]
    let root: String

    /// - Throws: ``AutomationError`` when no directory can be made under `TMPDIR`.
    public init() throws {
        let temporary = FileSystem.temporaryDirectory(ProcessInfo.processInfo.environment)
        guard let root = ScratchDirectory.make(in: temporary) else {
            throw AutomationError("cannot make a scratch directory in \(temporary)")
        }
        self.root = root
        directory = root + "/work"
        var environment: [String: String] = [:]
        for (variable, name) in ScratchDirectory.isolated { environment[variable] = root + "/" + name }
        self.environment = environment
        let made = try? RootedDirectory(root)
        for name in ["work"] + ScratchDirectory.isolated.map(\.directory) { _ = try? made?.directory(name) }
    }

    /// A path inside ``directory``.
    public func path(_ name: String) -> String { directory + "/" + name }

    /// Removes the directory and everything in it.
    public func remove() { ScratchDirectory.remove(root) }
}

extension AutomationScope {
    /// The test's scratch space, made on first use and removed at teardown.
    public var scratch: ScratchSpace {
        get throws {
            if let existing: ScratchSpace = self[scratch: "sut.scratch"] { return existing }
            let space = try ScratchSpace()
            self[scratch: "sut.scratch"] = space
            addTeardown { space.remove() }
            return space
        }
    }
}
