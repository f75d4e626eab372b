// kwin6_host.js — runs a KWin script (argv[2]) as KWin 6's scripting would, as far as usage-shell's script uses it: a `workspace` with KWin 6's names only (the windowActivated signal and the activeWindow property; no clientActivated, no activeClient) and callDBus. Each callDBus is printed as a JSON array on a line; each stdin line `activate CLASS PID` (or `none`) makes that window the active one and emits windowActivated. Run by kwin6_standin.py (node's vm: the script sees nothing else).
"use strict";
const fs = require("fs");
const readline = require("readline");
const vm = require("vm");

const handlers = [];
const workspace = {
    activeWindow: null,
    windowActivated: { connect: (f) => handlers.push(f) },
};
const context = vm.createContext({
    workspace,
    callDBus: (...args) => process.stdout.write(JSON.stringify(args.map(String)) + "\n"),
    print: (...args) => process.stderr.write(args.join(" ") + "\n"),
});
vm.runInContext(fs.readFileSync(process.argv[2], "utf8"), context, { filename: process.argv[2] });
readline.createInterface({ input: process.stdin }).on("line", (line) => {
    const [what, cls, pid] = line.split(" ");
    workspace.activeWindow = what === "activate" ? { resourceClass: cls, pid: Number(pid), desktopWindow: false } : null;
    for (const f of handlers) f(workspace.activeWindow);
});
