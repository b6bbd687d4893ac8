import Foundation
import Testing

@testable import AutomationSupport

private let pythonIsInstalled = ["/usr/bin/python3", "/usr/local/bin/python3"].contains { FileManager.default.isExecutableFile(atPath: $0) }

/// Where this process's reference streams are written (21 MB): removed when the test process exits.
nonisolated(unsafe) private var referenceDirectory: String?

/// The DEFLATE decoder against the zlib C library (Python's zlib module): what it writes at every level, strategy,
/// window and wrapper decodes byte for byte, and on streams with bits flipped or bytes cut both agree on what
/// decodes and to what. reference_streams.py writes the streams.
@Suite(.enabled(if: pythonIsInstalled, "needs python3 (its zlib module writes the reference streams)"))
struct InflateTests {

    struct Reference: Decodable {
        let name: String
        let format: String
        let expect: String?
    }

    /// The streams, written once per test process.
    static let references: (directory: URL, entries: [Reference])? = {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inflate-\(UUID().uuidString)")
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("reference_streams.py")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return nil }
        referenceDirectory = directory.path
        atexit { if let path = referenceDirectory { try? FileManager.default.removeItem(atPath: path) } }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, directory.path]
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0, let manifest = try? Data(contentsOf: directory.appendingPathComponent("manifest.json")),
            let entries = try? JSONDecoder().decode([Reference].self, from: manifest)
        else { return nil }
        return (directory, entries)
    }()

    static func bytes(_ name: String) throws -> [UInt8] {
        let directory = try #require(references?.directory, "reference_streams.py did not run")
        return Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func decode(_ format: String, _ bytes: [UInt8], limit: Int = 64 << 20) throws(Inflate.Error) -> [UInt8] {
        switch format {
        case "gzip": try Inflate.gunzip(bytes, limit: limit)
        case "zlib": try Inflate.zlib(bytes, limit: limit)
        default: try Inflate.raw(bytes, limit: limit)
        }
    }

    /// Each stream whose name passes `filter` decodes to its expected output, or fails when zlib failed on it.
    func checkReferences(where filter: (String) -> Bool) throws {
        let entries = try #require(Self.references?.entries, "reference_streams.py did not run").filter { filter($0.name) }
        #expect(!entries.isEmpty)
        for entry in entries {
            let input = try Self.bytes(entry.name + ".in")
            let result = Result { () throws(Inflate.Error) in try Self.decode(entry.format, input) }
            if let expect = entry.expect {
                let expected = try Self.bytes(expect + ".out")
                switch result {
                case .success(let output):
                    #expect(output == expected, "\(entry.name): \(output.count) bytes, expected \(expected.count)")
                case .failure(let error): Issue.record("\(entry.name): \(error), but zlib decodes it")
                }
            } else if case .success(let output) = result {
                Issue.record("\(entry.name) decoded to \(output.count) bytes, but zlib refuses it")
            }
        }
    }

    @Test func decodesWhatZlibWritesAtEveryLevelStrategyWindowAndWrapper() throws {
        try checkReferences { !$0.hasPrefix("mutated") && !$0.contains("members") && !$0.contains("trailing") }
    }

    @Test func gzipHeadersWithAnExtraFieldANameACommentAndAHeaderCRCDecode() throws {
        try checkReferences { $0.hasPrefix("gzip-header-flags") }
        let names = Self.references?.entries.map(\.name) ?? []
        #expect(names.contains("gzip-header-flags1f") && names.contains("gzip-header-flags1e-bad-crc"))
    }

    @Test func concatenatedMembersDecodeAndBytesAfterTheStreamAreRefused() throws {
        try checkReferences { $0.contains("members") || $0.contains("trailing") }
        let garbage = try Self.bytes("gzip-trailing-garbage.in")
        #expect(throws: Inflate.Error.corrupt("not gzip data (no 1F 8B)", offset: garbage.count - 7)) {
            try Inflate.gunzip(garbage, limit: 1 << 20)
        }
    }

    @Test func agreesWithZlibOnStreamsWithBitsFlippedOrCutShort() throws {
        try checkReferences { $0.hasPrefix("mutated") }
    }

    @Test(arguments: [
        "gzip-small", "zlib-small", "raw-small", "gzip-small-stored", "raw-small-stored", "zlib-small-fixed", "gzip-header-flags1f",
    ])
    func everyPrefixOfAStreamIsTruncated(name: String) throws {
        let stream = try Self.bytes(name + ".in")
        let format = String(name.prefix { $0 != "-" })
        for length in 0..<stream.count {
            #expect(throws: Inflate.Error.truncated, "\(name) cut to \(length) bytes") {
                try Self.decode(format, Array(stream[..<length]))
            }
        }
        #expect(try Self.decode(format, stream).count > 0)
    }

    @Test func badChecksumsAreCorrupt() throws {
        let gzip = try Self.bytes("gzip-small.in")
        let zlib = try Self.bytes("zlib-small.in")
        for (stream, index, format, expected) in [
            (gzip, gzip.count - 8, "gzip", "CRC-32 does not match the data"),
            (gzip, gzip.count - 4, "gzip", "ISIZE 3001 is not the data's size 3000"),
            (zlib, zlib.count - 1, "zlib", "Adler-32 does not match the data"),
        ] {
            var bad = stream
            bad[index] ^= 1
            #expect(Self.reason { () throws(Inflate.Error) in try Self.decode(format, bad) } == expected)
        }
    }

    /// Why `decode` failed, when it was corrupt data; nil when it decoded or failed otherwise.
    static func reason(_ decode: () throws(Inflate.Error) -> [UInt8]) -> String? {
        do throws(Inflate.Error) {
            _ = try decode()
        } catch .corrupt(let reason, _) {
            return reason
        } catch {
            return "\(error)"
        }
        return nil
    }

    @Test func aBombStopsAtTheLimitHoldingNoMoreThanIt() throws {
        let bomb = try Self.bytes("bomb-1GiB-zeros.gz")
        for limit in [0, 1, 1 << 20, 16 << 20] {
            let started = ContinuousClock.now
            #expect(throws: Inflate.Error.overLimit(limit)) { try Inflate.gunzip(bomb, limit: limit) }
            // 1 GiB would take minutes in a debug build; the limit, a fraction of a second.
            #expect(ContinuousClock.now - started < .seconds(20))
        }
        #expect(throws: Inflate.Error.overLimit(16 << 20)) { try Inflate.raw(Array(bomb[10..<(bomb.count - 8)]), limit: 16 << 20) }
    }

    @Test func deflateContentIsZlibOrRawDeflate() throws {
        let expected = try Self.bytes("small.out")
        #expect(try Inflate.deflateContent(Self.bytes("zlib-small.in"), limit: 1 << 20) == expected)
        #expect(try Inflate.deflateContent(Self.bytes("raw-small.in"), limit: 1 << 20) == expected)
        // Raw DEFLATE whose first two bytes are a valid zlib header: a stored block of 0x9C bytes opens 78 9C (the
        // padding bits after its 3-bit header are ignored). Read as zlib it is corrupt, so it is read raw.
        let payload = Array(expected.prefix(0x9C))
        let raw: [UInt8] = [0x78, 0x9C, 0x00, 0x63, 0xFF] + payload + [0x03, 0x00]
        #expect(Self.reason { () throws(Inflate.Error) in try Inflate.zlib(raw, limit: 1 << 20) } != nil)
        #expect(try Inflate.raw(raw, limit: 1 << 20) == payload)
        #expect(try Inflate.deflateContent(raw, limit: 1 << 20) == payload)
        // Neither: the zlib reading's error.
        #expect(throws: Inflate.Error.corrupt("invalid block type 3", offset: 2)) {
            try Inflate.deflateContent([0x78, 0x9C, 0xFF], limit: 10)
        }
        #expect(throws: Inflate.Error.overLimit(10)) { try Inflate.deflateContent(Self.bytes("zlib-small.in"), limit: 10) }
    }
}
