import AutomationSupport
import ProcessEngine

/// The files a command line writes, checked together before anything launches: each output option given once,
/// no two outputs naming one file (`--journal same.json --report same.json` lost one), and no output naming a
/// file the command reads or runs (`--report prog.sh ./prog.sh` overwrote the program). Paths are compared
/// resolved (``FileSystem/sameFile(_:_:)``). Each problem is a usage error naming both options.
enum OutputFiles {
    /// - Parameters:
    ///   - outputs: the options that name files to write.
    ///   - inputs: files the command reads or runs, each with how the user named it ("--stub s.json (argument 3)").
    static func check<Option>(_ parsed: ParsedArguments<Option>, outputs: [Option], inputs: [(path: String, origin: String)] = [])
        throws(UsageError)
    {
        var written: [ParsedOption<Option>] = []
        for output in outputs {
            let given = parsed.values(output)
            if given.count > 1 {
                throw UsageError(.givenTwice(output.spec.long, first: given[0].origin, second: given[1].origin))
            }
            written += given
        }
        written.sort { $0.index < $1.index }
        for (index, output) in written.enumerated() {
            let path = output.value ?? ""
            for earlier in written[..<index] where FileSystem.sameFile(earlier.value ?? "", path) {
                throw UsageError(.sameFile(first: earlier.origin, second: output.origin))
            }
            for input in inputs where FileSystem.sameFile(input.path, path) {
                throw UsageError(.wouldOverwrite(output: output.origin, input: input.origin))
            }
        }
    }

    /// The files a list of options names, as inputs for ``check(_:outputs:inputs:)``.
    static func inputs<Option>(_ parsed: ParsedArguments<Option>, _ options: [Option]) -> [(path: String, origin: String)] {
        parsed.options.filter { options.contains($0.option) && $0.value != nil }.map { ($0.value!, $0.origin) }
    }

    /// An output file named by an option, checked before anything launches: a missing directory or an
    /// unwritable path is a usage error naming the option. Its directory is opened now (``OutputFile/pin(_:)``): the
    /// report is written there at the end, whatever links appear on its path meanwhile.
    static func path<Option>(_ option: ParsedOption<Option>) throws(UsageError) -> String {
        let value = option.value ?? ""
        if let problem = OutputFile.problem(value) {
            throw UsageError(.cannotWrite(option.spelling, path: value, problem: problem, index: option.index))
        }
        OutputFile.pin(value)
        return value
    }
}
