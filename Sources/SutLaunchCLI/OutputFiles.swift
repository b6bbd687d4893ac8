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

    /// Outputs inside a directory the run reads whole or records into (`trees`: path and how it was named): the next
    /// run would load the report as one of its files. A usage error naming both.
    /// `reads` says what the run does with the trees' files, for the message.
    static func checkOutsideTrees(
        _ outputs: [(path: String, origin: String)], trees: [(path: String, origin: String)],
        reads: String = "the run reads or writes (mappings/, __files/)"
    ) throws(UsageError) {
        for tree in trees {
            // The tree itself and every place a link in it leads (a linked `mappings/`, a stub file that is a link): the
            // loader follows them, so an output there replaces what it reads (r12 R12-2).
            let roots = reachedPlaces(tree.path)
            for output in outputs {
                guard let path = FileSystem.resolvedPath(output.path),
                    roots.contains(where: { path == $0 || FileSystem.isBelow(path, $0) })
                else { continue }
                throw UsageError(
                    "\(output.origin.escapingControlCharacters()) is inside \(tree.origin.escapingControlCharacters()), whose files "
                        + "\(reads): the next run would load the report as one of them; write it elsewhere")
            }
        }
    }

    /// Entries looked at when following the links under a tree, at most (a larger tree is checked this far).
    static let linkWalkLimit = 200_000

    /// `path` resolved, and the resolved targets of the links found under it (links to directories walked in turn,
    /// each place once): every place whose files a walk that follows links reads.
    static func reachedPlaces(_ path: String) -> [String] {
        guard let root = FileSystem.resolvedPath(path) else { return [] }
        var places = [root]
        var seen: Set<String> = [root]
        var pending = [(root, 0)]
        var budget = linkWalkLimit
        while let (directory, depth) = pending.popLast(), budget > 0, depth < 64 {
            guard FileSystem.isDirectory(directory) else { continue }
            for name in FileSystem.list(directory) {
                budget -= 1
                guard budget > 0 else { break }
                let entry = directory + "/" + name
                if FileSystem.isSymbolicLink(entry) {
                    guard let target = FileSystem.resolvedPath(entry), seen.insert(target).inserted else { continue }
                    places.append(target)
                    pending.append((target, depth + 1))
                } else if FileSystem.isDirectory(entry) {
                    pending.append((entry, depth + 1))
                }
            }
        }
        return places
    }

    /// A report on the file or pipe the console writes to (`--report /dev/stdout` with stdout a pipe, `--report out.txt
    /// > out.txt`): the report and the console's lines would mix, or the report's rename would drop the console's.
    /// `/dev/null` for both is fine. The remedy names the option refused, and is one that passes: another file when the
    /// console is a file (R9C-6: `/dev/fd/3 3>report.json` was advised, and fd 3 on a file is a link, refused), else the
    /// report on the console's pipe and the console moved away.
    static func checkConsole(_ outputs: [(path: String, origin: String)], streams: [String]) throws(UsageError) {
        let null = FileSystem.identity("/dev/null")
        for stream in streams {
            guard let console = FileSystem.identity("/dev/\(stream)"), console != null else { continue }
            for output in outputs where FileSystem.identity(output.path) == console {
                let option = output.origin.prefix { $0 != " " && $0 != "=" }
                let remedy =
                    FileSystem.isRegularFile("/dev/\(stream)")
                    ? "write it to another file than the console's \(stream) (\(option) report-file), or send the console elsewhere"
                    : "write it to a file, or move the console away: \(option) /dev/fd/3 "
                        + (stream == "stdout" ? "3>&1 1>&2" : "3>&2 2>console.txt")
                throw UsageError(
                    "\(output.origin.escapingControlCharacters()) is where the console writes (\(stream)): its lines would mix with the "
                        + "report; \(remedy)")
            }
        }
    }

    /// The existing regular files the program's own arguments name, as inputs for ``check(_:outputs:inputs:)``: an
    /// interpreter's script or a data file (`--report prog.sh sh prog.sh`, `--report d.json python3 x.py d.json`) was
    /// replaced by the report's placeholder before the program read it (R10C-7). An argument is read as a path as it
    /// is, and, after its first `=`, as the value of `--in=d.json` or `if=d.json`; a relative one both from here and
    /// from `--cwd`'s directory, where the program will read it.
    static func programArgumentFiles(_ arguments: [String], directory: String?) -> [(path: String, origin: String)] {
        var files: [(path: String, origin: String)] = []
        for (index, argument) in arguments.enumerated() {
            var names = [argument]
            if let equals = argument.firstIndex(of: "=") { names.append(String(argument[argument.index(after: equals)...])) }
            for name in names where !name.isEmpty {
                var paths = [name]
                if let directory, !name.hasPrefix("/") { paths.append(directory + "/" + name) }
                for path in paths where FileSystem.isRegularFile(path) {
                    files.append((path, "the program's argument \(index + 1) (\(argument))"))
                }
            }
        }
        return files
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
        if let problem = OutputFile.problem(value) ?? StandardDescriptorPath.closedDescriptorProblem(value) {
            throw UsageError(.cannotWrite(option.spelling, path: value, problem: problem, index: option.index))
        }
        OutputFile.pin(value)
        return value
    }
}
