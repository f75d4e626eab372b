// HourlyStack.swift — what the hourly chart stacks its bars by: a choice the view model keeps and the renderers read.

/// What the hourly bars are stacked by: the day's top apps (as the original app did) or its
/// top categories.
public enum HourlyStack: String, CaseIterable, Sendable {
    case app
    case category
}
