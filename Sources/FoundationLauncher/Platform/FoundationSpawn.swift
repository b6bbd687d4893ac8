import AutomationSupport
import Dispatch
import Foundation
// The Foundation.Process backend (`--launcher foundation`), with the smallest workarounds for the traps
// DESIGN.md "Facts measured" lists: the spawn runs on a thread whose signal mask is clear (the child
// inherits the spawning thread's mask), and exit is seen through terminationHandler, not the polling
// waitUntilExit(). What it still cannot do is marked, measured, in LauncherContractTests.
//
// A module of its own, because linking Foundation costs every process that links it: the static sut-launch
// is 26 MB instead of 76 MB without it, and starts 0.2 ms sooner with 2 MB less memory. So `sut-launch`
// leaves it out and hands `--launcher foundation` runs to `sut-launch-foundation`, the same commands with
// this backend registered; AutomationTesting registers it when a test asks for it.
import ProcessEngine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#endif

/// The Foundation.Process launcher backend.
public enum FoundationLauncher {
    /// Makes ``LauncherBackend/foundation`` available to ``Launcher`` in this process. Idempotent.
    public static func register() {
        Launcher.register(.foundation) { spawn in
            FoundationLauncher.spawn(
                path: spawn.path, arguments: spawn.arguments, environment: spawn.environment,
                workingDirectory: spawn.workingDirectory, descriptors: spawn.descriptors)
        }
    }

    /// Starts `path` with Foundation.Process; `descriptors[i]` becomes the child's fd i.
    /// - Returns: the pid and a function that blocks until the program exits and returns a wait status.
    static func spawn(
        path: String, arguments: [String], environment: [String: String], workingDirectory: String?,
        descriptors: [Int32]
    ) -> Result<(pid_t, @Sendable () -> Int32), Errno> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        if let workingDirectory { process.currentDirectoryURL = URL(fileURLWithPath: workingDirectory) }
        process.standardInput = FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: false)
        process.standardError = FileHandle(fileDescriptor: descriptors[2], closeOnDealloc: false)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }

        // Run on a fresh thread whose mask is clear, so the child does not start with SIGTERM blocked.
        nonisolated(unsafe) var failure: (any Error)?
        let spawned = DispatchSemaphore(value: 0)
        startThread {
            var empty = sigset_t()
            var old = sigset_t()
            sigemptyset(&empty)
            pthread_sigmask(SIG_SETMASK, &empty, &old)
            do { try process.run() } catch { failure = error }
            pthread_sigmask(SIG_SETMASK, &old, nil)
            spawned.signal()
        }
        spawned.wait()
        if let failure { return .failure(errno(of: failure)) }
        let pid = process.processIdentifier
        return .success(
            (
                pid,
                {
                    exited.wait()
                    exited.signal()
                    return process.terminationReason == .uncaughtSignal
                        ? process.terminationStatus & 0x7F : (process.terminationStatus & 0xFF) << 8
                }
            ))
    }

    /// The errno behind a Process.run() failure, as posix_spawn would have reported it.
    private static func errno(of error: any Error) -> Errno {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return Errno(Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Errno(Int32(underlying.code))
        }
        switch CocoaError.Code(rawValue: error.code) {
        case .fileNoSuchFile, .fileReadNoSuchFile: return Errno(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return Errno(EACCES)
        default: return Errno(EINVAL)
        }
    }
}
