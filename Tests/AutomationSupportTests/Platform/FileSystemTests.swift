import Foundation
import Testing

@testable import AutomationSupport

@Suite struct FileSystemTests {
    /// Files read whole whatever their size, including sizes at the edges of the read sizes, and files whose
    /// size says nothing (/proc).
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 200_001])
    func readsWholeFiles(size: Int) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        #expect(FileSystem.read(path) == bytes)
    }

    @Test func readsFilesWhoseSizeIsZeroButHaveContent() throws {
        #if os(Linux)
        let status = try #require(FileSystem.read("/proc/self/status"))
        #expect(String(decoding: status, as: UTF8.self).contains("VmRSS"))
        #endif
        #expect(FileSystem.read("/nonexistent/\(UUID().uuidString)") == nil)
    }
}
