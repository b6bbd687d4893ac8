/// The one check of environment variables for `-e`, `--env-file`, flags files and steps: a name is
/// `[A-Za-z_][A-Za-z0-9_]*`, and a value holds no NUL byte (which would silently cut it short).
package enum EnvironmentVariable {
    /// Why `name=value` cannot be passed to a program, or nil when it can.
    package static func problem(name: String, value: String) -> String? {
        if name.isEmpty { return "an environment variable needs a name (KEY=VALUE)" }
        if !isValidName(name) {
            return "'\(name)' is not a valid environment variable name (letters, digits and _, not starting with a digit)"
        }
        if value.utf8.contains(0) { return "the value of \(name) contains a NUL byte, which cannot be passed to a program" }
        return nil
    }

    static func isValidName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
    }
}
