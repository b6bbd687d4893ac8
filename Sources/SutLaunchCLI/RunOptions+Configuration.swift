import AutomationHost
import AutomationSupport
import MockServer
package import ProcessEngine

extension RunOptions {
    /// The run these options ask for: reads the flags file, the dotenv files and the stubs, then builds the
    /// ``RunConfiguration``. Everything that sets a field of it is here, in one place.
    /// - Parameters:
    ///   - environment: the caller's environment.
    ///   - readFile: reads a named file (injected for tests).
    /// - Throws: ``UsageError`` (exit 2) for a file that cannot be read or a conflict, ``InputError`` (exit 3)
    ///   for bad file content.
    package func configuration(
        environment: [String: String], readFile: (String) throws -> String = RunCommand.readTextFile
    ) throws -> RunConfiguration {
        var configuration = RunConfiguration(program: program, arguments: arguments)
        configuration.callerEnvironment = environment
        var fileFlags = FlagsFile()
        if let file = flagsFile {
            fileFlags = try FlagsFile.parse(try Self.read(file, readFile), file: file.path)
            configuration.flagsFileGiven = true
        }
        var variables: [(key: String, value: String)] = fileFlags.environment.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        for file in environmentFiles { variables += try DotEnv.parse(try Self.read(file, readFile), file: file.path) }
        configuration.environment = variables + self.environment
        configuration.clearEnvironment = clearEnvironment
        configuration.workingDirectory = workingDirectory
        if let timeout { configuration.timeout = timeout == .zero ? nil : timeout }
        if let killGrace { configuration.killGrace = killGrace }
        configuration.flagsIn = flagsIn
        configuration.entryPoint = entryPoint
        if let launcher { configuration.launcher = launcher }
        configuration.reportPath = reportPath
        configuration.strict = strict
        if let port { configuration.mockPort = port }
        if let host { configuration.mockHost = host }
        configuration.journalPath = journalPath
        if let journalLimit { configuration.journalLimit = journalLimit }
        configuration.journalSecrets = journalSecrets
        configuration.admin = admin
        configuration.globalResponseTemplating = globalResponseTemplating
        configuration.quiet = quiet
        configuration.featureFlags = fileFlags.featureFlags.merging(featureFlags.values) { _, commandLine in commandLine }
        configuration.automationFlags = fileFlags.automationFlags.merging(automationFlags.values) { _, commandLine in commandLine }
        for stub in stubs where !FileSystem.exists(stub.path) {
            throw UsageError(.noSuchStub(stub.spelling, path: stub.path, index: stub.index))
        }
        // The program must talk to the server this run starts: a mockServerURL of the user's (a stale flags file,
        // a report's flags reused) silently sent it elsewhere while the run's checks watched an idle server.
        if !stubs.isEmpty, configuration.automationFlags[WireFormat.mockServerURLKey] != nil {
            throw UsageError(.mockServerURLOverride(key: WireFormat.mockServerURLKey, origin: mockServerURLOrigin ?? "--flags-file"))
        }
        if !stubs.isEmpty {
            configuration.stubs = try RunCommand.loadStubs(stubs.map(\.path), lenient: lenientStubs, templating: globalResponseTemplating)
        }
        if journalPath != nil && stubs.isEmpty { throw UsageError(.journalNeedsStub) }
        return configuration
    }

    private static func read(_ file: NamedFile, _ readFile: (String) throws -> String) throws(UsageError) -> String {
        do {
            return try readFile(file.path)
        } catch {
            throw UsageError(.cannotRead(file.spelling, path: file.path, reason: RunCommand.describe(error)))
        }
    }
}
