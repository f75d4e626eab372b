// SQLStore+Undo.swift — `undo`, written once for every SQL backend: each change to tracked time, tasks or categories writes its journal entry in its own transaction, and `undo` puts the newest entry's rows back and removes it in one transaction; the journal is in the store, so it lasts across runs and is shared by every process and machine using the store.
import UsageCore

extension SQLStore {
    /// A tracking change in one transaction, journaled: the body keeps what it touches (and
    /// names the change) through the journal, which is written in the same transaction.
    func journaledChange<T>(_ body: (Journal) throws -> T) throws(TrackingError) -> T {
        try trackingChange { tx in
            let journal = Journal(tx)
            let result = try body(journal)
            try journal.write()
            return result
        }
    }

    public func undo() throws(TrackingError) -> UndoneChange {
        try trackingChange { tx in
            guard let entry = try tx.row("SELECT id, note, images FROM undo_journal ORDER BY id DESC LIMIT 1", []), let id = entry.int("id") else {
                throw TrackingErrorBox(.nothingToUndo)
            }
            let note = try Journal.note(from: entry.text("note") ?? "")
            try Journal.restore(try Journal.images(from: entry.text("images") ?? ""), tx)
            try tx.execute("DELETE FROM undo_journal WHERE id = ?", [.integer(id)])
            let left = try tx.int("SELECT count(*) FROM undo_journal", []) ?? 0
            return UndoneChange(note: note, left: Int(left))
        }
    }
}
