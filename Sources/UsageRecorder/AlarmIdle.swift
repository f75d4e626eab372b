// AlarmIdle.swift — idle told by the X server, not asked: two XSync alarms on its IDLETIME counter (one as idle reaches the threshold, one at the first input after, switched on only while idle), so the recorder wakes only when idle begins or ends; the instants are exact (now − the counter).
import UsageCore

/// Idle from XSync's IDLETIME alarms. The X11 backend reads the display and hands over what
/// fired (`fired`); under i3 this source reads the display itself (`descriptors`).
public final class AlarmIdle: IdleSource {
    public let name = "XSync IDLETIME"
    public let descriptors: [Int32]
    private let display: XDisplay
    private let threshold: Micros
    private var active = true
    /// Once, at the start: whether the person is idle already (no alarm says so).
    public private(set) var deadline: Micros?

    /// Sets the alarms on `display`; nil without XSync or IDLETIME (libXext missing, an old
    /// server). `readsDisplay`: this source waits on the display's descriptor itself.
    public init?(display: XDisplay, threshold: Micros, monotonic: Micros, readsDisplay: Bool) {
        guard display.setIdleAlarms(thresholdMilliseconds: Int(max(2, threshold / 1000))) else { return nil }
        self.display = display
        self.threshold = threshold
        descriptors = readsDisplay ? [display.descriptor] : []
        deadline = monotonic
    }

    public func readable(_ fd: Int32, now: Micros) -> [RecorderEvent] { fired(display.drain(), now: now) }
    public func beforeWait(now: Micros) -> [RecorderEvent] { descriptors.isEmpty ? [] : fired(display.drain(), now: now) }

    /// The first check: a person idle already when the recorder starts is idle from their last input.
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] {
        deadline = nil
        guard let idle = counter(), idle >= threshold else { return [] }
        return becameIdle(since: now - idle, now: now)
    }

    /// What the alarms that fired (in `seen`) mean.
    func fired(_ seen: XDisplay.Seen, now: Micros) -> [RecorderEvent] {
        var events: [RecorderEvent] = []
        if seen.idleAlarm, active, let idle = counter() {
            if idle >= threshold {
                events += becameIdle(since: now - idle, now: now)
            } else {
                // Input came back between the alarm and this wakeup: the alarm fired before that
                // input, so idle began at the latest the alarm's counter value before it.
                let input = now - idle
                events += [.idle(since: input - display.alarmMilliseconds * 1000), .resume(at: input)]
            }
        }
        if seen.inputAlarm, !active, let idle = counter(), idle < threshold {
            events += resumed(at: now - idle)
        }
        return events
    }

    private func becameIdle(since: Micros, now: Micros) -> [RecorderEvent] {
        active = false
        display.inputAlarm(on: true)
        // Input between the idle alarm and the input alarm's switching on raised no event: the
        // counter, read after the switch, tells.
        if let idle = counter(), idle < threshold { return [.idle(since: since)] + resumed(at: now - idle) }
        return [.idle(since: since)]
    }

    private func resumed(at: Micros) -> [RecorderEvent] {
        active = true
        display.inputAlarm(on: false)
        return [.resume(at: at)]
    }

    /// µs since the last input.
    private func counter() -> Micros? { display.idleCounterMilliseconds().map { $0 * 1000 } }

    public func idleMilliseconds() -> Int64? { display.idleCounterMilliseconds() }
    public func stop() {}
}
