import Foundation
import Testing

/// Runs the built `sut-launch` (and finds the fixtures built beside it) with Foundation.Process: an
/// independent launcher, so a bug in ours cannot hide itself.
enum CLI {
    /// The directory holding the built products (sut-launch, MyAppCLI, argv-dump).
    static let productsDirectory: URL = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [beside, beside.deletingLastPathComponent()]
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("sut-launch").path) {
            return candidate
        }
        return packageRoot.appendingPathComponent(".build/debug")
    }()

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func product(_ name: String) -> String { productsDirectory.appendingPathComponent(name).path }
    static var sutLaunch: String { product("sut-launch") }
    static var myApp: String { product("MyAppCLI") }
    static var argvDump: String { product("argv-dump") }

    /// The test process's environment without the variables by which sut-launch knows it runs in CI (`CI`, the CI
    /// systems' own, Bazel's test protocol): every run here is a developer's run unless a test sets them, so the
    /// suite passes the same inside CI and never writes into the CI job's own files (`GITHUB_STEP_SUMMARY`).
    static let localEnvironment: [String: String] = ProcessInfo.processInfo.environment.filter { !isCIVariable($0.key) }

    static func isCIVariable(_ name: String) -> Bool {
        let prefixes = ["CI_", "GITHUB_", "GITLAB_", "BUILDKITE", "CIRCLE", "TEST_SHARD_", "RUNNER_"]
        let names: Set = [
            "CI", "CIRCLECI", "JOB_COMPLETION_INDEX", "TEST_TOTAL_SHARDS", "XML_OUTPUT_FILE", "TF_BUILD", "JENKINS_URL", "JENKINS_HOME",
            "BUILD_TAG", "TEST_SRCDIR", "TEST_TMPDIR", "TEST_TARGET", "TEAMCITY_VERSION", "TRAVIS", "APPVEYOR", "BITBUCKET_BUILD_NUMBER",
            "DRONE", "CODEBUILD_BUILD_ID", "CONTINUOUS_INTEGRATION", "HUDSON_URL", "GO_PIPELINE_NAME", "bamboo_buildKey", "SEMAPHORE",
            "WOODPECKER", "HARNESS_BUILD_ID", "CF_BUILD_ID",
        ]
        return names.contains(name) || prefixes.contains { name.hasPrefix($0) }
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var stdoutBytes: Int
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sut-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Runs sut-launch to completion with stdout/stderr in files (so 100 MB of output cannot block us).
    static func run(
        _ arguments: [String], stdin: String? = nil, environment: [String: String]? = nil,
        cwd: URL? = nil, whileRunning: ((Process, URL) throws -> Void)? = nil
    ) throws -> Result {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sutLaunch)
        process.arguments = arguments
        process.environment = environment ?? localEnvironment
        if let cwd { process.currentDirectoryURL = cwd }
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try input.fileHandleForWriting.close()
        }
        try whileRunning?(process, outURL)
        process.waitUntilExit()
        let out = try Data(contentsOf: outURL)
        return Result(
            status: process.terminationStatus,
            stdout: out.count > 1 << 20 ? "" : String(decoding: out, as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self), stdoutBytes: out.count)
    }

    /// A port free on 127.0.0.1 a moment ago.
    static func freePort() throws -> UInt16 {
        let (port, holder) = try closedPort()
        close(holder)
        return port
    }

    /// A port on 127.0.0.1 that refuses connections and that no other test can take while `holder` stays open: bound,
    /// never listening. (A `freePort()` left closed may be handed to another test's server a moment later, whose
    /// control messages a client still polling it would then take.)
    static func closedPort() throws -> (port: UInt16, holder: Int32) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 && getsockname(fd, $0, &size) == 0 }
        }
        guard bound else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        return (UInt16(bigEndian: address.sin_port), fd)
    }

    /// A TCP socket to 127.0.0.1:`port`: connected, or (`listening`) bound and listening; nil when that fails.
    static func loopbackSocket(_ port: UInt16, listening: Bool = false) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                listening ? bind(fd, $0, size) == 0 && listen(fd, 16) == 0 : connect(fd, $0, size) == 0
            }
        }
        if done { return fd }
        close(fd)
        return nil
    }

    /// Writes `text` to `name` inside `directory` (creating subdirectories); returns its path.
    static func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Runs sut-launch on a pseudo-terminal (through python3's `pty`) and returns all it wrote there.
    /// - Parameter environment: `env` arguments applied first, e.g. `["NO_COLOR=1"]` or `["-u", "NO_COLOR"]`.
    static func runOnTerminal(_ arguments: [String], environment: [String] = []) throws -> String {
        let script = """
            import os, pty, sys
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], ['sut-launch'] + sys.argv[2:])
            out = b''
            while True:
                try:
                    data = os.read(fd, 4096)
                except OSError:
                    break
                if not data:
                    break
                out += data
            sys.stdout.write(out.decode('utf-8', 'replace'))
            """
        // A terminal that can show colour unless the test names another (CI jobs often say TERM=dumb).
        let terminal = environment.contains { $0.hasPrefix("TERM=") } ? [] : ["TERM=xterm-256color"]
        return try output(of: environment + terminal + ["python3", "-c", script, sutLaunch] + arguments)
    }

    /// Runs `/usr/bin/env arguments…` (a command found in PATH), in `directory` if given, and returns its
    /// standard output.
    static func output(of arguments: [String], in directory: URL? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = localEnvironment
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    /// True when `name` is an executable in PATH.
    static func hasCommand(_ name: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(name)")
        }
    }

    /// Waits until `condition` holds, polling every 10 ms, at most `seconds`.
    static func eventually(_ seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(10_000)
        }
        return try condition()
    }
}

/// What argv-dump printed: its argv, environment and directory.
struct Dump: Decodable {
    var argv: [String]
    var env: [String: String]
    var cwd: String

    init(_ output: String) throws {
        self = try JSONDecoder().decode(Dump.self, from: Data(output.utf8))
    }
}

/// True when `pid` is a live process (zombies count as gone).
func isAlive(_ pid: Int32) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(close, offsetBy: 2)]
    return state != "Z" && state != "X"
}
