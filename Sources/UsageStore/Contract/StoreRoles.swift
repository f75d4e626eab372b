// StoreRoles.swift — the store as the rest of the program sees it, whatever holds it: a reader is every role's reads (HistoryReading, TrackerReading, ImportReading, RecorderReading, SiteSettingsReading, SiteReading), a writer every role's changes as well (SiteWriting: the native host's); a part of the program that needs one role asks for that role alone.

/// A store that may be read: every role's reads. Every read is one snapshot.
public protocol StoreReader: HistoryReading, TrackerReading, ImportReading, RecorderReading, SiteSettingsReading, SiteReading {}

/// A store that may be changed as well: every role's changes, each one transaction.
public protocol StoreWriter: StoreReader, TrackerWriting, ImportWriting, RecorderWriting, SiteWriting, SiteSettingsWriting {}
