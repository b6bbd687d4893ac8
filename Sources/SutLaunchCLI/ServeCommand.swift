import AutomationSupport
import MockServer
import ProcessEngine
import Scenarios

/// `sut-launch serve [options] STUBS...`: the mock server alone, until Ctrl-C; its URL on the first line.
package enum ServeCommand {
    static let options: [OptionSpec] = [
        OptionSpec("--port", short: "-p", value: "PORT", help: "port (default 8080; 0 picks a free port)"),
        OptionSpec("--host", value: "ADDRESS", help: "address (default 127.0.0.1)"),
        OptionSpec("--strict", help: "exit 4 at the end if any request matched no stub"),
        OptionSpec("--lenient-stubs", help: "skip mappings and stub files that cannot be loaded (one warning each)"),
        OptionSpec("--global-response-templating", help: "template every WireMock mapping's response, also those added through /__admin"),
        OptionSpec("--journal", value: "FILE", help: "write the journal here when stopped"),
        OptionSpec("--journal-limit", value: "N", help: "requests kept in the journal (default 10000)"),
        OptionSpec("--journal-secrets", help: "keep Authorization, Cookie and Proxy-Authorization values in the journal (redacted by default)"),
        OptionSpec("--no-admin", help: "turn the /__admin API off"),
        OptionSpec("--quiet", short: "-q", help: "do not log each request to stderr"),
        OptionSpec("--help", short: "-h", help: "show this help"),
    ]

    /// The text of `sut-launch serve --help`.
    package static var help: String {
        "USAGE:\n  sut-launch serve [options] [STUBS...]\n\nRuns the mock server until Ctrl-C (or SIGTERM); prints its URL first. Without stubs it starts empty,\nfor clients that add mappings through /__admin.\n\nOPTIONS:\n"
            + OptionSpec.helpLines(options)
    }

    /// Runs the server; returns the exit code. Signals must be blocked in this process already.
    package static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ArgumentParser.parse(arguments, options: options, stopAtPositional: false)
        if parsed.has("--help") {
            Console.out(help)
            return 0
        }
        try OutputFiles.check(parsed, outputs: ["--journal"], inputs: parsed.positionals.map { ($0, "the stub file \($0)") })
        // Listening before the stubs load (thousands take milliseconds): a client that connects meanwhile waits
        // for its answer instead of retrying. Problems keep their order: a bad option or stub file is reported
        // first; a port that cannot be had is reported by the start below, which tries it again.
        let host = parsed.last("--host")?.value ?? "127.0.0.1"
        let requestedPort: UInt16? = if let option = parsed.last("--port") { try? RunCommand.port(option.value ?? "", option) } else { 8080 }
        var listener = requestedPort.flatMap { try? Socket.listen(host: host, port: $0) } // nil: a bad --port, or taken
        defer { listener?.close() }
        // No stub files: an empty server, driven through its admin API (as WireMock clients do).
        for path in parsed.positionals where !FileSystem.exists(path) { throw UsageError("\(path): no such stub file or directory") }
        let stubs = parsed.positionals.isEmpty ? StubSet() : try RunCommand.loadStubs(parsed.positionals, lenient: parsed.has("--lenient-stubs"),
                                                                                                  templating: parsed.has("--global-response-templating"))
        var port: UInt16 = 8080
        if let option = parsed.last("--port") { port = try RunCommand.port(option.value ?? "", option) }
        var limit = 10_000
        if let option = parsed.last("--journal-limit") {
            limit = try NumericOptions.integer(option, in: NumericOptions.journalLimit)
        }
        let quiet = parsed.has("--quiet")
        let journalPath = try parsed.last("--journal").map { try RunCommand.outputPath($0.value ?? "", $0) }
        var serverOptions = MockServer.Options()
        serverOptions.journalLimit = limit
        serverOptions.journalSecrets = parsed.has("--journal-secrets")
        serverOptions.admin = !parsed.has("--no-admin")
        serverOptions.globalResponseTemplating = parsed.has("--global-response-templating")
        let plan = ServerPlan(stubs: stubs, host: host, port: port, strict: parsed.has("--strict"), options: serverOptions,
                              journalPath: journalPath)
        let server: MockServer
        let early = listener
        listener = nil // the server owns it from here
        switch MockServerRun.start(plan, listener: early) {
        case .success(let started): server = started
        case .failure(let error):
            Console.error(error.message)
            return ExitCode.cannotLaunch
        }
        if !quiet {
            server.onRequest { entry in
                let label = entry.stubName.map { " (\($0))" } ?? " (unexpected)"
                Console.line("\(entry.request.method) \(entry.request.target) → \(entry.fault ?? String(entry.status))\(label)")
            }
        }
        Console.out(server.baseURL + "\n")
        if !quiet { Console.line("serving \(stubs.count) route\(stubs.count == 1 ? "" : "s") from \(stubs.files.count) file\(stubs.files.count == 1 ? "" : "s"); Ctrl-C stops") }

        // POST /__admin/shutdown ends serve as Ctrl-C does: the journal is written, the summary decides the code.
        server.onShutdown { SignalForwarder.raiseTermination() }
        _ = SignalForwarder.waitForTerminationSignal()
        let (summary, journalFailed) = MockServerRun.finish(server, plan, quiet: quiet)
        if journalFailed { return ExitCode.ioError }
        return summary.failures.isEmpty ? 0 : ExitCode.serverChecksFailed
    }
}
