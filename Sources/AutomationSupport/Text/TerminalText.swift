extension String {
    /// The text a terminal would print, without the sequences it would act on, for reports that show a program's
    /// output as text (JUnit): every escape sequence removed whole (CSI `ESC [ … m`, OSC `ESC ] 0;title BEL` and
    /// `ESC ] 8;;url ESC \` hyperlinks with their payload, DCS/SOS/PM/APC strings, two-character escapes, and their
    /// 8-bit C1 forms), and every other C0 and C1 control character dropped but TAB, LF and CR.
    ///
    /// A string sequence (OSC, DCS…) that is never terminated ends at the end of its line (the line feed is kept),
    /// so an unterminated title cannot hide the rest of the output.
    package func strippingTerminalSequences() -> String {
        // Most text holds no control character at all (C1 is 0xC2 0x80…0x9F in UTF-8): returned as it is.
        var previous: UInt8 = 0
        let plain = utf8.allSatisfy { byte in
            defer { previous = byte }
            return (byte >= 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D) && byte != 0x7F
                && !(previous == 0xC2 && (0x80...0x9F).contains(byte))
        }
        if plain { return self }
        let scalars = Array(unicodeScalars)
        var result = String.UnicodeScalarView()
        var mode = TerminalMode.text
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let (next, keep, consumed) = mode.step(scalar.value)
            if keep { result.append(scalar) }
            mode = next
            if consumed { index += 1 }
        }
        return String(result)
    }
}

/// Where ``Swift/String/strippingTerminalSequences()`` is in an escape sequence (ECMA-48).
private enum TerminalMode {
    case text, escape, intermediate, controlSequence, string, stringEscape

    /// The mode after `value`, whether `value` is kept as text, and whether it was consumed (false: read it again
    /// in the new mode, as when a sequence is cut by a character that cannot continue it).
    func step(_ value: UInt32) -> (TerminalMode, keep: Bool, consumed: Bool) {
        switch self {
        case .text:
            switch value {
            case 0x1B: return (.escape, false, true)
            case 0x9B: return (.controlSequence, false, true)
            case 0x90, 0x98, 0x9D, 0x9E, 0x9F: return (.string, false, true)
            case 0x09, 0x0A, 0x0D: return (.text, true, true)
            case 0x00..<0x20, 0x7F...0x9F: return (.text, false, true)
            default: return (.text, true, true)
            }
        case .escape:
            switch value {
            case 0x5B: return (.controlSequence, false, true) // [
            case 0x5D, 0x50, 0x58, 0x5E, 0x5F: return (.string, false, true) // ] P X ^ _
            case 0x20...0x2F: return (.intermediate, false, true)
            case 0x30...0x7E: return (.text, false, true)
            default: return (.text, false, false)
            }
        case .intermediate:
            switch value {
            case 0x20...0x2F: return (.intermediate, false, true)
            case 0x30...0x7E: return (.text, false, true)
            default: return (.text, false, false)
            }
        case .controlSequence:
            switch value {
            case 0x20...0x3F: return (.controlSequence, false, true)
            case 0x40...0x7E: return (.text, false, true)
            default: return (.text, false, false)
            }
        case .string:
            switch value {
            case 0x07, 0x9C: return (.text, false, true) // BEL, ST
            case 0x1B: return (.stringEscape, false, true)
            case 0x0A: return (.text, true, true)
            default: return (.string, false, true)
            }
        case .stringEscape:
            // ESC \ is ST; any other ESC cuts the string and starts a new escape.
            return value == 0x5C ? (.text, false, true) : (.escape, false, false)
        }
    }
}
