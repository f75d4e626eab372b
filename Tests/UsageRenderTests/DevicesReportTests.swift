// DevicesReportTests.swift — `devices` as text and JSON: a device's sessions, its site visits when it has any, and its last write, recorded or imported (none said for a device of site visits alone).
import Testing
import TestSupport
import UsageCore
@testable import UsageRender

struct DevicesReportTests {
    static let imported = instant("2026-03-02T09:30:00Z")
    static let devices = [
        DeviceSummary(name: "desktop", sessions: 1200, firstImport: imported, lastImport: imported),
        DeviceSummary(name: "laptop", sessions: 3, siteVisits: 1, firstImport: imported, lastImport: imported),
        DeviceSummary(name: "browser-only", sessions: 0, siteVisits: 12, firstImport: imported, lastImport: imported),
    ]

    @Test func bugADeviceWithOnlySiteVisitsShowedZeroSessionsAndAnImportThatNeverWas() {
        #expect(
            TextReport.devices(Self.devices, selected: "laptop", zone: .utc, width: 80) == [
                "Devices · 3",
                "  desktop       1,200 sessions, last imported 2026-03-02 09:30",
                "* laptop        3 sessions, 1 site visit, last imported 2026-03-02 09:30",
                "  browser-only  0 sessions, 12 site visits",
                "showing laptop's sessions ('device all' shows every device's)",
            ])
        #expect(
            ReportJSON.devices(Array(Self.devices.suffix(1)), selected: nil, zone: .utc).serialized
                == #"[{"name":"browser-only","sessions":0,"site_visits":12,"first_import":"2026-03-02T09:30:00Z","last_import":"2026-03-02T09:30:00Z","last_recorded":null,"selected":false}]"#)
    }

    /// A device whose last write was the recorder's was said to be "last imported".
    @Test func bugARecordedDeviceWasSaidToBeLastImported() {
        let later = Self.imported + 3_600_000_000
        let devices = [
            DeviceSummary(name: "here", sessions: 5, firstImport: Self.imported, lastImport: later, lastRecorded: later),
            DeviceSummary(name: "both", sessions: 7, firstImport: Self.imported, lastImport: later, lastRecorded: Self.imported),
        ]
        #expect(
            TextReport.devices(devices, selected: nil, zone: .utc, width: 80) == [
                "Devices · 2",
                "  here  5 sessions, last recorded 2026-03-02 10:30",
                "  both  7 sessions, last imported 2026-03-02 10:30",
                "showing every device's sessions ('device NAME' shows one)",
            ])
        #expect(
            ReportJSON.devices(Array(devices.prefix(1)), selected: nil, zone: .utc).serialized
                == #"[{"name":"here","sessions":5,"site_visits":0,"first_import":"2026-03-02T09:30:00Z","last_import":"2026-03-02T10:30:00Z","last_recorded":"2026-03-02T10:30:00Z","selected":false}]"#)
    }
}
