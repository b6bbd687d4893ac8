/// Why a control message was not queued for the program under test.
package enum ControlQueueError: Error, Equatable, CustomStringConvertible {
    /// `limit` messages already wait unread (a program that never reads).
    case full(limit: Int)
    /// Messages of `limit` bytes in all wait unread.
    case fullBytes(limit: Int)
    /// The message is larger than the channel carries.
    case tooLarge(bytes: Int, limit: Int)

    package var description: String {
        switch self {
        case .full(let limit): "\(limit) control messages wait unread; is the program reading them?"
        case .fullBytes(let limit): "\(limit >> 20) MiB of control messages wait unread; is the program reading them?"
        case .tooLarge(let bytes, let limit): "the control message is \(bytes) bytes; the channel carries at most \(limit)"
        }
    }
}
