/// Whether a program could be started, asked before anything launches (`check`, `test --dry-run`, `-D PROGRAM`):
/// the same lookup the launcher does (``ExecutableLocator``), its message as a launch would give it.
package enum ProgramCheck {
    /// Why `name` cannot be started (no such file, a directory, not executable, not in PATH), or nil.
    package static func problem(_ name: String, path searchPath: String?) -> String? {
        switch ExecutableLocator.locate(name, path: searchPath, currentDirectory: ExecutableLocator.currentDirectory()) {
        case .success: nil
        case .failure(let error): error.message
        }
    }
}
