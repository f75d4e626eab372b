// CSVHeaderTests.swift — CSVHeader, ColumnMapping and CSVHeaderProblem, table-driven: which column holds which field, by name or by the user's mapping, and what is said when the header does not tell.
import Testing
@testable import UsageFormats
@testable import UsageCore
@testable import UsageData

struct CSVHeaderTests {
    @Test(arguments: [
        ("Start Time", "starttime"),
        ("start_time", "starttime"),
        ("START-TIME", "starttime"),
        ("  App Name ", "appname"),
        ("app.name", "appname"),
        ("Duration (s)", "durations"),
        ("\u{FEFF}App", "app"),
        ("Catégorie", "catégorie"),
    ])
    func keysIgnoreCaseSpacesAndPunctuation(name: String, key: String) {
        #expect(CSVHeader.key(name) == key)
    }

    /// Headers as other tools write them, and where each field lands.
    @Test(arguments: [
        (["Application", "Start Time", "Duration"], CSVColumns(app: 0, start: 1, duration: 2)),
        (["App", "Category", "Start", "End"], CSVColumns(app: 0, category: 1, start: 2, end: 3)),
        (["App Name", "Begin", "End Time"], CSVColumns(app: 0, start: 1, end: 2)),
        (["app_name", "start_timestamp", "end_timestamp", "session_id"], CSVColumns(id: 3, app: 0, start: 1, end: 2)),
        (["START TIME", "end time", "APPLICATION"], CSVColumns(app: 2, start: 0, end: 1)),
        (["ID", "App", "Start", "Duration (s)", "Notes"], CSVColumns(id: 0, app: 1, start: 2, duration: 3)),
        // Both an end and a duration: both are placed (a row uses its end, else its duration).
        (["App", "Start", "End", "Duration"], CSVColumns(app: 0, start: 1, end: 2, duration: 3)),
        // The canonical name wins over a synonym, whatever the order of the columns.
        (["App", "app_name", "start", "end"], CSVColumns(app: 1, start: 2, end: 3)),
        // Two columns of one name: the first.
        (["Start", "Start", "End"], CSVColumns(start: 0, end: 2)),
    ] as [([String], CSVColumns)])
    func headersArePlacedByMeaning(header: [String], expected: CSVColumns) throws {
        #expect(try CSVHeader.place(header).get() == expected)
    }

    @Test func aMappingNamesColumnsTheHeaderDoesNotSay() throws {
        let mapping = try ColumnMapping(parsing: "app=Program,start=From,end=To")
        #expect(try CSVHeader.place(["Program", "From", "To"], mapping: mapping).get() == CSVColumns(app: 0, start: 1, end: 2))
        // Compared as keys (case, spaces), and taking precedence over the names it would have had.
        let loose = try ColumnMapping(parsing: "start = started at, app=START")
        #expect(try CSVHeader.place(["start", "Started At", "End"], mapping: loose).get() == CSVColumns(app: 0, start: 1, end: 2))
        // A mapped column the header lacks is left to the names (a mapping may serve several files).
        let other = try ColumnMapping(parsing: "app=Program")
        #expect(try CSVHeader.place(["App", "Start", "End"], mapping: other).get() == CSVColumns(app: 0, start: 1, end: 2))
    }

    @Test(arguments: [
        ("app=Program,start=From,end=To", "app=Program,start=From,end=To"),
        ("  app = Program , start=From Time ", "app=Program,start=From Time"),
        ("app_name=P,start_timestamp=S,end_timestamp=E", "app=P,start=S,end=E"),
        ("duration=Length,id=Key,category=Kind", "duration=Length,id=Key,category=Kind"),
        ("auto", "auto"),
        ("", "auto"),
    ])
    func mappingsParseAndShowAsTyped(text: String, shown: String) throws {
        #expect(try ColumnMapping(parsing: text).description == shown)
    }

    @Test(arguments: [
        ("app", ColumnMappingError.notAPair("app")),
        ("app=P,,start=S", .notAPair("")),
        ("where=From", .unknownField("where")),
        ("app=", .emptyColumn(.app)),
        ("app=P,application=Q", .fieldTwice(.app)),
    ] as [(String, ColumnMappingError)])
    func badMappingsSayWhatIsWrong(text: String, error: ColumnMappingError) {
        #expect(throws: error) { try ColumnMapping(parsing: text) }
    }

    @Test func anUnknownHeaderNamesTheColumnsItCouldNotPlaceAndHowToMapThem() throws {
        guard case .failure(let problem) = CSVHeader.place(["Application", "Started", "Length"]) else {
            Issue.record("placed")
            return
        }
        #expect(problem.missing == [.start, .end, .duration])
        #expect(problem.unplaced == ["Started", "Length"])
        #expect(
            problem.description
                == "could not place the columns 'Started', 'Length'; the sessions need a start column (Start, Start Time, Begin, "
                + "start_timestamp) and an end column (End, End Time, end_timestamp) or a duration column (Duration); say which "
                + "column is which with --columns start=COLUMN,end=COLUMN (or duration=COLUMN; at the prompt: set columns …, then load)")
        // Only the end missing; and a mapping that names a column this header lacks says so.
        let mapping = try ColumnMapping(parsing: "end=To")
        guard case .failure(let partial) = CSVHeader.place(["App", "Start", "Until"], mapping: mapping) else {
            Issue.record("placed")
            return
        }
        #expect(partial.missing == [.end, .duration])
        #expect(partial.unplaced == ["Until"])
        #expect(partial.description.hasPrefix("could not place the columns 'Until'; the sessions need an end column"))
        #expect(partial.description.contains("; --columns names 'To', which this header lacks; say which column is which with --columns end=COLUMN "))
    }

    @Test(arguments: [
        ("Application,Start Time,Duration", true),
        ("Program;From;To", true),
        ("Program\tFrom\tTo", true),
        ("\"Program\",\"From\"", true),
        ("start_timestamp", true),  // one known name is enough
        ("hello world", false),  // one unknown name is not a header
        ("a,", false),  // an empty name
        ("x\u{1}y,z", false),  // a control character
        (String(repeating: "x", count: 101) + ",y", false),  // a name longer than a header's
    ])
    func aFirstLineIsAHeaderWhenItNamesFieldsOrIsAListOfShortNames(line: String, isHeader: Bool) {
        var copy = line
        #expect(copy.withUTF8 { CSVHeader.looksLikeHeader($0) } == isHeader)
    }
}
