import AutomationSupport
package import MockServer
package import ProcessEngine

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The main form, `sut-launch [options] PROGRAM [ARGS...]`: its options (``RunOption``), parsed into
/// ``RunOptions``, which become a ``RunPlan``; and the file reading both steps share.
package enum RunCommand {
    /// What the command line asks for.
    package enum Action: Sendable {
        case run(RunPlan)
        case help
        case version
    }

    /// Parses the main form and loads what it names: ``RunOptions/parse(_:)`` then
    /// ``RunOptions/configuration(environment:readFile:)``.
    /// - Throws: ``UsageError`` (exit 2) for command-line mistakes, ``InputError`` (exit 3) for bad file content.
    package static func parse(
        _ arguments: [String], environment: [String: String],
        readFile: (String) throws -> String = RunCommand.readTextFile
    ) throws -> Action {
        let action: RunOptions.Action
        do { action = try RunOptions.parse(arguments) } catch { throw error.underlying }
        switch action {
        case .help: return .help
        case .version: return .version
        case .run(let options): return .run(try options.plan(environment: environment, readFile: readFile))
        }
    }

    /// Loads stub files, turning a stub problem into an ``InputError`` (exit 3).
    /// - Parameter lenient: skip (with one line each) mappings and files that cannot be loaded.
    /// - Parameter templating: `--global-response-templating`: template every WireMock mapping's response.
    /// - Parameter allowEmptyRoots: `serve` starts from a root whose `mappings/` is empty (to record into it); a run
    ///   that asked for stubs and got none from a root fails as an empty stub directory does.
    package static func loadStubs(
        _ paths: [String], lenient: Bool = false, templating: Bool = false, allowEmptyRoots: Bool = false
    ) throws(InputError) -> StubSet {
        do throws(StubError) {
            let stubs = try StubLoader.load(
                paths, skip: lenient ? { Console.line("warning: skipped \($0)".escapingControlCharacters()) } : nil)
            if !allowEmptyRoots, let root = stubs.emptyRoots.first { throw StubError(file: root, RunCommand.emptyRootMessage) }
            for notice in stubs.notices { Console.line("note: \(notice)".escapingControlCharacters()) }
            if templating { try stubs.templateWireMockResponses() }
            return stubs
        } catch {
            throw InputError(file: error.file, line: error.line, column: error.column, error.message)
        }
    }

    /// Why a WireMock root whose `mappings/` gave no mapping is refused (runs, `check`).
    package static let emptyRootMessage =
        "nothing loaded: it gives no mapping (a mappings/ with no .json file, or only {\"mappings\": []}); add a mapping there"

    /// Reads a UTF-8 text file (at most `FileSystem.readLimit` bytes).
    /// Reads `path` as UTF-8 text; bytes that are not UTF-8 are refused at their line and column (``InputError``,
    /// exit 3), never read as U+FFFD.
    package static func readTextFile(_ path: String) throws -> String {
        guard let bytes = FileSystem.read(path) else { throw UnreadableFile(reason: FileSystem.unreadable(path)) }
        if let place = UTF8Position.firstInvalid(bytes) {
            throw InputError(
                file: path, line: place.line, column: place.column,
                "not UTF-8 (a byte there is not part of a UTF-8 character, and would be read as U+FFFD); save it as UTF-8")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Why a file could not be read, as ``FileSystem/unreadable(_:)`` words it.
    struct UnreadableFile: Error {
        let reason: String
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? UnreadableFile { return error.reason }
        if let error = error as? CocoaError, error.code == .fileReadNoSuchFile { return "no such file" }
        if let error = error as? CocoaError, error.code == .fileReadNoPermission { return "permission denied" }
        return "\(error)"
    }
}
