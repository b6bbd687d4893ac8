/// A property let go after each test of an ``AutomationTestCase`` (XCTest keeps test case instances, and what
/// they hold, alive until the whole run ends; a failed test would leak its objects into the next).
///
/// ```swift
/// final class LoginTests: AutomationTestCase {
///     @Released var app: SUTApplication?
/// }
/// ```
@propertyWrapper
public final class Released<Value> {
    private var value: Value?

    /// Wraps the initial value (usually nil).
    public init(wrappedValue: Value?) { value = wrappedValue }

    /// The value; set to nil after the test by ``AutomationTestCase``.
    public var wrappedValue: Value? {
        get { value }
        set { value = newValue }
    }

}

/// Sets every `@Released` property of `owner` to nil.
func releaseReleasedProperties(in owner: AnyObject) {
    var mirror: Mirror? = Mirror(reflecting: owner)
    while let current = mirror {
        for child in current.children { (child.value as? any ReleasableProperty)?.release() }
        mirror = current.superclassMirror
    }
}

protocol ReleasableProperty { func release() }
extension Released: ReleasableProperty { func release() { value = nil } }
