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

    /// Read with a line limit: a line of exactly the limit passes, one byte more is refused naming its line, whether
    /// it ends inside a block, spans blocks or runs to the end; the bytes read otherwise are the file's.
    @Test func aLineLimitStopsAtTheLineThatPassesIt() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("lines-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let block = FileSystem.lineReadBlock
        func read(_ text: [UInt8], limit: Int) -> FileSystem.LineLimitedRead {
            _ = FileManager.default.createFile(atPath: path, contents: Data(text))
            return FileSystem.read(path, lineLimit: limit)
        }
        func line(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x61, count: count) }
        let fits = line(10) + [0x0A] + line(10) + [0x0A]
        #expect(read(fits, limit: 10) == .bytes(fits))
        #expect(read(line(3) + [0x0A] + line(11) + [0x0A] + line(2), limit: 10) == .lineTooLong(line: 2))
        #expect(read(line(3) + [0x0A, 0x0A] + line(11), limit: 10) == .lineTooLong(line: 3))
        let spanning = line(block - 5) + [0x0A] + line(block + 10) + [0x0A]
        #expect(read(spanning, limit: block) == .lineTooLong(line: 2))
        #expect(read(spanning, limit: block + 10) == .bytes(spanning))
        #expect(read(line(3), limit: 2) == .lineTooLong(line: 1))
        #expect(FileSystem.read("/nonexistent/\(UUID().uuidString)", lineLimit: 10) == .unreadable)
        #expect(FileSystem.read("/dev/null", lineLimit: 10) == .unreadable)
    }
}
