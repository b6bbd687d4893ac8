import AutomationSupport
import ProcessEngine
import Scenarios

/// The files a command line writes, checked together before anything launches: each output option given once,
/// no two outputs naming one file (`--journal same.json --report same.json` lost one), and no output naming a
/// file the command reads or runs (`--report prog.sh ./prog.sh` overwrote the program). Paths are compared
/// resolved (``FileSystem/sameFile(_:_:)``). Each problem is a usage error naming both options.
enum OutputFiles {
    /// - Parameters:
    ///   - outputs: the long names of the options that name files to write.
    ///   - inputs: files the command reads or runs, each with how the user named it ("--stub s.json (argument 3)").
    static func check(_ parsed: ParsedArguments, outputs: [String], inputs: [(path: String, origin: String)] = []) throws(UsageError) {
        var written: [ParsedOption] = []
        for long in outputs {
            let given = parsed.values(long)
            if given.count > 1 {
                throw UsageError("\(long) is given twice: \(given[0].origin) and \(given[1].origin); keep one")
            }
            written += given
        }
        written.sort { $0.index < $1.index }
        for (index, output) in written.enumerated() {
            let path = output.value ?? ""
            for earlier in written[..<index] where FileSystem.sameFile(earlier.value ?? "", path) {
                throw UsageError("\(earlier.origin) and \(output.origin) name the same file; give each its own")
            }
            for input in inputs where FileSystem.sameFile(input.path, path) {
                throw UsageError("\(output.origin) would overwrite \(input.origin); write it elsewhere")
            }
        }
    }

    /// The files a list of options names, as inputs for ``check(_:outputs:inputs:)``.
    static func inputs(_ parsed: ParsedArguments, _ longs: [String]) -> [(path: String, origin: String)] {
        parsed.options.filter { longs.contains($0.long) && $0.value != nil }.map { ($0.value!, $0.origin) }
    }
}
