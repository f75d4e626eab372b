// RefCSVHeader.swift — the tests' own placing of a CSV header's columns (docs/DATA.md §9.2): names compared in lower case, letters and digits only; the user's mapping first, then the names each field is known by, the first listed and then the leftmost winning.
import UsageFormats

enum RefCSVHeader {
    /// The fields in the order they are placed, with the names docs/DATA.md §9.2 lists for each (as compared).
    static let names: [(field: String, names: [String])] = [
        ("id", ["sessionid", "id", "session"]),
        ("app", ["appname", "app", "application", "applicationname", "appdisplayname"]),
        ("category", ["category", "categoryname", "appcategory"]),
        ("start", ["starttimestamp", "start", "starttime", "begin", "begintime", "startedat", "startdate"]),
        ("end", ["endtimestamp", "end", "endtime", "stop", "stoptime", "endedat", "enddate"]),
        ("duration", ["duration", "durations", "durationsec", "durationsecs", "durationseconds", "seconds"]),
    ]

    /// `Start Time`, `start_time` and `START-TIME` are `starttime`.
    static func key(_ name: String) -> String {
        var out = String.UnicodeScalarView()
        for s in name.lowercased().unicodeScalars where s.properties.isAlphabetic || s.properties.numericType != nil { out.append(s) }
        return String(out)
    }

    /// A header cell as written, without white space around it (or a byte order mark before it).
    static func trimmed(_ name: String) -> String {
        RefRows.trimmed(name.hasPrefix("\u{FEFF}") ? String(name.unicodeScalars.dropFirst()) : name)
    }

    /// The column of each field (`id`, `app`, `category`, `start`, `end`, `duration`), or nil
    /// when the start, or both the end and the duration, cannot be placed.
    static func place(_ header: [String], mapping: ColumnMapping) -> [String: Int]? {
        let keys = header.map(key)
        var placed: [String: Int] = [:]
        var taken = Set<Int>()
        for entry in mapping.entries {
            let field = entry.field.rawValue
            let wanted = key(entry.column)
            guard let k = header.indices.first(where: { trimmed(header[$0]) == entry.column })
                ?? keys.indices.first(where: { keys[$0] == wanted && !taken.contains($0) })
            else { continue }
            placed[field] = k
            taken.insert(k)
        }
        for (field, known) in names where placed[field] == nil {
            for name in known {
                if let k = keys.indices.first(where: { keys[$0] == name && !taken.contains($0) }) {
                    placed[field] = k
                    taken.insert(k)
                    break
                }
            }
        }
        guard placed["start"] != nil, placed["end"] != nil || placed["duration"] != nil else { return nil }
        return placed
    }
}
