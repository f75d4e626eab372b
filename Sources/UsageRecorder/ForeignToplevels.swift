// ForeignToplevels.swift — the toplevels a wlroots compositor announces (zwlr_foreign_toplevel_manager_v1) as a pure state: each one's app id and `activated` state, applied at its `done`, and the app of the one activated last; no title is ever held.
import UsageCore

/// The compositor's toplevels and which one is active.
struct ForeignToplevels {
    private struct Toplevel {
        var appID: [UInt8] = []
        var activated = false
        /// Said since the last `done`, applied at the next.
        var pendingAppID: [UInt8]?
        var pendingActivated: Bool?
    }

    private var toplevels: [UInt32: Toplevel] = [:]
    /// The toplevels whose state holds `activated`, the one activated last at the end (a
    /// compositor with several seats may activate one per seat: the latest is in front).
    private var activation: [UInt32] = []

    /// Takes one event (idle's are not this state's: ignored).
    mutating func apply(_ event: WaylandEvent) {
        switch event {
        case .toplevel(let id):
            toplevels[id] = Toplevel()
        case .appID(let id, let bytes):
            toplevels[id]?.pendingAppID = bytes
        case .state(let id, let activated):
            toplevels[id]?.pendingActivated = activated
        case .done(let id):
            guard var toplevel = toplevels[id] else { return }
            if let appID = toplevel.pendingAppID { toplevel.appID = appID }
            if let activated = toplevel.pendingActivated {
                if activated, !toplevel.activated {
                    activation.append(id)
                } else if !activated {
                    activation.removeAll { $0 == id }
                }
                toplevel.activated = activated
            }
            toplevel.pendingAppID = nil
            toplevel.pendingActivated = nil
            toplevels[id] = toplevel
        case .closed(let id):
            toplevels[id] = nil
            activation.removeAll { $0 == id }
        case .idled, .resumed, .finished:
            break
        }
    }

    /// How many toplevels there are.
    var count: Int { toplevels.count }

    /// The active toplevel's app: its app id repaired and capped (AppName), or the unknown app
    /// for a toplevel without one; nil when none is active (an empty workspace).
    var focusedApp: String? {
        guard let id = activation.last, let toplevel = toplevels[id] else { return nil }
        return AppName.fromClass(toplevel.appID) ?? Normalise.unknownApp
    }
}
