import AutomationSupport
package import MockServer
package import ProcessEngine

/// The options of `sut-launch serve [options] STUBS...`, in the order help lists them.
package enum ServeOption: CommandOption {
    case port, host, https, httpsHost, httpsCertificate, httpsKey, intercept, strict, lenientStubs, globalResponseTemplating, journal,
        journalLimit
    case journalSecrets, noAdmin, permittedSystemKeys, quiet, rootDir, bindAddress, maxRequestJournalEntries, proxyAll, recordMappings
    case keepSecrets, captureHeader, recordInsecure, allowHost, help

    package var repeats: Bool {
        switch self {
        case .httpsHost, .intercept, .captureHeader, .allowHost: true
        case .port, .host, .https, .httpsCertificate, .httpsKey, .strict, .lenientStubs, .globalResponseTemplating, .journal, .journalLimit,
            .journalSecrets, .noAdmin, .permittedSystemKeys, .quiet, .rootDir, .bindAddress, .maxRequestJournalEntries, .proxyAll,
            .recordMappings, .keepSecrets, .recordInsecure, .help:
            false
        }
    }

    package var aliasOf: ServeOption? {
        switch self {
        case .bindAddress: .host
        case .maxRequestJournalEntries: .journalLimit
        default: nil
        }
    }

    package var spec: OptionSpec {
        switch self {
        case .port: OptionSpec("--port", short: "-p", value: "PORT", help: "port (default 8080; 0 picks a free port)")
        case .host: OptionSpec("--host", value: "ADDRESS", help: "address (default 127.0.0.1)")
        case .https:
            OptionSpec("--https", help: "speak HTTPS with a CA minted for this run; its files are printed to stderr and removed at the end")
        case .httpsHost: HTTPSOptions.hostSpec
        case .httpsCertificate: HTTPSOptions.certificateSpec
        case .httpsKey: HTTPSOptions.keySpec
        case .intercept: HTTPSOptions.interceptSpec
        case .strict: OptionSpec("--strict", help: "exit 4 at the end if any request matched no stub")
        case .lenientStubs: OptionSpec("--lenient-stubs", help: "skip mappings and stub files that cannot be loaded (one warning each)")
        case .globalResponseTemplating:
            OptionSpec(
                "--global-response-templating", help: "template every WireMock mapping's response, also those added through /__admin")
        case .journal: OptionSpec("--journal", value: "FILE", help: "write the journal here when stopped")
        case .journalLimit: OptionSpec("--journal-limit", value: "N", help: "requests kept in the journal (default 10000)")
        case .journalSecrets:
            OptionSpec(
                "--journal-secrets", help: "keep Authorization, Cookie and Proxy-Authorization values in the journal (redacted by default)")
        case .noAdmin: OptionSpec("--no-admin", help: "turn the /__admin API off")
        case .permittedSystemKeys:
            OptionSpec(
                "--permitted-system-keys", value: "REGEX,...",
                help: "let {{systemValue}} read the environment variables these patterns match (none by default)")
        case .quiet: OptionSpec("--quiet", short: "-q", help: "do not log each request to stderr")
        case .rootDir:
            OptionSpec("--root-dir", value: "DIR", help: "WireMock's: a root with mappings/ and __files/ (default . when it has mappings/)")
        case .bindAddress: OptionSpec("--bind-address", value: "ADDRESS", help: "WireMock's name for --host")
        case .maxRequestJournalEntries: OptionSpec("--max-request-journal-entries", value: "N", help: "WireMock's name for --journal-limit")
        case .proxyAll: OptionSpec("--proxy-all", value: "URL", help: "WireMock's: forward what no mapping matches to URL")
        case .recordMappings:
            OptionSpec("--record-mappings", help: "WireMock's: record what --proxy-all forwards into the root (--root-dir, default .)")
        // Listed in serve's own help (they belong to `help record`'s topic elsewhere: R11-9 found them missing here).
        case .keepSecrets: RecordingOptions.keepSecretsSpec.listedInEveryHelp
        case .captureHeader: RecordingOptions.captureHeaderSpec.listedInEveryHelp
        case .recordInsecure: RecordingOptions.insecureSpec.listedInEveryHelp
        case .allowHost: RecordingOptions.allowHostSpec.listedInEveryHelp
        case .help: OptionSpec("--help", short: "-h", help: "show this help")
        }
    }
}

