extension JavaDateFormat {
    /// The letters read, with what each means, for the message that refuses another.
    package static let supportedLetters =
        "y/u (year), M/L (month), d (day), E (day name), a (AM/PM), H (hour 0-23), h (hour 1-12, with a), m, s, S (fraction), X/x/Z (offset)"
    /// Letters Java knows that sut-launch does not read, with what they are.
    static let unsupportedLetters: [Character: String] = [
        "G": "era", "Q": "quarter", "q": "quarter", "Y": "week-based year", "w": "week of year", "W": "week of month",
        "D": "day of year", "F": "aligned week of month", "e": "localized day of week", "c": "localized day of week",
        "k": "hour 1-24", "K": "hour 0-11", "n": "nano of second", "N": "nano of day", "A": "milli of day",
        "B": "period of day", "V": "zone id", "v": "generic zone name", "z": "zone name", "O": "localized offset",
        "p": "padding", "g": "modified Julian day",
    ]

    /// Compiles a pattern into elements, one letter run at a time (what Java's `appendPattern` does).
    struct Compiler {
        let characters: [Character]
        var index = 0
        /// Optional sections nest at most this deep (Java has no limit; a pattern is a file's literal).
        static let maxDepth = 16

        init(characters: [Character]) { self.characters = characters }

        mutating func sequence(depth: Int) throws(Error) -> [Element] {
            var elements: [Element] = []
            while index < characters.count {
                let character = characters[index]
                switch character {
                case "[":
                    guard depth < Self.maxDepth else { throw Error(description: "optional sections nest deeper than \(Self.maxDepth)") }
                    index += 1
                    elements.append(.optional(try sequence(depth: depth + 1)))
                case "]":
                    guard depth > 0 else { throw Error(description: "\"]\" without a \"[\" before it") }
                    index += 1
                    return elements
                case "'":
                    elements.append(.literal(Array(try quoted().utf8)))
                case "{", "}", "#":
                    throw Error(description: "\"\(character)\" is reserved in Java's patterns; quote it: '\(character)'")
                default:
                    if character.isASCII && character.isLetter {
                        var count = 0
                        while index < characters.count && characters[index] == character {
                            count += 1
                            index += 1
                        }
                        elements.append(try letter(character, count))
                    } else {
                        elements.append(.literal(Array(String(character).utf8)))
                        index += 1
                    }
                }
            }
            return elements // an unclosed "[" ends with the pattern, as in Java
        }

        private mutating func quoted() throws(Error) -> String {
            index += 1
            var text = ""
            while index < characters.count {
                if characters[index] == "'" {
                    if index + 1 < characters.count && characters[index + 1] == "'" {
                        text.append("'")
                        index += 2
                        continue
                    }
                    index += 1
                    return text.isEmpty ? "'" : text // '' alone is a quote
                }
                text.append(characters[index])
                index += 1
            }
            throw Error(description: "a quoted text is not closed with '")
        }

        private func letter(_ letter: Character, _ count: Int) throws(Error) -> Element {
            func tooMany() -> Error { Error(description: "too many pattern letters: \(String(repeating: letter, count: count))") }
            switch letter {
            case "y", "u":
                let field: Field = letter == "u" ? .year : .yearOfEra
                guard count <= 19 else { throw tooMany() }
                switch count {
                case 2: return .reducedYear
                case 1, 3: return .number(field, min: count, max: 19, sign: letter == "u" ? .minus : .none)
                default: return .number(field, min: count, max: 19, sign: .exceedsPad)
                }
            case "M", "L":
                switch count {
                case 1, 2: return Self.value(.month, count)
                case 3: return .text(.month, DateNames.shortMonths)
                case 4: return .text(.month, DateNames.months)
                default: throw Error(description: "\(String(repeating: letter, count: count)) (narrow month names) is not supported")
                }
            case "E":
                guard count <= 4 else {
                    throw Error(description: "\(String(repeating: letter, count: count)) (narrow day names) is not supported")
                }
                return .text(.dayOfWeek, count == 4 ? DateNames.days : DateNames.shortDays)
            case "a":
                guard count == 1 else { throw tooMany() }
                return .text(.amPm, DateNames.amPm)
            case "d", "H", "h", "m", "s":
                guard count <= 2 else { throw tooMany() }
                let fields: [Character: Field] = ["d": .dayOfMonth, "H": .hourOfDay, "h": .clockHourOfAmPm, "m": .minute, "s": .second]
                return Self.value(fields[letter]!, count)
            case "S":
                guard count <= 9 else { throw tooMany() }
                return .fraction(count)
            case "X", "x", "Z":
                return try Self.offset(letter, count)
            default:
                let meaning = unsupportedLetters[letter].map { " (\($0))" } ?? ""
                throw Error(
                    description: "the pattern letter \(letter)\(meaning) is not supported; supported: \(supportedLetters)")
            }
        }

        private static func value(_ field: Field, _ count: Int) -> Element {
            count == 1 ? .number(field, min: 1, max: 19, sign: .none) : .number(field, min: 2, max: 2, sign: .none)
        }

        /// Java's offset letters: `X`…`XXXXX` (with `Z` for zero), `x`…`xxxxx` (digits only), `Z`…`ZZZ` (`+HHMM`)
        /// and `ZZZZZ` (`+HH:MM:ss` or `Z`).
        private static func offset(_ letter: Character, _ count: Int) throws(Error) -> Element {
            let zulu = letter == "X" || (letter == "Z" && count == 5)
            switch (letter, count) {
            case ("Z", 1...3): return .offset(OffsetStyle(zulu: false, colon: false, minutesRequired: true, secondsAllowed: false))
            case ("Z", 4): throw Error(description: "ZZZZ (a localized offset, GMT+01:00) is not supported; use XXX")
            case ("Z", 5), (_, 5): return .offset(OffsetStyle(zulu: zulu, colon: true, minutesRequired: true, secondsAllowed: true))
            case (_, 1): return .offset(OffsetStyle(zulu: zulu, colon: false, minutesRequired: false, secondsAllowed: false))
            case (_, 2): return .offset(OffsetStyle(zulu: zulu, colon: false, minutesRequired: true, secondsAllowed: false))
            case (_, 3): return .offset(OffsetStyle(zulu: zulu, colon: true, minutesRequired: true, secondsAllowed: false))
            case (_, 4): return .offset(OffsetStyle(zulu: zulu, colon: false, minutesRequired: true, secondsAllowed: true))
            default: throw Error(description: "too many pattern letters: \(String(repeating: letter, count: count))")
            }
        }
    }

    /// Whether the pattern can give an hour from `h` without `a` (Java leaves such a time unresolved).
    static func checkClockHours(_ elements: [Element]) throws(Error) {
        var clock = false
        var amPm = false
        func walk(_ elements: [Element]) {
            for element in elements {
                switch element {
                case .number(.clockHourOfAmPm, _, _, _): clock = true
                case .text(.amPm, _): amPm = true
                case .optional(let inner): walk(inner)
                default: break
                }
            }
        }
        walk(elements)
        if clock && !amPm { throw Error(description: "h (hour 1-12) needs a (AM/PM); write H for hours 0-23") }
    }
}
