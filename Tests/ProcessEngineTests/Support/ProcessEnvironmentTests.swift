import Foundation
import Testing

@testable import ProcessEngine

/// `ProcessEnvironment.current` (read from `environ` on every launch's path) held against Foundation's reading
/// of the same environment.
@Suite struct ProcessEnvironmentTests {
    @Test func itReadsWhatFoundationReads() {
        let ours = ProcessEnvironment.current
        #expect(!ours.isEmpty)
        #expect(ours == ProcessInfo.processInfo.environment)
    }
}