/// `serve`'s command line, typed; parsing reads no file.
package struct ServeOptions {
    package var stubPaths: [String] = []
    package var host = "127.0.0.1"
    package var port: UInt16 = 8080
    package var strict = false
    package var lenientStubs = false
    package var journalPath: String?
    /// `--https` and its companions.
    package var https = HTTPSOptions()
    package var quiet = false
    package var help = false
    /// Journal limit, secrets, admin API and templating.
    package var server = MockServer.Options()
    /// One line per WireMock option given that has no effect here (``WireMockCommandLine``).
    package var notices: [String] = []
    /// `--root-dir DIR`: a WireMock root; nil: none given.
    package var rootDirectory: String?
    /// `--permitted-system-keys`: the patterns of the environment variables `{{systemValue}}` may read.
    package var systemKeys: [String] = []
    /// `--proxy-all URL` and `--record-mappings`.
    package var recording = RecordingOptions()

    /// Parses `serve`'s arguments (after `serve`); WireMock's own options are read too (``WireMockCommandLine``).
    package static func parse(_ arguments: [String]) throws(UsageError) -> ServeOptions {
        let (arguments, notices) = try WireMockCommandLine.translate(arguments)
        var parsed = ParsedArguments<ServeOption>()
        try ArgumentParser.parse(arguments, into: &parsed, stopAtPositional: false)
        var options = ServeOptions()
        options.notices = notices
        if parsed.has(.help) {
            options.help = true
            return options
        }
        try checkOutputs(parsed)
        options.stubPaths = parsed.positionals
        options.server.journalLimit = 10_000
        for option in parsed.options { try options.apply(option) }
        try options.https.check()
        if options.recording.recordMissing { options.recording.into = options.rootDirectory ?? "." }
        // serve's spelling of these is WireMock's: name the options the user typed and the one to add.
        if options.recording.recordMissing && options.recording.proxyUnmatched == nil {
            throw UsageError(
                .recordingOptionNeeds("--record-mappings", needs: "records what --proxy-all URL forwards: add --proxy-all URL"))
        }
        try options.recording.check(serve: true)
        try options.recording.refuseOwnAddress(
            host: options.host, port: options.port, spelling: options.recording.proxyUnmatched.map { _ in "--proxy-all" })
        try options.recording.checkInto(spelling: "--root-dir")
        options.recording.apply(to: &options.server)
        return options
    }

    /// `--journal` once, on a file of its own: not a stub file, the HTTPS certificate or key, nor inside a stub directory
    /// or WireMock root's `mappings/` and `__files/` (`--root-dir`, the default root `.`, `record --into`): its placeholder
    /// replaced a mapping, a body file or the private key before they were read (r11 R11-7), as the launcher refuses.
    static func checkOutputs(_ parsed: ParsedArguments<ServeOption>) throws(UsageError) {
        let inputs = parsed.positionals.map { ($0, "the stub file \($0)") } + OutputFiles.inputs(parsed, [.httpsCertificate, .httpsKey])
        try OutputFiles.check(parsed, outputs: [.journal], inputs: inputs)
        let outputs = parsed.values(.journal).compactMap { option in option.value.map { ($0, option.origin) } }
        var trees = parsed.positionals.filter(FileSystem.isDirectory).map { ($0, "the stub directory \($0)") }
        let given = parsed.last(.rootDir)?.value
        if let root = given ?? (parsed.positionals.isEmpty ? "." : nil) {
            for part in ["mappings", "__files"] {
                trees.append((root + "/" + part, given == nil ? "WireMock's default root's \(part)/" : "--root-dir \(root)'s \(part)/"))
            }
        }
        try OutputFiles.checkOutsideTrees(outputs, trees: trees)
    }

    /// ``parse(_:)`` for the command: a usage error carries what it writes (``earlyReport(_:)``).
    static func parseForCommand(_ arguments: [String]) throws(CommandFailure) -> ServeOptions {
        do {
            return try parse(arguments)
        } catch {
            throw CommandFailure(error, report: earlyReport(arguments))
        }
    }

    /// What a usage error writes: the `--journal`'s placeholder (R9C-4: an earlier serve's journal stayed whole under
    /// its name), read from `arguments` as far as they can be read.
    static func earlyReport(_ arguments: [String]) -> EarlyReport? {
        guard let (translated, _) = try? WireMockCommandLine.translate(arguments) else { return nil }
        var parsed = ParsedArguments<ServeOption>()
        try? ArgumentParser.parse(translated, into: &parsed, stopAtPositional: false)
        return EarlyReport.given(parsed, .journal, make: { .placeholder(option: "--journal", path: $0) }) { (try? checkOutputs($0)) != nil }
    }

    /// What `serve` says and sets for the whole process before it starts: one line per notice, and the keys
    /// `{{systemValue}}` may read (none unless `--permitted-system-keys`).
    func announceAndPermit() throws {
        for notice in notices { Console.line("note: \(notice)".escapingControlCharacters()) }
        try ResponseTemplate.permitSystemKeys(systemKeys)
    }

    /// Records one option; the `switch` names every case, so a new option cannot be forgotten here.
    private mutating func apply(_ option: ParsedOption<ServeOption>) throws(UsageError) {
        switch option.option {
        case .port: port = try NumericOptions.port(option)
        case .host: host = try ChoiceOptions.listenAddress(option)
        case .https: https.enabled = true
        case .httpsHost: try https.addHost(option.value ?? "", spelling: option.spelling, index: option.index)
        case .httpsCertificate:
            https.certificate = RunOptions.NamedFile(path: option.value ?? "", spelling: option.spelling, index: option.index)
        case .httpsKey: https.key = RunOptions.NamedFile(path: option.value ?? "", spelling: option.spelling, index: option.index)
        case .intercept: try https.addIntercepted(option.value ?? "", spelling: option.spelling, index: option.index)
        case .strict: strict = true
        case .lenientStubs: lenientStubs = true
        case .globalResponseTemplating: server.globalResponseTemplating = true
        case .journal: journalPath = try OutputFiles.path(option)
        case .journalLimit: server.journalLimit = try NumericOptions.integer(option, in: NumericOptions.journalLimit)
        case .journalSecrets: server.journalSecrets = true
        case .noAdmin: server.admin = false
        case .permittedSystemKeys:
            systemKeys = (option.value ?? "").split(separator: ",").map(String.init)
            do throws(ResponseTemplate.Error) {
                try ResponseTemplate.permitSystemKeys(systemKeys, dryRun: true)
            } catch {
                let problem = String(error.description.dropFirst("template: ".count))
                throw UsageError(.invalidPattern(option.spelling, value: String((option.value ?? "").prefix(80)), problem: problem))
            }
        case .quiet: quiet = true
        case .rootDir: rootDirectory = option.value ?? ""
        case .bindAddress: host = try ChoiceOptions.listenAddress(option)
        case .maxRequestJournalEntries: server.journalLimit = try NumericOptions.integer(option, in: NumericOptions.journalLimit)
        case .proxyAll: try recording.setBackend(option.value ?? "", option: option.spelling, index: option.index, recording: false)
        case .recordMappings: recording.recordMissing = true
        case .keepSecrets: recording.keepSecrets = true
        case .captureHeader: try recording.addCapturedHeader(option.value ?? "", spelling: option.spelling)
        case .allowHost: try recording.addAllowedHost(option.value ?? "", spelling: option.spelling)
        case .recordInsecure: recording.insecure = true
        case .help: help = true
        }
    }
}

