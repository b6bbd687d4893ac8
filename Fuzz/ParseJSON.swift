// libFuzzer target: the JSON parser and the stub loader on arbitrary bytes. Every input must end in a value
// or an error with a position, never a trap. Built and run by scripts/fuzz.sh.
import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? JSONParser.parse(bytes)
    _ = try? StubLoader.parse(String(decoding: bytes, as: UTF8.self), file: "fuzz.json", directory: "/nonexistent")
    return 0
}
