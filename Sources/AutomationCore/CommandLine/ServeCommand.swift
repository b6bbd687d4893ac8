import MockServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sut-launch serve [options] STUBS...`: the mock server alone, until Ctrl-C; its URL on the first line.
public enum ServeCommand {
    static let options: [OptionSpec] = [
        OptionSpec("--port", short: "-p", value: "PORT", help: "port (default 8080; 0 picks a free port)"),
        OptionSpec("--host", value: "ADDRESS", help: "address (default 127.0.0.1)"),
        OptionSpec("--strict", help: "exit 4 at the end if any request matched no stub"),
        OptionSpec("--journal", value: "FILE", help: "write the journal here when stopped"),
        OptionSpec("--journal-limit", value: "N", help: "requests kept in the journal (default 10000)"),
        OptionSpec("--quiet", short: "-q", help: "do not log each request to stderr"),
        OptionSpec("--help", short: "-h", help: "show this help"),
    ]

    public static var help: String {
        "USAGE:\n  sut-launch serve [options] STUBS...\n\nRuns the mock server until Ctrl-C (or SIGTERM); prints its URL first.\n\nOPTIONS:\n"
            + OptionSpec.helpLines(options)
    }

    /// Runs the server; returns the exit code. Signals must be blocked in this process already.
    public static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: options, stopAtPositional: false)
        if parsed.has("--help") {
            print(help, terminator: "")
            return 0
        }
        guard !parsed.positionals.isEmpty else { throw UsageError("serve needs stub files: sut-launch serve routes.json") }
        var stubs = try RunCommand.loadStubs(parsed.positionals)
        if parsed.has("--strict") { stubs.unexpected = .fail }
        var port: UInt16 = 8080
        if let option = parsed.last("--port") { port = try RunCommand.port(option.value ?? "", option) }
        let host = parsed.last("--host")?.value ?? "127.0.0.1"
        var limit = 10_000
        if let option = parsed.last("--journal-limit") {
            guard let value = Int(option.value ?? ""), value > 0 else { throw UsageError("--journal-limit '\(option.value ?? "")' is not a positive number") }
            limit = value
        }
        let quiet = parsed.has("--quiet")
        let server = StubServer(stubs: stubs, host: host, journalLimit: limit)
        if !quiet {
            server.onRequest { entry in
                let label = entry.stubName.map { " (\($0))" } ?? " (unexpected)"
                Console.line("\(entry.request.method) \(entry.request.target) → \(entry.fault ?? String(entry.status))\(label)")
            }
        }
        do {
            try server.start(port: port)
        } catch {
            let hint = (error as? Socket.Error)?.isAddressInUse == true ? "; pass --port 0 for a free port" : ""
            Console.error("cannot start the mock server on \(host):\(port): \(error)\(hint)")
            return ExitCode.cannotLaunch
        }
        var line = Array((server.baseURL + "\n").utf8)
        _ = write(1, &line, line.count)
        if !quiet { Console.line("serving \(stubs.count) route\(stubs.count == 1 ? "" : "s") from \(stubs.files.count) file\(stubs.files.count == 1 ? "" : "s"); Ctrl-C stops") }

        _ = SignalForwarder.waitForTerminationSignal()
        server.stop()
        let summary = server.summary
        if let path = parsed.last("--journal")?.value, !FileSystem.write(Array(server.journal.json().utf8), to: path) {
            Console.error("cannot write the journal to \(path)")
        }
        if !quiet || !summary.failures.isEmpty { Console.line(summary.render()) }
        return summary.failures.isEmpty ? 0 : ExitCode.serverChecksFailed
    }
}
