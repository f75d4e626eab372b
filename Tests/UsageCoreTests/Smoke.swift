import Testing
@testable import UsageCore
