// DeviceCommands.swift — the devices of the store: `devices` (which machines its sessions came from, with their sessions and last import) and `device NAME|all` (the store's views show one device's sessions, or every device's merged).
import UsageCore
import UsageData
import UsageRender
import UsageStore

extension Shell {
    /// The store's device `word` names (any case, or the one it begins; `all`: every device,
    /// nil), for `device NAME` and the command line's `--device`.
    ///
    /// - Throws: `.refused` for a name the store has no device of (with a slip's suggestion);
    ///   `.store` when the store cannot be read.
    public func device(named word: String) throws(ShellError) -> String? {
        guard word.lowercased() != "all" else { return nil }
        let store = try self.store.reader()
        let devices: [DeviceSummary]
        do throws(StoreError) {
            devices = try store.devices()
        } catch {
            throw .store(error)
        }
        switch NameMatch.resolve(word, among: devices.map(\.name), kind: "device") {
        case .success(let name): return name
        case .failure(.unknownName(_, _, let suggestion)):
            let guess = suggestion.map { " — did you mean '\(TerminalText.sanitize($0))'?" } ?? ""
            throw .refused("no device '\(TerminalText.sanitize(word))' in the store\(guess) (devices lists them)")
        case .failure(let error): throw error
        }
    }
}

extension CommandTable {
    static let deviceSlot = Slot<String>(
        "DEVICE", completion: [.devices, .keywords(["all"])], missing: "which device? (devices lists them; all for every device)",
        invalid: { _ in "a device's name cannot be empty" }, read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })
    static let importDeviceSlot = Slot<String>(
        "NAME", completion: [.devices], missing: "which device? (the machine the sessions came from; this one's is its host name)",
        invalid: { _ in "a device's name cannot be empty" }, read: { $0.trimmingBlanks.isEmpty ? nil : $0.trimmingBlanks })

    static let deviceCommands: [Command] = [
        Command(
            "devices", summary: "the devices the store's sessions came from: sessions and last import of each (* the one shown)",
            examples: ["devices"],
            watch: .shows
        ) { shell, _ throws(ShellError) in
            let store = try shell.store.reader()
            let devices: [DeviceSummary]
            do throws(StoreError) {
                devices = try store.devices()
            } catch {
                throw .store(error)
            }
            let (selected, zone) = (shell.model.device, shell.model.zone)
            return shell.render(json: { ReportJSON.devices(devices, selected: selected, zone: zone) }) { width, theme in
                TextReport.devices(devices, selected: selected, zone: zone, width: width, theme: theme)
            }
        },
        Command(
            "device", syntax: .value(deviceSlot),
            summary: "show one device's sessions of the store (the same app on two devices at once counts once in screen time), or all of them",
            examples: ["device laptop", "device all"]
        ) { shell, args throws(ShellError) in
            let chosen = try shell.device(named: args[deviceSlot]!)
            shell.model.device = chosen
            shell.reloadStoreIfShown()
            let shown = chosen.map { "showing \(TerminalText.sanitize($0))'s sessions of the store" } ?? "showing every device's sessions of the store"
            return shell.render(json: { .object([("device", chosen.map { .string($0) } ?? .string("all"))]) }, csv: .record) { width, _ in
                TextReport.wrap([shown], width: width)
            }
        },
    ]
}
