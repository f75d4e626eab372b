// RangeSafetyCases.swift — the terminal-safety cases of issue 32's commands (summary, month, timesheet) and of the ranges apps, categories and tasks take: hostile names through a range's views, the store's kept totals and tracked time, and hostile ranges in their errors.

/// Added to `safetyCases` (TerminalSafetyTests.swift), which every command of the table must have cases in.
let rangeSafetyCases: [SafetyCase] = [
    // summary and month: a range's names as a day's; the store's from its kept totals
    SafetyCase("summary", ["summary first..last"], shows: ["{social}"], json: allApps + dayCategories),
    SafetyCase("summary", ["import {data}", "load store", "summary 2026-02"], shows: ["{social}"], json: allApps + dayCategories),
    SafetyCase("summary", ["summary {evil}"], status: 1, shows: ["'{evil}' is not a range"]),
    SafetyCase("month", ["month"], shows: ["{social}"], json: ["{social}", "{ignore}"]),
    SafetyCase("month", ["month {evil}"], status: 1, shows: ["'{evil}' is not prev or next"]),
    SafetyCase("apps", ["apps top 3 first..last"], shows: ["Apps · "], json: ["{uncat}"]),
    SafetyCase("categories", ["task add {title} category {social}", "track {title} 2026-02-23T09:00 2026-02-23T10:00", "categories 2026-02"], shows: ["{social}"], json: ["{social}"]),
    SafetyCase("tasks", ["track {title} 2026-02-23T09:00 2026-02-23T10:00", "tasks 2026-02"], shows: ["{title}"], json: ["{title}"]),
    SafetyCase("timesheet", ["task add {title} category {social}", "track {title} 2026-02-23T09:00 2026-02-23T10:00", "timesheet 2026-02"], shows: ["{title}", "{social}"], json: ["{title}", "{social}"]),
    SafetyCase("timesheet", ["timesheet {evil}"], status: 1, shows: ["'{evil}' is not a range"]),
]
