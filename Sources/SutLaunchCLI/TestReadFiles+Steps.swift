import AutomationSupport
import Scenarios

/// The steps that may name an input (`Given the files from "DIR"`, `Given the stubs "PATH"`, `Given the program
/// "PATH"`), found two ways: in the feature files' text before they are parsed, so the outputs are checked and their
/// placeholders written before the (possibly long) load; and in the parsed scenarios, checked again after it.
extension TestReadFiles {
    /// A step line that may name an input: its feature file, its line, and its text from the step's words on.
    struct NamedStep {
        var uri: String
        var line: Int
        var text: String
    }

    /// What the steps of `pickles` say, as written once an outline's values are filled in.
    static func namedSteps(_ pickles: [Pickle]) -> [NamedStep] {
        pickles.flatMap { pickle in pickle.steps.map { NamedStep(uri: pickle.uri, line: $0.line, text: $0.text) } }
    }

    /// The steps' words as the feature files' text holds them, read line by line before any file is parsed: every
    /// line (comments aside) where `the files from "`, `the stubs "` or `the program "` starts, from there on. An
    /// outline's `<placeholder>` stays as written here; the parsed scenarios are checked again after loading.
    static func namedSteps(inTextOf files: [String]) -> [NamedStep] {
        let starts = ["the files from \"", "the stubs \"", "the program \""]
        var steps: [NamedStep] = []
        for file in files {
            guard let bytes = FileSystem.read(file) else { continue } // the load names an unreadable file
            var number = 0
            // Split on LF as bytes: as Characters, CR LF is one and a CRLF file would be one line.
            for piece in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
                number += 1
                let line = Substring(String(decoding: piece, as: UTF8.self))
                guard !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") else { continue }
                for start in starts {
                    for range in line.ranges(of: start) {
                        steps.append(NamedStep(uri: file, line: number, text: String(line[range.lowerBound...])))
                    }
                }
            }
        }
        return steps
    }
}
