// RecorderStatusTests.swift — `status` with a desktop recorder writing to the store, in text, JSON and CSV: the recorder's mark written through the store as `usage-shell record` writes it (its PID, its last write), shown while its last write is at most 15 s old and not after.
import Foundation
import Testing
import UsageCore
import UsageStore

struct RecorderStatusTests {
    /// Writes the mark a recorder of `device` leaves at each write, `secondsAgo` before now.
    private func markRecorder(_ db: String, device: String, pid: Int, secondsAgo: Int) throws {
        let stores = OpenStores()
        defer { stores.closeAll() }
        let seen = Micros(Date().timeIntervalSince1970 * 1_000_000) - Micros(secondsAgo) * 1_000_000
        try stores.writer(StoreLocation(db)).record([], device: device, now: seen, mark: RecorderMark(device: device, pid: pid, seen: seen))
    }

    @Test func statusShowsALiveRecorderInJSONAsInText() throws {
        let w = try StoreWorkspace()
        try markRecorder(w.db, device: "laptop", pid: 4242, secondsAgo: 2)
        let json = try Binary.json(["--db", w.db, "-c", "status"])
        #expect(json["running"] as? Bool == false)
        let recorders = try #require(json["recorders"] as? [[String: Any]])
        #expect(recorders.count == 1)
        #expect(recorders.first?["device"] as? String == "laptop")
        #expect(recorders.first?["pid"] as? Int == 4242)
        // Two seconds ago when written; a slow machine may take a second or two more to ask.
        let ago = try #require(recorders.first?["last_write_seconds_ago"] as? Int)
        #expect((2...6).contains(ago))
        let text = try Binary.run(["--db", w.db, "-c", "status"])
        let prefix = "nothing running\nrecording: usage-shell record on device 'laptop' (PID 4242, last write "
        #expect(text.stdout.hasPrefix(prefix) && text.stdout.hasSuffix(" s ago)\n"), "\(text.stdout)")
        #expect(Int(text.stdout.dropFirst(prefix.count).dropLast(" s ago)\n".count)).map { (2...6).contains($0) } == true, "\(text.stdout)")
        #expect(text.stderr == "")
        #expect(text.status == 0)
    }

    @Test func statusShowsNoRecorderWhoseLastWriteIsOlderThan15Seconds() throws {
        let w = try StoreWorkspace()
        try markRecorder(w.db, device: "laptop", pid: 4242, secondsAgo: 60)
        let r = try Binary.run(["--db", w.db, "-c", "status", "--format", "json"])
        #expect(r.stdout == #"{"running":false,"task":null,"since":null,"seconds":0,"id":null,"recorders":[]}"# + "\n")
        #expect(r.stderr == "")
        #expect(r.status == 0)
        let text = try Binary.run(["--db", w.db, "-c", "status"])
        #expect(text.stdout == "nothing running\n")
    }

    @Test func statusCSVIsOneRowWithTheRecorders() throws {
        let w = try StoreWorkspace()
        try markRecorder(w.db, device: "laptop", pid: 4242, secondsAgo: 0)
        let r = try Binary.run(["--db", w.db, "-c", "status", "--format", "csv"])
        // RFC 4180: CRLF ends each record (one Character in Swift). Written just now; a slow machine
        // may take a second or two more to ask.
        let header = "running,task,since,seconds,id,recorders.1.device,recorders.1.pid,recorders.1.last_write_seconds_ago\r\n"
        #expect((0...4).contains { r.stdout == header + "false,,,0,,laptop,4242,\($0)\r\n" }, "\(r.stdout.debugDescription)")
        #expect(r.stderr == "")
        #expect(r.status == 0)
    }
}
