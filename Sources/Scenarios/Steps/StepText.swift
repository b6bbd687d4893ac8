/// What a quoted value in a step means: its escapes, and how steps compare text (`sut-launch help steps`).
package enum StepText {
    /// A quoted value's escapes, in one pass left to right: `\"` a quote, `\\` a backslash, `\n` a newline, `\t`
    /// a tab; any other backslash stays as written (so `\d` reaches a regular expression). `\\n` is backslash + n.
    static func unescape(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var output = ""
        var escaped = false
        for character in text {
            if escaped {
                switch character {
                case "\"": output.append("\"")
                case "\\": output.append("\\")
                case "n": output.append("\n")
                case "t": output.append("\t")
                default:
                    output.append("\\")
                    output.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                output.append(character)
            }
        }
        if escaped { output.append("\\") }
        return output
    }

    /// The rules for values and comparisons, stated once (`sut-launch help steps`).
    package static let rules = """
        TEXT IN STEPS:
          A quoted value may hold \\" (a quote), \\\\ (a backslash), \\n (a newline) and \\t (a tab), read in one
            pass (\\\\n is a backslash and n); any other backslash stays as written (\\d in a regular expression).
          ${NAME} is replaced by a --define, an earlier Given the environment variable step, or the environment,
            once (a value holding ${…} is not read again). In When I run and When I launch the program with, the
            line is split into words first and ${NAME} replaced inside each word, as a shell does with "${NAME}":
            a value is data (spaces and quotes in it never split or quote); '…' does not stop it. ${HOME} and
            ${TMPDIR} are the scenario's own. In what a Then step compares, a ${NAME} with an empty value fails it.
          Output and files are compared as bytes: the expected text's UTF-8 against what was written (Then I see,
            the output is:, the file contains / is:, snapshots). No Unicode normalization (NFC café is not NFD
            café) and invalid UTF-8 never equals U+FFFD; in the output is: and snapshots a line's [..] is any
            text on that line and a line that is just ... any lines; a \\ before such a line makes it text
            (\\... is the line ..., \\\\x is \\x): --update-snapshots writes the program's lines so.
          Then I see a line matching "…" takes a regular expression (the subset stubs use); one it cannot use,
            or one that matches empty text (x*, a|), is an error when the file loads (check, test, --dry-run exit 3).
            A ${NAME} in it is literal text. Matching stops at the step's deadline (its timeout, within, the
            scenario's): a pattern still working on long lines then fails the step, naming the pattern.

        """
}
