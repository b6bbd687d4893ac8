// libFuzzer target: a whole client connection. The input is what a client sends (requests, pipelined, with
// bodies, garbage); the server's connection loop answers it from a stub set over one end of a socketpair.
// It must end when the client's bytes end, answering or refusing, never trap. Built and run by scripts/fuzz.sh.
#if canImport(Glibc)
import Glibc
#endif
import MockServer

let stubs = try! StubLoader.parse("""
{ "routes": [
  { "method": "GET", "path": "/message", "body": "Hello world" },
  { "method": "POST", "path": "/users/{id}/orders", "requestJsonIncludes": { "a": 1 }, "status": 201, "json": { "ok": true } },
  { "path": "/chunked", "body": "in chunks", "chunked": true },
  { "path": "/q", "query": { "x": { "matches": "[0-9]+" } }, "headers": { "h": { "contains": "v" } }, "body": "q" },
  { "path": "/seq", "responses": [ { "status": 500 }, { "status": 200 } ] },
  { "path": "/s", "scenario": "s", "whenState": "Started", "setState": "next", "body": "s" },
  { "path": "/bad", "fault": "malformed-chunk" },
  { "path": "/random", "fault": "random-data" }
] }
""", file: "fuzz.json")
let server = StubServer(stubs: stubs)
var limits: ServerLimits = {
    var limits = ServerLimits()
    limits.headerTimeoutMs = 20
    limits.bodyTimeoutMs = 20
    limits.idleTimeoutMs = 20
    limits.sendTimeoutMs = 200
    limits.maxBodyBytes = 64 * 1024
    return limits
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var pair: [Int32] = [-1, -1]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return 0 }
    // The client: sends everything, says it is done, then reads whatever comes back (on a thread, so a
    // large answer cannot block the server's writes).
    var offset = 0
    while offset < size {
        let sent = write(pair[1], data + offset, size - offset)
        if sent <= 0 { break }
        offset += sent
    }
    shutdown(pair[1], Int32(SHUT_WR))
    let client = pair[1]
    let reader = Thread { var buffer = [UInt8](repeating: 0, count: 65_536); while read(client, &buffer, buffer.count) > 0 {} }
    reader.start()
    Connection(socket: Socket(fd: pair[0]), clientAddress: "fuzz", limits: limits, handler: { server.handle($0) },
               isStopped: { false }).serve()
    close(pair[0])
    reader.join()
    close(pair[1])
    return 0
}

/// A joinable thread (Foundation's Thread is not joinable and not in FoundationEssentials).
final class Thread: @unchecked Sendable {
    private var thread = pthread_t()
    private let body: () -> Void
    init(_ body: @escaping () -> Void) { self.body = body }
    func start() {
        pthread_create(&thread, nil, { context in
            Unmanaged<Thread>.fromOpaque(context!).takeUnretainedValue().body()
            return nil
        }, Unmanaged.passUnretained(self).toOpaque())
    }
    func join() { pthread_join(thread, nil) }
}
