// AppDay.swift — one app's day (`app NAME`): its clipped sessions, total, share and time per hour slot.

/// One session of an app, clipped to the day.
public struct AppSessionSlice: Hashable, Sendable {
    /// Start of the clipped interval (the day's start when the session began earlier).
    public let start: Micros
    /// End of the clipped interval, exclusive (the day's end when the session ran on).
    public let end: Micros
    /// `end - start`; always > 0.
    public let micros: Micros
    /// The session's `session_id`, when it had one.
    public let id: String?
    /// The session's own category (normalised).
    public let category: String
    /// The session began before the day and was clipped at its start.
    public let startsBeforeDay: Bool
    /// The session ended after the day and was clipped at its end.
    public let endsAfterDay: Bool
    /// The zone's UTC offset at `start`, for printing it as local time.
    public let startUTCOffsetSeconds: Int
    /// The zone's UTC offset at `end`, for printing it as local time.
    public let endUTCOffsetSeconds: Int
    /// The session was still running when loaded and this part reaches its end (the load's
    /// clock), so it is shown as running, not as ended.
    public let running: Bool

    public init(
        start: Micros, end: Micros, id: String?, category: String, startsBeforeDay: Bool, endsAfterDay: Bool,
        startUTCOffsetSeconds: Int, endUTCOffsetSeconds: Int, running: Bool = false
    ) {
        self.start = start
        self.end = end
        self.micros = end - start
        self.id = id
        self.category = category
        self.startsBeforeDay = startsBeforeDay
        self.endsAfterDay = endsAfterDay
        self.startUTCOffsetSeconds = startUTCOffsetSeconds
        self.endUTCOffsetSeconds = endUTCOffsetSeconds
        self.running = running
    }
}

/// One hour slot's time of a single app.
public struct AppHour: Hashable, Sendable {
    public let slot: HourSlot
    /// This app's clipped time within the slot (overlapping sessions of the app both count).
    public let micros: Micros

    public init(slot: HourSlot, micros: Micros) {
        self.slot = slot
        self.micros = micros
    }
}

/// Everything `app NAME` shows: one app's clipped sessions and time on one local day.
public struct AppDayReport: Hashable, Sendable {
    public let window: DayWindow
    /// The zone's identifier (`America/New_York`, `UTC`).
    public let zone: String
    /// The app's name as interned in the history.
    public let name: String
    /// The category with most clipped time for this app that day (ties: first by scalar order,
    /// as `AppUsage.category`); on a day without its use, the category of its most recent
    /// session, or `Other` when it has none.
    public let category: String
    /// This app's clipped time that day ("app time": its own overlapping sessions both count).
    public let micros: Micros
    /// All apps' clipped time that day (`DayReport.totalMicros`).
    public let dayTotalMicros: Micros
    /// `micros / dayTotalMicros`; 0 when the day is empty.
    public let share: Double
    /// The app's sessions with clipped time > 0, in start order.
    public let sessions: [AppSessionSlice]
    /// The app's time in every slot of the day, in slot order (zeros included).
    public let hours: [AppHour]

    public var day: LocalDate { window.date }
    /// Whether the app has no time that day.
    public var isEmpty: Bool { micros == 0 }

    /// Builds the day of the app with id `app` (an index into `history.apps`, which it must be)
    /// on `date` in `zone`, from the day's window of `history`.
    public init(history: some SessionHistory, app: Int32, date: LocalDate, zone: Zone) {
        precondition(history.apps.indices.contains(Int(app)), "app id \(app) is not in the history")
        let window = zone.window(for: date)
        self.window = window
        self.zone = zone.identifier
        self.name = history.apps[Int(app)]
        let categoryNames = history.categories

        var total: Micros = 0
        var own: Micros = 0
        var slices: [AppSessionSlice] = []
        var categoryMicros: [Int32: Micros] = [:]
        var slotMicros = [Micros](repeating: 0, count: window.slots.count)

        let sessions = history.window(window, ids: true)
        for s in sessions {
            total += s.length
            guard s.app == app else { continue }
            own += s.length
            categoryMicros[s.category, default: 0] += s.length
            slices.append(
                AppSessionSlice(
                    start: s.start, end: s.end, id: sessions.id(of: s), category: categoryNames[Int(s.category)],
                    startsBeforeDay: s.startsBefore, endsAfterDay: s.endsAfter,
                    startUTCOffsetSeconds: zone.offsetSeconds(at: s.start),
                    endUTCOffsetSeconds: zone.offsetSeconds(at: s.end),
                    running: !s.endsAfter && sessions.isRunning(s)))
            window.forEachSlot(overlapping: s.start, s.end) { k, overlap in slotMicros[k] += overlap }
        }

        self.micros = own
        self.dayTotalMicros = total
        self.share = total > 0 ? Double(own) / Double(total) : 0
        self.sessions = slices
        self.hours = window.slots.indices.map { AppHour(slot: window.slots[$0], micros: slotMicros[$0]) }

        if let best = categoryMicros.map({ (name: categoryNames[Int($0.key)], micros: $0.value) })
            .sorted(by: DayReport.mostFirst).first
        {
            self.category = best.name
        } else if let latest = history.latestCategory(ofApp: app) {
            self.category = categoryNames[Int(latest)]
        } else {
            self.category = Normalise.otherCategory
        }
    }
}
