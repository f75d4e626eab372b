// swift-tools-version: 6.0
// Package.swift — targets and dependencies of Usage Shell; no logic lives here.
import PackageDescription

let package = Package(
    name: "usage-shell",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "usage-shell", targets: ["usage-shell"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        .target(name: "UsageCore"),
        // Every reader: scanning, parsing, detection and header mapping of each input format.
        .target(name: "UsageFormats", dependencies: ["UsageCore"]),
        .target(
            name: "CCurl",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("pthread", .when(platforms: [.linux]))]
        ),
        .target(name: "UsageData", dependencies: ["UsageCore", "UsageFormats", "CCurl"]),
        // libpq, loaded at run time like libcurl: the PostgreSQL store's client (PostgreSQL's own).
        .target(
            name: "CPostgres",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("pthread", .when(platforms: [.linux]))]
        ),
        .target(name: "UsageRender", dependencies: ["UsageCore"]),
        // The store: one protocol, two backends (SQLite through GRDB over the system's libsqlite3; PostgreSQL through libpq).
        .target(
            name: "UsageStore",
            dependencies: [
                "UsageCore", "UsageFormats", "UsageData", "CPostgres", .product(name: "GRDB", package: "GRDB.swift"),
                // The C API itself, for the bulk paths (an import's rows, a window's rows).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        // libX11, libXss and libXext (XSync), loaded at run time like libcurl: the recorder's X11 backend.
        .target(
            name: "CX11",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("pthread", .when(platforms: [.linux]))]
        ),
        // libsystemd's sd-bus, loaded at run time like libcurl: the recorder's D-Bus client (the lock, notifications, desktops' services).
        .target(
            name: "CDBus",
            linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux])), .linkedLibrary("pthread", .when(platforms: [.linux]))]
        ),
        // The pages a long-running process's start needed, given back (the recorder's resident memory).
        .target(name: "CResident"),
        // The desktop recorder (`usage-shell record`): its backends (X11, i3, sway), sessions, heartbeat, lock, limits, D-Bus.
        .target(name: "UsageRecorder", dependencies: ["UsageCore", "UsageData", "UsageRender", "UsageStore", "CX11", "CDBus", "CResident"]),
        .target(name: "UsageShell", dependencies: ["UsageCore", "UsageFormats", "UsageData", "UsageRender", "UsageStore"]),
        .systemLibrary(name: "CEditLine", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
        .executableTarget(
            name: "usage-shell",
            dependencies: [
                "UsageCore", "UsageFormats", "UsageData", "UsageRender", "UsageStore", "UsageShell", "UsageRecorder", "CEditLine",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The readers the byte-level ones replaced, kept for the tests that pin where the new ones
        // differ on purpose (ReaderDeliberateDifferenceTests), and LoadFacts; not part of the
        // program, and no longer a reference: the differential tests and the fuzz targets compare
        // the readers with Tests/UsageFormatsTests/Reference. CSV.swift is only here now (LegacyCSV).
        .target(
            name: "ReferenceReaders", dependencies: ["UsageCore", "UsageFormats", "UsageData", .product(name: "CSV", package: "CSV.swift")],
            path: "Fuzz/Reference"),
        // The seeded random generator every test target shares.
        .target(name: "TestSupport", dependencies: ["UsageCore", "UsageFormats"], path: "Tests/TestSupport"),
        .testTarget(name: "UsageCoreTests", dependencies: ["UsageCore", "UsageFormats", "TestSupport"]),
        .testTarget(name: "UsageFormatsTests", dependencies: ["UsageFormats", "UsageData", "ReferenceReaders", "TestSupport"]),
        .testTarget(name: "UsageDataTests", dependencies: ["UsageData", "UsageFormats", "ReferenceReaders", "TestSupport"]),
        .testTarget(name: "UsageRenderTests", dependencies: ["UsageRender", "UsageFormats", "TestSupport"], exclude: ["Golden"]),
        .testTarget(name: "UsageStoreTests", dependencies: ["UsageStore", "UsageFormats", "UsageData", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "UsageRecorderTests", dependencies: ["UsageRecorder", "UsageCore", "UsageStore"]),
        .testTarget(name: "UsageShellTests", dependencies: ["UsageShell", "UsageFormats", "UsageRender", "UsageStore"]),
        .testTarget(
            name: "EndToEndTests",
            // UsageShell and UsageRender for the terminal-safety test (the command table's list, the sanitiser); TestSupport for the PostgreSQL server;
            // UsageStore for a desktop recorder's mark, written as `usage-shell record` writes it (the `status` tests).
            dependencies: ["usage-shell", "UsageShell", "UsageRender", "UsageStore", "UsageCore", "TestSupport"],
            exclude: ["Fixtures"]
        ),
    ]
)
