/// A key pressed on a program's pseudo-terminal: what a terminal sends for it.
public enum TerminalKey: Sendable, Hashable {
    case enter, tab, escape, backspace, up, down, right, left
    /// Ctrl and a letter: `.control("c")` interrupts (the terminal sends SIGINT to the program's group),
    /// `.control("d")` is end of file at the start of a line.
    case control(Character)

    /// The bytes the terminal sends (empty for a control key no terminal has).
    public var bytes: [UInt8] {
        switch self {
        case .enter: return [13]
        case .tab: return [9]
        case .escape: return [27]
        case .backspace: return [127]
        case .up: return Array("\u{1B}[A".utf8)
        case .down: return Array("\u{1B}[B".utf8)
        case .right: return Array("\u{1B}[C".utf8)
        case .left: return Array("\u{1B}[D".utf8)
        case .control(let letter):
            guard let code = letter.uppercased().unicodeScalars.first?.value, code >= 64, code < 96 else { return [] }
            return [UInt8(code - 64)]
        }
    }

    /// A key by name, as scenarios write it: `enter`, `tab`, `escape`, `backspace`, `up`, `down`, `left`,
    /// `right`, or `Ctrl-C` (any letter; case does not matter).
    public init?(name: String) {
        switch name.lowercased() {
        case "enter", "return": self = .enter
        case "tab": self = .tab
        case "escape", "esc": self = .escape
        case "backspace": self = .backspace
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        default:
            let lower = name.lowercased()
            guard lower.hasPrefix("ctrl-"), lower.count == 6, let letter = lower.last, letter.isASCII, letter.isLetter else { return nil }
            self = .control(letter)
        }
    }

    /// The names ``init(name:)`` reads, for messages.
    public static let names = "enter, tab, escape, backspace, up, down, left, right, Ctrl-A … Ctrl-Z"
}
