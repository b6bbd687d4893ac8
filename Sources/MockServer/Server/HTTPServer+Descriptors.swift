import AutomationSupport

extension HTTPServer {
    /// What the accept thread calls when accept() fails for want of descriptors: one line on stderr, the first time,
    /// so a server that stops taking clients under a low `ulimit -n` says why (the clients get 503 meanwhile).
    static func outOfDescriptorsNotice(cap: Int) -> @Sendable () -> Void {
        let said = AtomicFlag()
        return {
            guard !said.value else { return }
            said.value = true
            let limit = DescriptorLimit.soft.map { "ulimit -n \($0)" } ?? "the system's limit"
            StandardStreams.error(
                "mock server: out of file descriptors (\(limit); up to \(cap) connections at once): new clients get 503 "
                    + "until others close; raise the limit (ulimit -n) for more\n")
        }
    }
}
