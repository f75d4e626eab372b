// ImportsCommands.swift — the imports the store keeps and taking one back: `imports` (each import, newest first: its number, when, sources and device, sessions added) and the `forget import N` and `forget device NAME` forms of `forget`, each asked at the prompt and refused in a batch run without --yes.
import UsageCore
import UsageRender
import UsageStore

extension CommandTable {
    static let importsChoice = Choice("which", [Keyword("all", exact: true)])
    static let importNumberSlot = Slot<Int64>(
        "N", completion: [], missing: "which import? (its number, as imports lists them)",
        invalid: { "'\($0)' is not an import's number (imports lists them: #3 is 3)" },
        read: { word in
            let digits = word.hasPrefix("#") ? String(word.dropFirst()) : word
            return digits.count <= 18 && digits.allSatisfy { $0.isASCII && $0.isNumber } ? Int64(digits) : nil
        })
    static let forgetDeviceSlot = Slot<String>(
        "NAME", completion: [.devices], missing: "which device? (devices lists them)", invalid: { _ in "a device's name cannot be empty" },
        read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })
    /// How many imports `imports` lists without `all`: the latest ones (a cron job's hourly
    /// import adds one an hour).
    static let importsShown = 20

    static let importsCommand = Command(
        "imports", syntax: .optional(.choice(importsChoice)),
        summary: "the imports the store keeps, newest first: each one's number (forget import N takes it back), when it ran, its sources and the device their sessions went to, what it added (sessions, site visits); the last \(importsShown), or all",
        examples: ["imports", "imports all"],
        watch: .shows
    ) { shell, args throws(ShellError) in
        let store: any ImportReading = try shell.store.reader()
        let entries: [ImportEntry]
        do throws(StoreError) {
            entries = try store.imports()
        } catch {
            throw .store(error)
        }
        let shown = args[importsChoice] == "all" ? entries.count : importsShown
        let zone = shell.model.zone
        return shell.render(json: { ReportJSON.imports(Array(entries.prefix(shown)), zone: zone) }) { width, theme in
            TextReport.imports(entries, shown: shown, zone: zone, width: width, theme: theme)
        }
    }

    /// `forget import N`: exactly the sessions import N added and the site visits it first
    /// brought (those still there), after asking.
    static func forgetImport(_ shell: Shell, _ id: Int64, yes: Bool) throws(ShellError) -> CommandOutcome {
        let store: any ImportReading & ImportWriting = try shell.store.writer(create: false)
        let entries: [ImportEntry]
        do throws(StoreError) {
            entries = try store.imports()
        } catch {
            throw .store(error)
        }
        let zone = shell.model.zone
        guard let entry = entries.first(where: { $0.id == id }) else { throw .refused("no import #\(id) in the store (imports lists them)") }
        if let at = entry.forgotten { throw .refused("import #\(id) was forgotten already, \(TextReport.when(at, zone: zone))") }
        let what = "#\(id) (\(TextReport.when(entry.at, zone: zone)), \(TextReport.importSources(entry)))"
        let forget = { () -> CommandOutcome in
            let deleted: ForgottenImport
            do throws(ForgetRefusal) {
                deleted = try store.forget(import: id, now: shell.environment.now())
            } catch {
                return .failed(refusal(error))
            }
            shell.forgotDevicesMaybe()
            shell.reloadStoreIfShown()
            return shell.render(
                json: { .object([("forgotten", .int(deleted.sessions)), ("visits", .int(deleted.visits)), ("import", .int(Int(id)))]) }, csv: .record
            ) { width, _ in
                let visits = deleted.visits > 0 ? ", \(TextFormat.count(deleted.visits, "site visit"))" : ""
                return TextReport.wrap(["forgot import \(what): \(TextFormat.count(deleted.sessions, "session"))\(visits)"], width: width)
            }
        }
        if yes { return forget() }
        let added = entry.added
        let visits = (entry.visits ?? 0) > 0 ? " and \(TextFormat.count(entry.visits ?? 0, "site visit"))" : ""
        return .confirm(
            Confirmation(
                question: "forget import \(what) and the \(TextFormat.count(added, "session"))\(visits) it added?",
                withYes: "forget import \(id) --yes", proceed: forget))
    }

    /// `forget device NAME`: every session of a device (its whole name, in any case), its
    /// sources and its kept totals, after asking.
    static func forgetDevice(_ shell: Shell, _ word: String, yes: Bool) throws(ShellError) -> CommandOutcome {
        guard word.lowercased() != "all" else { throw .refused("forget device takes one device's name (devices lists them), not all") }
        let store = try shell.store.writer(create: false)
        let devices = (try? store.devices()) ?? []
        let device = try wholeDevice(word, among: devices.map(\.name)).flatMap { name in devices.first { $0.name == name } }
        guard let device else { throw .refused("no device '\(TerminalText.sanitize(word))' in the store (devices lists them)") }
        let (name, sessions) = (device.name, device.sessions)
        let shown = TerminalText.sanitize(name)
        let forget = { () -> CommandOutcome in
            let deleted: Int
            do throws(ForgetRefusal) {
                deleted = try store.forget(device: name, now: shell.environment.now())
            } catch {
                return .failed(refusal(error))
            }
            shell.forgotDevicesMaybe()
            shell.reloadStoreIfShown()
            return shell.render(json: { .object([("forgotten", .int(deleted)), ("device", .string(name))]) }, csv: .record) { width, _ in
                TextReport.wrap(["forgot device \(shown): \(TextFormat.count(deleted, "session"))"], width: width)
            }
        }
        if yes { return forget() }
        return .confirm(
            Confirmation(
                question: "forget device \(shown) and its \(TextFormat.count(sessions, "session")) (its sources and totals with them)?",
                withYes: "forget device \(Tokenizer.quoted(name)) --yes", proceed: forget))
    }

    /// The device `word` names whole, in any case (the exact name first, then the one equal
    /// ignoring case). A deletion takes no beginning (`forget device ph` must not forget
    /// phone-old): a word that begins devices' names is refused with them, one a slip away
    /// from a name gets it as a suggestion; nil when neither.
    static func wholeDevice(_ word: String, among names: [String]) throws(ShellError) -> String? {
        if let exact = names.first(where: { $0.sameScalars(as: word) }) { return exact }
        let lower = word.lowercased()
        let equal = names.filter { $0.lowercased() == lower }
        let quoted = { (names: [String]) in names.sorted().map { "'\(TerminalText.sanitize($0))'" }.joined(separator: ", ") }
        if equal.count == 1 { return equal[0] }
        if equal.count > 1 {
            throw .refused("'\(TerminalText.sanitize(word))' could be \(quoted(equal)): type the device's name as devices lists it")
        }
        let begun = names.filter { $0.lowercased().hasPrefix(lower) }
        if !begun.isEmpty {
            throw .refused(
                "no device '\(TerminalText.sanitize(word))' — forget device takes a device's whole name: '\(TerminalText.sanitize(word))' begins \(quoted(begun)) (devices lists them)")
        }
        if let near = NameMatch.closest(to: word, among: names) {
            throw .refused("no device '\(TerminalText.sanitize(word))' in the store — did you mean '\(TerminalText.sanitize(near))'? (devices lists them)")
        }
        return nil
    }

    /// A refusal of `forget import` or `forget device` in the shell's words.
    private static func refusal(_ error: ForgetRefusal) -> ShellError {
        switch error {
        case .unknownImport(let id): return .refused("no import #\(id) in the store (imports lists them)")
        case .importForgotten(let id, _): return .refused("import #\(id) was forgotten already")
        case .unknownDevice(let name): return .refused("no device '\(TerminalText.sanitize(name))' in the store (devices lists them)")
        case .store(let error): return .store(error)
        }
    }
}

extension Shell {
    /// After a forget that may have taken a device's last session: a device no longer in the
    /// store is no longer the one shown.
    func forgotDevicesMaybe() {
        guard let device = model.device, let store = self.store.existing else { return }
        if !((try? store.devices()) ?? []).contains(where: { $0.name == device }) { model.device = nil }
    }
}
