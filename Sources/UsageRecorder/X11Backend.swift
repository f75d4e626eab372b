// X11Backend.swift — the desktop under X11 with any EWMH window manager: libX11, libXext and libXss loaded at run time (CX11), the active window followed by PropertyNotify on the root window (no polling for focus), its WM_CLASS (else its process's name) as the app, idle told by XSync's IDLETIME alarms (else asked of MIT-SCREEN-SAVER).
import CX11
import UsageCore

/// An open X display, for the X11 backend and for i3's idle and I3_SOCKET_PATH.
public final class XDisplay {
    let handle: OpaquePointer
    public let name: String

    /// Opens `name` (the DISPLAY value).
    public init(_ name: String) throws(RecorderError) {
        guard cx11_load() != 0 else { throw .noX11Library(reason: String(cString: cx11_load_error())) }
        guard let handle = cx11_open(name, { XDisplay.lost() }) else { throw .cannotOpenDisplay(name) }
        self.handle = handle
        self.name = name
    }

    deinit { cx11_close(handle) }

    /// Set by the recorder: what to do when the X server goes away (Xlib then exits the process).
    nonisolated(unsafe) public static var onLost: (() -> Void)?
    private static func lost() { onLost?() }

    public var descriptor: Int32 { cx11_fd(handle) }
    public var hasWindowManager: Bool { cx11_has_ewmh(handle) != 0 }

    /// Milliseconds since the last input, nil without MIT-SCREEN-SAVER.
    public func idleMilliseconds() -> Int64? {
        let ms = cx11_idle_ms(handle)
        return ms < 0 ? nil : Int64(ms)
    }

    /// Whether libXss is there and the server has MIT-SCREEN-SAVER.
    public var hasIdle: Bool { idleMilliseconds() != nil }

    /// The active window's app: its class, else its process's name; nil when none is active.
    public func activeApp() -> String? {
        let window = cx11_active_window(handle)
        guard window != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 16_384)
        let n = cx11_window_class(handle, window, &buffer, Int32(buffer.count))
        if n > 0, let name = AppName.fromClass(buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }) { return name }
        let pid = cx11_window_pid(handle, window)
        return pid > 0 ? AppName.ofProcess(Int32(pid)) : nil
    }

    /// A text property of the root window (I3_SOCKET_PATH).
    public func rootText(_ atom: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = cx11_root_string(handle, atom, &buffer, Int32(buffer.count))
        guard n > 0 else { return nil }
        return String(decoding: buffer[0..<Int(n)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Asks for the root window's property changes.
    func watchRoot() { cx11_watch_root(handle) }

    /// What the queued events said.
    struct Seen {
        var focus = false
        var idleAlarm = false
        var inputAlarm = false
    }

    /// Reads the queued events.
    func drain() -> Seen {
        let bits = cx11_drain(handle)
        return Seen(focus: bits & CX11_FOCUS != 0, idleAlarm: bits & CX11_IDLE_ALARM != 0, inputAlarm: bits & CX11_INPUT_ALARM != 0)
    }

    /// Milliseconds since the last input from XSync's IDLETIME counter, nil without it.
    func idleCounterMilliseconds() -> Int64? {
        let ms = cx11_idle_counter_ms(handle)
        return ms < 0 ? nil : Int64(ms)
    }

    /// Sets XSync's two idle alarms; false without XSync or IDLETIME.
    func setIdleAlarms(thresholdMilliseconds: Int) -> Bool { cx11_idle_alarms(handle, thresholdMilliseconds) != 0 }
    /// Switches the input alarm's events on (while idle) or off.
    func inputAlarm(on: Bool) { cx11_input_alarm(handle, on ? 1 : 0) }
    /// IDLETIME when the idle alarm fired (ms).
    var alarmMilliseconds: Micros { Micros(cx11_alarm_value(handle)) }
}

/// The X11 backend.
public final class X11Backend: RecorderBackend {
    public let kind = BackendKind.x11
    private let display: XDisplay
    private let idle: (any IdleSource)?
    /// The idle source when it is XSync's alarms (they come with the display's other events).
    private let alarms: AlarmIdle?

    /// Opens `displayName`; refuses a display without an EWMH window manager.
    public init(displayName: String, idleThreshold: Micros, monotonic: Micros) throws(RecorderError) {
        display = try XDisplay(displayName)
        guard display.hasWindowManager else { throw .noWindowManager(display: displayName) }
        display.watchRoot()
        let display = self.display
        alarms = AlarmIdle(display: display, threshold: idleThreshold, monotonic: monotonic, readsDisplay: false)
        idle = alarms ?? (display.hasIdle ? PolledIdle(threshold: idleThreshold, monotonic: monotonic) { display.idleMilliseconds() } : nil)
    }

    public var descriptors: [Int32] { [display.descriptor] }

    public func readable(_ fd: Int32, now: Micros) throws(RecorderError) -> [RecorderEvent] { events(now: now) }

    /// Xlib may hold events it read already: they are taken before every wait.
    public func beforeWait(now: Micros) -> [RecorderEvent] { events(now: now) }

    /// What the queued events say: idle first (a session ends at the last input, before a
    /// focus change seen at the same wakeup), then the focus.
    private func events(now: Micros) -> [RecorderEvent] {
        let seen = display.drain()
        var out = alarms?.fired(seen, now: now) ?? []
        if seen.focus { out.append(.focus(display.activeApp(), at: now)) }
        return out
    }

    public var deadline: Micros? { idle?.deadline }
    public func timer(now: Micros, monotonic: Micros) -> [RecorderEvent] { idle?.timer(now: now, monotonic: monotonic) ?? [] }
    public func focused() throws(RecorderError) -> String? { display.activeApp() }
    public func idleMilliseconds() -> Int64? { idle?.idleMilliseconds() ?? display.idleMilliseconds() }
    public var idleSourceName: String { idle?.name ?? "none (the X server has neither XSync's IDLETIME nor MIT-SCREEN-SAVER)" }
    public var startWarnings: [String] {
        idle == nil ? ["the X server (or libXext and libXss) gives no idle time: every minute in front of the screen counts"] : []
    }
    public func stop() {}
    public func whenLost(_ handler: @escaping () -> Void) { XDisplay.onLost = handler }
}

extension BackendKind {
    public static let x11 = BackendKind(rawValue: "x11")
}

extension X11Backend {
    /// Any EWMH window manager on X11; tried last, and not under Wayland unless forced.
    static let entry = BackendEntry(
        kind: .x11, brief: "any EWMH window manager",
        claims: { _ in .lastResort },
        declines: { desktop, forced in
            if desktop.value("DISPLAY") == nil { return .notThatBackend(.x11, reason: "DISPLAY is unset") }
            if !forced, let wayland = desktop.waylandReason { return .notThatBackend(.x11, reason: wayland) }
            return nil
        },
        opens: { desktop, _, idle throws(RecorderError) in
            // DISPLAY is set: `declines` saw to it.
            try X11Backend(displayName: desktop.value("DISPLAY") ?? "", idleThreshold: idle.threshold, monotonic: idle.monotonic)
        })
}
