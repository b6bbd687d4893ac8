import Testing

@testable import SutLaunchCLI

/// R10C-13: the paths that name a standard descriptor, through links, and nothing else.
@Suite struct StandardDescriptorPathTests {
    @Test func aPathNamingAStandardDescriptorIsKnownByItsNumber() {
        #expect(StandardDescriptorPath.standardDescriptor(named: "/dev/stdout") == 1)
        #expect(StandardDescriptorPath.standardDescriptor(named: "/dev/stderr") == 2)
        #expect(StandardDescriptorPath.standardDescriptor(named: "/dev/stdin") == 0)
        #expect(StandardDescriptorPath.standardDescriptor(named: "/dev/fd/1") == 1)
        #expect(StandardDescriptorPath.standardDescriptor(named: "/proc/self/fd/2") == 2)
        for other in ["/dev/null", "/dev/fd/7", "/tmp/1", "report.json", "/dev/tty"] {
            #expect(StandardDescriptorPath.standardDescriptor(named: other) == nil, "\(other)")
        }
    }
}
