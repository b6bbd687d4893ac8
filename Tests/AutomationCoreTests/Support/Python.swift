import Foundation

/// True when python3 can import `module` (the reference implementations these tests compare against come from
/// PyPI; scripts/install-test-deps.sh installs them).
func pythonCanImport(_ module: String) -> Bool {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", "import \(module)"]
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}