extension ServeOptions {
    /// The stub paths `serve` loads once WireMock's root is placed: `--root-dir DIR` with a `mappings/` is one more
    /// stub root (without one it adds nothing, as WireMock starts empty: said in a note); with no stubs and no
    /// `--root-dir`, a `mappings/` in the working directory is loaded, as WireMock's default root `.` is.
    /// - Throws: ``UsageError`` when `--root-dir` names no directory.
    mutating func placeWireMockRoot() throws(UsageError) {
        if let root = rootDirectory {
            guard !root.isEmpty, FileSystem.isDirectory(root) else {
                throw UsageError(
                    "--root-dir '\(root.prefix(200).escapingControlCharacters())': not a directory; give WireMock's root (the directory holding mappings/ and __files/)"
                )
            }
            if FileSystem.isDirectory(root + "/mappings") {
                if !stubPaths.contains(root) { stubPaths.append(root) }
            } else if let what = Self.notADirectory(root + "/mappings") {
                throw UsageError(
                    "--root-dir \(root.escapingControlCharacters()): its mappings is \(what), not a directory; make it the directory of mapping files, or remove it"
                )
            } else {
                notices.append(
                    "--root-dir \(root.escapingControlCharacters()) has no mappings/: it adds no mappings (WireMock starts empty too)")
            }
        } else if stubPaths.isEmpty, let what = Self.notADirectory("mappings") {
            // WireMock's default root is `.`: a `mappings` there that cannot be read is never a silently empty server.
            throw UsageError(
                "./mappings is \(what), not a directory: serve reads it as WireMock's default root; make it the directory of mapping files, remove it, or name stubs"
            )
        } else if stubPaths.isEmpty, FileSystem.isDirectory("mappings") {
            notices.append("no stubs given: loading ./mappings, as WireMock does with its default --root-dir .")
            stubPaths = ["."]
            rootDirectory = "."
        }
        // The recordings API persists into WireMock's root, as WireMock does (`--record-mappings` set it already).
        if server.recordingRoot == nil { server.recordingRoot = rootDirectory }
    }

    /// What `path` is when something is there that is not a directory ("a dangling link", "a file", "a FIFO, not a
    /// file") or cannot be looked at ("unreadable (permission denied)"); nil for a directory or nothing at all.
    private static func notADirectory(_ path: String) -> String? {
        if FileSystem.isDirectory(path) { return nil }
        if let failure = FileSystem.statFailure(path) { return "unreadable (\(failure))" }
        if FileSystem.isSymbolicLink(path) && !FileSystem.exists(path) { return "a dangling link" }
        guard FileSystem.exists(path) else { return nil }
        guard let kind = FileSystem.specialKind(path) else { return "a file" }
        return kind.hasSuffix(", not a file") ? String(kind.dropLast(", not a file".count)) : kind
    }
}
