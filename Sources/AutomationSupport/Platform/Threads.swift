#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a detached POSIX thread with a 1 MiB stack (not a Dispatch worker: these threads block in accept,
/// poll, read and waitpid). 1 MiB is virtual (pages are committed when touched): room for JSON and regex
/// structure at their documented depth limits with debug builds' frames.
/// - Returns: false when no thread could be started.
package func startDetachedThread(_ body: @escaping @Sendable () -> Void) -> Bool {
    final class Box { let body: @Sendable () -> Void; init(_ body: @escaping @Sendable () -> Void) { self.body = body } }
    let context = Unmanaged.passRetained(Box(body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    // 1 MiB (virtual; pages are committed when touched): room for JSON and regex structure at their
    // documented depth limits (JSONParser.maxDepth, LinearRegex.maxNesting) with debug builds' frames.
    pthread_attr_setstacksize(&attributes, 1024 * 1024)
    defer { pthread_attr_destroy(&attributes) }
    let status = pthread_create(&thread, &attributes, { context in
        let box = Unmanaged<Box>.fromOpaque((context as UnsafeMutableRawPointer?)!).takeRetainedValue()
        box.body()
        return nil
    }, context)
    if status != 0 {
        Unmanaged<Box>.fromOpaque(context).release()
        return false
    }
    return true
}
