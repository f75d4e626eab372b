// PrivateBus.swift — what the D-Bus tests share: a real dbus-daemon of the test's own (its address read from --print-address), programs run beside it (a Python service, dbus-send), and the connection pumped (poll, then process) until something happened. Nothing mocked: a missing dbus-daemon or python3-dbus fails the test that needs it.
import Foundation
import Testing
import UsageCore
import UsageRecorder

/// A child process started with posix_spawn, its signal mask cleared (a test runs on a worker
/// thread that blocks SIGTERM, which Foundation's Process would pass on: the child would never
/// end), its output (standard output and error) on a pipe.
final class Child {
    let pid: pid_t
    private let output: Int32
    private var collected: [UInt8] = []
    private(set) var status: Int32?

    init(_ argv: [String], environment: [String: String]) throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw PeerFailure("pipe: \(errno)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
        posix_spawn_file_actions_addclose(&actions, fds[0])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArgv = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0.key + "=" + $0.value) } + [nil]
        defer { (cArgv + cEnvironment).forEach { free($0) } }
        var pid: pid_t = 0
        let r = posix_spawnp(&pid, argv[0], &actions, &attributes, cArgv, cEnvironment)
        close(fds[1])
        guard r == 0 else {
            close(fds[0])
            throw PeerFailure("cannot start \(argv[0]): \(String(cString: strerror(r)))")
        }
        self.pid = pid
        output = fds[0]
        _ = fcntl(output, F_SETFL, fcntl(output, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        stop()
        close(output)
    }

    /// Whether it still runs (reaped when it ended).
    var running: Bool {
        if status != nil { return false }
        var raw: Int32 = 0
        if waitpid(pid, &raw, WNOHANG) == pid {
            status = (raw & 0x7F) == 0 ? (raw >> 8) & 0xFF : 128 + (raw & 0x7F)
            return false
        }
        return true
    }

    /// What it wrote so far.
    var text: String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(output, &buffer, buffer.count)
            if n <= 0 { break }
            collected += buffer[0..<n]
        }
        return String(decoding: collected, as: UTF8.self)
    }

    /// SIGTERM, then SIGKILL after 5 s; reaped.
    func stop() {
        guard running else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 {
            if !running { return }
            usleep(50_000)
        }
        kill(pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
        status = 137
    }
}

/// A dbus-daemon started for one test (session configuration: anything allowed), stopped at deinit.
final class PrivateBus {
    let address: String
    private let daemon: Child
    private var others: [Child] = []

    /// Starts it; throws when it cannot.
    init() throws {
        daemon = try Child(["dbus-daemon", "--session", "--nofork", "--print-address=1"], environment: ProcessInfo.processInfo.environment)
        let end = Date().addingTimeInterval(20)
        var printed = ""
        while !printed.contains("\n"), daemon.running, Date() < end {
            usleep(10_000)
            printed = daemon.text
        }
        address = printed.split(separator: "\n").first.map(String.init) ?? ""
        guard !address.isEmpty else { throw PeerFailure("dbus-daemon printed no address: \(printed)") }
    }

    deinit {
        for child in others.reversed() { child.stop() }
        daemon.stop()
    }

    /// Starts `argv` with DBUS_SESSION_BUS_ADDRESS set to this bus.
    @discardableResult
    func start(_ argv: [String]) throws -> Child {
        let child = try Child(argv, environment: ProcessInfo.processInfo.environment.merging(["DBUS_SESSION_BUS_ADDRESS": address]) { $1 })
        others.append(child)
        return child
    }

    /// Runs `argv` to its end while `connection` is pumped (it may be what answers `argv`); its
    /// status and output (standard output and error together).
    func run(_ argv: [String], pumping connection: DBusConnection) throws -> (status: Int32, output: String) {
        let child = try start(argv)
        try pump(connection, timeout: 20) {
            _ = child.text  // read as it comes: a full pipe would stop it
            return !child.running
        }
        return (child.status ?? -1, child.text)
    }

    /// A Python (python3-dbus) service owning `name` on this bus, started from `source` (given
    /// the address and the name as its arguments).
    func python(_ source: String, owning name: String, connection: DBusConnection) throws {
        try service(["/usr/bin/python3", "-c", source, address, name], owning: name, connection: connection)
    }

    /// One of Tests/Recorder's Python stubs (`login1_stub.py`…) with `arguments` after the address.
    @discardableResult
    func stub(_ file: String, _ arguments: [String], owning name: String, connection: DBusConnection) throws -> Child {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Recorder/" + file).path
        return try service(["/usr/bin/python3", path, address] + arguments, owning: name, connection: connection)
    }

    /// `argv` started, once it owns `name`.
    @discardableResult
    func service(_ argv: [String], owning name: String, connection: DBusConnection) throws -> Child {
        let child = try start(argv)
        let end = Date().addingTimeInterval(20)
        while Date() < end {
            let owned = try connection.call(
                destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameHasOwner",
                values: [.string(name)])
            if owned == [.bool(true)] { return child }
            guard child.running else { throw PeerFailure("the Python service ended (is python3-dbus installed?): \(child.text)") }
            usleep(50_000)
        }
        throw PeerFailure("the Python service never owned \(name): \(child.text)")
    }
}

struct PeerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Waits on `connection`'s descriptor and processes it until `done` or `timeout` seconds.
func pump(_ connection: DBusConnection, timeout: Double, until done: () -> Bool) throws {
    let end = Date().addingTimeInterval(timeout)
    try connection.process()
    while !done() {
        guard Date() < end else { throw PeerFailure("timed out after \(timeout) s") }
        var entry = pollfd(fd: connection.fd, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 50)
        try connection.process()
    }
}
