// ImportEntry.swift — one import as the store keeps it (`imports`, `forget import N`): when it ran, each source it read with the device its sessions went to and what it added (sessions, site visits), and whether its sessions were taken back since.

/// One import into the store (or one copy of another store into it).
public struct ImportEntry: Sendable, Equatable {
    /// One source of the import.
    public struct Part: Sendable, Equatable {
        /// The source as the user named it (`phone.csv`, `store:backup.sqlite`).
        public let source: String
        /// The device its sessions went to.
        public let device: String
        public let added: Int
        public let updated: Int
        public let unchanged: Int
        /// The site visits it added (an ActivityWatch source's web buckets); nil when it held
        /// none, or was imported before imports counted them.
        public let visits: Int?

        public init(source: String, device: String, added: Int, updated: Int, unchanged: Int, visits: Int? = nil) {
            self.source = source
            self.device = device
            self.added = added
            self.updated = updated
            self.unchanged = unchanged
            self.visits = visits
        }
    }

    /// Its number (`forget import N`).
    public let id: Int64
    /// When it ran.
    public let at: Micros
    public let parts: [Part]
    /// When `forget import` (or `forget device`, of all its devices) took its sessions back.
    public let forgotten: Micros?

    public init(id: Int64, at: Micros, parts: [Part], forgotten: Micros?) {
        self.id = id
        self.at = at
        self.parts = parts
        self.forgotten = forgotten
    }

    /// The sessions it added, all its sources together.
    public var added: Int { parts.reduce(0) { $0 + $1.added } }

    /// The site visits it added, all its sources together; nil when none of them held any.
    public var visits: Int? {
        let counted = parts.compactMap(\.visits)
        return counted.isEmpty ? nil : counted.reduce(0, +)
    }
}
