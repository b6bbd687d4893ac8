import AutomationTesting
import Foundation
import Testing

/// A test that throws before `terminate()` and has no scope lets its `SUTApplication` go with the program still
/// running: the last reference going away stops it (SIGTERM to its group, SIGKILL after the grace, reaped) and the
/// application's own control endpoint, without waiting in deinit.
@Suite struct SUTApplicationReleaseTests {
    @Test func anApplicationLetGoStopsItsProgramAndItsControlEndpoint() async throws {
        #expect(AutomationScope.current == nil, "a scope would keep the application alive")
        let (pid, port) = try await Self.launchAndLetGo()
        #expect(pid > 0 && port > 0)
        // Gone means reaped: a zombie still answers kill(pid, 0) (and until reaped the pid cannot be another's).
        let gone = pid > 0 && Self.eventually { kill(pid, 0) == -1 && errno == ESRCH }
        if pid > 0 && !gone { kill(pid, SIGKILL) }
        #expect(gone, "the program \(pid) outlived its application")
        #expect(Self.eventually { !Self.accepts(port) }, "the control endpoint on port \(port) outlived its application")
    }

    /// Launches `sh` that prints its control URL and pid, then sleeps an hour; returns both once printed and drops
    /// the application (the only reference, as a test that throws before `terminate()` does).
    static func launchAndLetGo() async throws -> (pid: Int32, port: UInt16) {
        let app = SUTApplication(executable: "/bin/sh")
        try app.launch(arguments: ["-c", #"echo "$SUT_CONTROL_URL"; echo "pid $$"; exec sleep 3600"#])
        let line = try await app.waitForOutput(matching: "^pid [0-9]+$")
        return (Int32(line.dropFirst(4)) ?? 0, port(in: app.output()))
    }

    /// The port of the control URL the program printed (`http://127.0.0.1:PORT/__sut/control?…`).
    static func port(in output: String) -> UInt16 {
        guard let start = output.range(of: "http://127.0.0.1:")?.upperBound else { return 0 }
        return UInt16(output[start...].prefix { $0.isNumber }) ?? 0
    }

    /// Whether something listens on 127.0.0.1:`port`.
    static func accepts(_ port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    /// Polls `condition` until it holds or 30 s pass (a loaded machine); the 2 s grace is far inside it.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }
}
