import XMLSupport

extension StubLoader {
    /// True once a mapping with an XML matcher or helper was refused because this is one static executable (which
    /// cannot load libxml2): the command line then runs the command in `sut-launch-foundation` instead.
    package static var xmlNeedsDynamicExecutable: Bool { XML.refusedInStaticExecutable }
}
