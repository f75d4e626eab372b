// UnsafeSendable.swift — a value handed to other threads that only read it while the call that made it runs.

/// A value handed to other threads, which only read it while the call that made it runs (an
/// input buffer, a segment).
package struct UnsafeSendable<T>: @unchecked Sendable {
    package let value: T
    package init(_ value: T) { self.value = value }
}
