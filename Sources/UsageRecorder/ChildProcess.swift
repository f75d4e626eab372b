// ChildProcess.swift — a program the recorder starts (swayidle, the user's limit command): spawned with an argument vector, never through a string a shell would read, its output on a pipe when asked for, reaped without waiting.
#if canImport(Glibc)
    import Glibc
#endif

/// A child process.
final class ChildProcess {
    let pid: pid_t
    /// The read end of its standard output, when it was asked for.
    let output: Int32?
    private(set) var exited = false

    /// Starts `argv[0]` (searched in PATH) with `argv`, the environment this one has plus
    /// `extra`; standard input and error go to /dev/null, standard output to a pipe when
    /// `captureOutput`, else to /dev/null. Nil when it cannot be started.
    init?(_ argv: [String], extra: [String: String] = [:], captureOutput: Bool = false) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var pipeFDs: [Int32] = [-1, -1]
        if captureOutput {
            guard makePipe(&pipeFDs, flags: FD_CLOEXEC) else { return nil }
            posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var environment: [String] = []
        var k = 0
        while let entry = environ[k] {
            let text = String(cString: entry)
            let key = String(text.prefix { $0 != "=" })
            if extra[key] == nil { environment.append(text) }
            k += 1
        }
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) { environment.append(key + "=" + value) }
        var child: pid_t = 0
        let status = withCStrings(argv) { cArgv in
            withCStrings(environment) { cEnv in posix_spawnp(&child, argv[0], &actions, nil, cArgv, cEnv) }
        }
        if captureOutput { close(pipeFDs[1]) }
        guard status == 0 else {
            if captureOutput { close(pipeFDs[0]) }
            return nil
        }
        pid = child
        output = captureOutput ? pipeFDs[0] : nil
    }

    deinit {
        if let output { close(output) }
    }

    /// Whether it ended (reaped now if so); never waits.
    func reap() -> Bool {
        guard !exited else { return true }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return exited
    }

    /// Sends it SIGTERM and waits for it (a short while; then SIGKILL).
    func terminate() {
        guard !reap() else { return }
        kill(pid, SIGTERM)
        for _ in 0..<50 {
            if reap() { return }
            usleep(20_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        exited = true
    }
}

/// Runs `body` with `strings` as a NULL-terminated C array.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for p in pointers { free(p) } }
    return body(pointers)
}

/// A pipe whose ends get `flags` (FD_CLOEXEC) and, when asked, O_NONBLOCK.
func makePipe(_ fds: inout [Int32], flags: Int32, nonBlocking: Bool = false) -> Bool {
    guard pipe(&fds) == 0 else { return false }
    for fd in fds {
        _ = fcntl(fd, F_SETFD, flags)
        if nonBlocking { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }
    return true
}
