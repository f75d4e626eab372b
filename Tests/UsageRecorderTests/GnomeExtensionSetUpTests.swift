// GnomeExtensionSetUpTests.swift — what `record --enable` does about the GNOME Shell extension for each state GNOME reports and each session type: nothing off GNOME, enabled with the unit when disabled, a refusal under Wayland when it cannot be enabled, a note under X11 (where the recorder reads the windows meanwhile).
import Testing
@testable import UsageRecorder

struct GnomeExtensionSetUpTests {
    static let problem = "the usage-shell extension failed to start in GNOME Shell: gnome-extensions info usage-shell-record@usage-shell says why"

    @Test(arguments: [
        (GnomeExtensionSetUp.notGnome, "wayland", GnomeExtensionSetUp.Plan.nothing),
        (.notGnome, nil, .nothing),
        (.disabled, "wayland", .enable),
        (.disabled, "x11", .enable),
        (.enabled, "wayland", .say("the usage-shell GNOME Shell extension (usage-shell-record@usage-shell) is enabled already")),
        (.cannot(problem), "wayland", .refuse(problem + "; nothing was changed")),
        (.cannot(problem), nil, .refuse(problem + "; nothing was changed")),
        (.cannot(problem), "x11", .say("note: " + problem + "; until then the recorder reads this X11 session as any other")),
    ] as [(GnomeExtensionSetUp, String?, GnomeExtensionSetUp.Plan)])
    func theSetUpFollowsWhatGnomeReportsAndTheSessionType(found: GnomeExtensionSetUp, sessionType: String?, plan: GnomeExtensionSetUp.Plan) {
        #expect(found.plan(sessionType: sessionType) == plan)
    }
}
