// RulesSession.swift — the category rules of one shell session: read anew at every load and by `rules`; a bad file is an error for `rules` and, for a load, one warning per problem and version of the file.

/// Reads the user's category rules file. The file is the user's: it is never moved or written,
/// only ignored while it is bad.
public final class RulesSession {
    /// Where category rules are kept (nil: none, as in tests).
    public let file: CategoryRulesFile?
    /// The problem last reported (by a load's warning or by `rules`), and the file as it was
    /// then: a load warns once per problem and version of the file, not every time.
    private var reported: (error: RulesFileError, stamp: FileStamp?)?

    public init(file: CategoryRulesFile?) {
        self.file = file
    }

    /// The rules as the file has them now (nil when there is no file); a bad file fails, every time.
    public func read() throws(RulesFileError) -> CategoryRules? {
        do {
            let rules = try file?.load()
            reported = nil
            return rules
        } catch {
            reported = (error, file.flatMap { FileStamp(of: $0.path) })
            throw error
        }
    }

    /// The rules for a load: a bad file gives a warning (unless this very problem in this
    /// version of the file was reported already) and no rules.
    public func readForLoad(warn: (String) -> Void) -> CategoryRules? {
        let before = reported
        do {
            return try read()
        } catch {
            if let before, let now = reported, before.error == now.error, before.stamp == now.stamp { return nil }
            warn("\(error.description); no category rules applied")
            return nil
        }
    }
}
