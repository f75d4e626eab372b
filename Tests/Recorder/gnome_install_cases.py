# gnome_install_cases.py — `record --enable` on a GNOME Shell that does not know the extension (a python-dbus stand-in for GNOME Shell's D-Bus face on a private session bus, gnome_shell_stub.py): a package's edition for that GNOME Shell (45 and later, or 43–44) copied from XDG_DATA_DIRS' share/usage-shell into the user's extensions folder and said in one line; a user's copy already there never overwritten; no package's editions: the refusal as before, nothing made.
import filecmp
import os
import shutil

from lock_cases import private_bus, service
from peers import BIN, ROOT, check, run, stop

HERE = os.path.dirname(os.path.abspath(__file__))
UUID = "usage-shell-record@usage-shell"


def test_gnome_install(tmp):
    _, address = private_bus(["--session"])
    share = tmp + "/gnome-install-share"
    for edition, source in (("gnome-shell-43", "Resources/gnome-shell"), ("gnome-shell-45", "Resources/gnome-shell-45")):
        shutil.copytree(os.path.join(ROOT, source, UUID), f"{share}/usage-shell/{edition}/{UUID}")
    not_installed = ("usage-shell record: the usage-shell GNOME Shell extension is not installed, or was installed since this login: "
                     "scripts/install puts it in share/gnome-shell/extensions; then log out and in (GNOME on Wayland finds a new extension "
                     "at login) and run usage-shell record --enable again; nothing was changed\n")

    def enable(version, home, data_dirs):
        stub = service([HERE + "/gnome_shell_stub.py", address, version], address, "org.gnome.Shell", f"{tmp}/gnome-shell-stub.out")
        env = {"PATH": os.environ["PATH"], "HOME": home, "DBUS_SESSION_BUS_ADDRESS": address, "XDG_SESSION_TYPE": "wayland",
               "XDG_CURRENT_DESKTOP": "GNOME", "XDG_DATA_DIRS": data_dirs, "XDG_RUNTIME_DIR": tmp, "XDG_CONFIG_HOME": home + "/.config"}
        try:
            return run([BIN, "record", "--enable"], env=env, text=True)
        finally:
            stop(stub)

    for version, edition, source in (("46.0", "gnome-shell-45", "Resources/gnome-shell-45"), ("44.1", "gnome-shell-43", "Resources/gnome-shell")):
        home = f"{tmp}/gnome-install-home-{version}"
        os.makedirs(home)
        target = f"{home}/.local/share/gnome-shell/extensions/{UUID}"
        p = enable(version, home, share)
        want = (f"usage-shell record: installed the usage-shell GNOME Shell extension for GNOME Shell {version} in {target} "
                f"(from {share}/usage-shell/{edition}/{UUID}); GNOME Shell finds a new extension at login: log out and in, "
                "then run usage-shell record --enable again; the unit was not set up yet\n")
        check(p.returncode == 1 and p.stdout == "" and p.stderr == want, f"gnome-install {version}: {p.returncode} {p.stdout!r} {p.stderr!r}")
        files = sorted(os.listdir(os.path.join(ROOT, source, UUID)))
        check(os.path.isdir(target) and sorted(os.listdir(target)) == files
              and all(filecmp.cmp(os.path.join(ROOT, source, UUID, f), f"{target}/{f}", shallow=False) for f in files),
              f"gnome-install {version}: {target} is not {source}'s edition")
        # Run again while GNOME still does not know it: the copy there is the user's, left alone.
        with open(f"{target}/metadata.json", "a") as f:
            f.write("\n")
        kept = open(f"{target}/metadata.json").read()
        p = enable(version, home, share)
        check(p.returncode == 1 and p.stderr == not_installed, f"gnome-install {version} again: {p.returncode} {p.stderr!r}")
        check(open(f"{target}/metadata.json").read() == kept, f"gnome-install {version} again: the user's copy was rewritten")
    print("ok: gnome-install: record --enable copies the edition for GNOME Shell 46 and 44 from XDG_DATA_DIRS, says so, never overwrites a copy", flush=True)

    home = f"{tmp}/gnome-install-home-none"
    os.makedirs(home)
    p = enable("46.0", home, tmp + "/gnome-install-nothing")
    check(p.returncode == 1 and p.stderr == not_installed, f"gnome-install without editions: {p.returncode} {p.stderr!r}")
    check(os.listdir(home) == [], f"gnome-install without editions made {os.listdir(home)} in the home")
    print("ok: gnome-install: without a package's editions, the refusal as before and nothing made", flush=True)
