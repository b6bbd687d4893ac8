import AutomationHost
import AutomationSupport
import Coverage
import MockServer
package import ProcessEngine

extension RunOptions {
    /// The run these options ask for: reads the flags file, the dotenv files and the stubs, then builds the
    /// ``RunPlan`` (launch, server, settings) in one place.
    /// - Parameters:
    ///   - environment: the caller's environment.
    ///   - readFile: reads a named file (injected for tests).
    /// - Throws: ``UsageError`` (exit 2) for a file that cannot be read or a conflict, ``InputError`` (exit 3)
    ///   for bad file content.
    package func plan(
        environment: [String: String], readFile: (String) throws -> String = RunCommand.readTextFile
    ) throws -> RunPlan {
        var fileFlags = FlagsFile()
        if let file = flagsFile { fileFlags = try FlagsFile.parse(try Self.read(file, readFile), file: file.path) }
        var variables: [(key: String, value: String)] = fileFlags.environment.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var dotEnv = DotEnv()
        for file in environmentFiles { try dotEnv.parse(try Self.read(file, readFile), file: file.path) }
        variables += dotEnv.variables
        let flags = LaunchFlags(
            featureFlags: fileFlags.featureFlags.merging(featureFlags.values) { _, commandLine in commandLine },
            automationFlags: fileFlags.automationFlags.merging(automationFlags.values) { _, commandLine in commandLine },
            entryPoint: entryPoint, flagsIn: flagsIn, flagsFileGiven: flagsFile != nil)
        try checkStubFiles()
        // The program must talk to the server this run starts: a mockServerURL of the user's (a stale flags file,
        // a report's flags reused) silently sent it elsewhere while the run's checks watched an idle server.
        if !stubs.isEmpty, flags.automationFlags[WireFormat.mockServerURLKey] != nil {
            throw UsageError(
                .mockServerURLOverride(
                    key: WireFormat.mockServerURLKey, origin: mockServerURLOrigin ?? "--flags-file \(fileFlags.mockServerURLOrigin ?? "")"))
        }
        if journalPath != nil && stubs.isEmpty && recording.recordFrom == nil && recording.proxyUnmatched == nil {
            throw UsageError(.journalNeedsStub)
        }
        if !https.intercept.isEmpty, let proxy = (variables + self.environment).first(where: { Self.isProxyVariable($0.key) }) {
            throw UsageError(.interceptProxyVariable(proxy.key))
        }
        if https.needsTLS && stubs.isEmpty && recording.recordFrom == nil && recording.proxyUnmatched == nil {
            throw UsageError(.httpsNeedsStub(https.enabled ? "--https" : "--intercept"))
        }
        var server: ServerPlan?
        let forwards = recording.recordFrom != nil || recording.proxyUnmatched != nil
        if !stubs.isEmpty || forwards {
            try recording.lockInto()
            var options = MockServer.Options()
            recording.apply(to: &options)
            if let journalLimit { options.journalLimit = journalLimit }
            options.journalSecrets = journalSecrets
            options.admin = admin
            options.globalResponseTemplating = globalResponseTemplating
            // The run's report and journal are replaced by their placeholders before the stubs load (a 100,000-route
            // stub takes seconds; a run killed then left the previous run's files whole). Best effort here: the run
            // writes them again as it starts (``Runner/run(_:signals:)``), where one that cannot be written is exit 74.
            _ = ReportPlaceholder.write(
                [("--report", reportPath, ReportPlaceholder.Format.json), ("--journal", journalPath, .json)].compactMap { output in
                    output.1.map { (output.0, $0, output.2) }
                })
            let loaded = try RunCommand.loadStubs(stubs.map(\.path), lenient: lenientStubs, templating: globalResponseTemplating)
            server = ServerPlan(
                stubs: loaded, host: host ?? "127.0.0.1", port: port ?? 8080, strict: strict, options: options,
                journalPath: journalPath, https: try https.plan(serverHost: host ?? "127.0.0.1", readFile: readFile))
            server?.record = recording.plan
            server?.adminWrites = AdminWritesOption.mode(named: adminWrites)
        }
        // --coverage sets these for the launch: a value given with -e would be replaced without a word.
        if coverage.directory != nil,
            let taken = (variables + self.environment).first(where: { CoverageOptions.variables.contains($0.key) })
        {
            throw UsageError(
                .coverage("\(taken.key) is set for the program and --coverage sets it to DIR's; drop the -e \(taken.key)=… (or --coverage)")
            )
        }
        // DIR's clean-up may not reach what this run reads: the program, its stub, env and flags files.
        var inputs = (stubs + environmentFiles + [flagsFile].compactMap { $0 }).map {
            (path: $0.path, origin: "\($0.spelling) \($0.path)", tree: FileSystem.isDirectory($0.path))
        }
        if program.contains("/") { inputs.append((program, "the program \(program)", false)) }
        try coverage.checkInputs(inputs)
        let coveragePlan = try coverage.plan(environment: environment)
        let launch = LaunchPlan(
            program: program, arguments: arguments, flags: flags,
            environment: variables + self.environment + (coveragePlan?.session.environment() ?? []),
            clearEnvironment: clearEnvironment, callerEnvironment: environment,
            workingDirectory: workingDirectory, timeout: timeout == .zero ? nil : timeout,
            killGrace: killGrace ?? .seconds(5), backend: launcher ?? .spawn)
        return RunPlan(launch: launch, server: server, settings: RunSettings(reportPath: reportPath, quiet: quiet, coverage: coveragePlan))
    }

    /// Every `--stub` names something readable: a missing one is exit 2, and a FIFO or device where a stub file is
    /// expected is an unusable file named by an option (exit 2), as for --env-file and --flags-file, not invalid
    /// content (exit 3).
    private func checkStubFiles() throws(UsageError) {
        for stub in stubs where !FileSystem.exists(stub.path) {
            throw UsageError(.noSuchStub(stub.spelling, path: stub.path, index: stub.index))
        }
        for stub in stubs {
            if let kind = FileSystem.specialKind(stub.path) { throw UsageError(.cannotRead(stub.spelling, path: stub.path, reason: kind)) }
        }
    }

    /// A variable interception sets for the program (`HTTPS_PROXY`, `http_proxy`…; a `NO_PROXY` of the user's is filtered).
    static func isProxyVariable(_ name: String) -> Bool {
        ["https_proxy", "http_proxy", "sut_mock_proxy_url"].contains(name.lowercased())
    }

    private static func read(_ file: NamedFile, _ readFile: (String) throws -> String) throws -> String {
        do {
            return try readFile(file.path)
        } catch let error as InputError {
            throw error
        } catch {
            throw UsageError(.cannotRead(file.spelling, path: file.path, reason: RunCommand.describe(error)))
        }
    }
}
