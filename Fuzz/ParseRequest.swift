// libFuzzer target: an HTTP/1.1 request head and a chunked body, as a client could send them. Every input
// must end in a request, "need more" or a status to answer with, never a trap. Built and run by scripts/fuzz.sh.
import MockServer

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? RequestHead.parse(bytes[...])
    var decoder = ChunkedDecoder(limit: 1 << 20)
    _ = try? decoder.decode(bytes[...])
    return 0
}
