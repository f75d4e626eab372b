# desktop_cases.py — the recorder on i3 (under Xvfb, found from the display's I3_SOCKET_PATH) and on sway 1.7 headless as an ordinary user (foot windows, swayidle for idle); the sway session the wlroots test shares.
import json
import os
import pwd
import shlex
import subprocess
import time

from peers import BIN, Recorder, XSession, check, expect_sessions, run, scenario, sessions, start, stop, wait_for


# ---------------------------------------------------------------------------------------------
# i3 under Xvfb: the IPC backend, found from the display's I3_SOCKET_PATH.

def test_i3(tmp):
    config = tmp + "/i3.conf"
    with open(config, "w") as f:
        f.write("# i3 config file (v4)\nfont pango:monospace 8\nfocus_follows_mouse no\n")
    x = XSession(94, ["i3", "-c", config])
    try:
        wait_for("i3's socket", lambda: run(["i3", "--get-socketpath"], env=x.env).returncode == 0)
        for cls in ["A", "B"]:
            x.xterm(cls)

        def focus(cls):
            run(["i3-msg", f'[class="^{cls}$"] focus'], env=x.env, check=True)
            return time.time()

        once = run([BIN, "record", "--once"], env=x.env, text=True)
        check(once.returncode == 0 and once.stdout.startswith("backend: i3\n"), f"i3 --once: {once.stdout!r} {once.stderr!r}")
        db = tmp + "/i3.sqlite"
        want, _ = scenario("i3", focus, x.move, db, x.env)
        expect_sessions("i3: A 3 s, B 2 s, idle, A 2 s", sessions(db), want)

        # An empty workspace has no app: the session ends when it is shown.
        db = tmp + "/i3-workspace.sqlite"
        rec = Recorder(db, x.env, "--idle", "1m")
        t_a = focus("A")
        x.move()
        time.sleep(1.5)
        run(["i3-msg", "workspace", "9"], env=x.env, check=True)
        t_empty = time.time()
        time.sleep(1.5)
        rec.stop()
        rec.close()
        expect_sessions("i3: an empty workspace ends the session", sessions(db), [("A", t_a, t_empty)])
    finally:
        run(["i3-msg", "exit"], env=x.env)
        x.close()


# ---------------------------------------------------------------------------------------------
# sway 1.7 headless as an ordinary user (sway refuses root), foot windows, swayidle for idle.

class SwaySession:
    """sway 1.7 headless as the ordinary user `rectest` (sway refuses root), its runtime directory
    under `tmp`; `env` reaches it (WAYLAND_DISPLAY, XDG_RUNTIME_DIR, SWAYSOCK), as root."""

    def __init__(self, tmp, name="sway"):
        user = "rectest"
        try:
            pwd.getpwnam(user)
        except KeyError:
            subprocess.run(["useradd", "-m", user], check=True)
        self.runtime = f"{tmp}/{name}-run"
        os.mkdir(self.runtime, 0o700)
        os.chown(self.runtime, pwd.getpwnam(user).pw_uid, pwd.getpwnam(user).pw_gid)
        config = f"{tmp}/{name}.conf"
        with open(config, "w") as f:
            f.write("output HEADLESS-1 resolution 1280x720\nfocus_follows_mouse no\n")
        os.chmod(config, 0o644)
        base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "I3SOCK", "XDG_CURRENT_DESKTOP", "DBUS_SESSION_BUS_ADDRESS")}
        sway_env = {"XDG_RUNTIME_DIR": self.runtime, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman", "WLR_LIBINPUT_NO_DEVICES": "1",
                    "HOME": pwd.getpwnam(user).pw_dir, "PATH": os.environ["PATH"]}
        self.p = start(["runuser", "-u", user, "--", "env", "-i"] + [f"{k}={v}" for k, v in sway_env.items()] + ["sway", "-c", config])
        try:
            sock = wait_for("sway's socket", lambda: [n for n in os.listdir(self.runtime) if n.startswith("sway-ipc.") and n.endswith(".sock")])[0]
            self.env = dict(base, SWAYSOCK=self.runtime + "/" + sock, WAYLAND_DISPLAY="wayland-1", XDG_RUNTIME_DIR=self.runtime)
            version = run(["swaymsg", "-t", "get_version"], env=self.env, text=True)
            check('"1.7' in version.stdout, f"sway's version: {version.stdout[:200]!r}")
        except Exception:
            stop(self.p)
            raise

    def msg(self, *args):
        run(["swaymsg", *args], env=self.env, check=True)
        return time.time()

    def tree_has(self, app):
        return f'"app_id": {json.dumps(app)}' in run(["swaymsg", "-t", "get_tree"], env=self.env, text=True).stdout

    def foot(self, app, *command):
        """A foot window of app id `app` (running `command`), once sway shows it."""
        self.msg("exec", shlex.join(["foot", f"--app-id={app}", *command]))
        wait_for("foot " + app, lambda: self.tree_has(app))

    def focus(self, app):
        return self.msg(f'[app_id="^{app}$"] focus')

    def move(self):
        self.msg("seat", "-", "cursor", "move", "1", "0")

    def close(self):
        stop(self.p)


def test_sway(tmp):
    sway = SwaySession(tmp)
    try:
        env = sway.env
        for app in ["A", "B"]:
            sway.foot(app)
        once = run([BIN, "record", "--once"], env=env, text=True)
        check(once.returncode == 0 and once.stdout.startswith("backend: sway\napp: B (category Other)\nidle: unknown (from swayidle)"),
              f"sway --once: {once.stdout!r} {once.stderr!r}")
        db = tmp + "/sway.sqlite"
        want, _ = scenario("sway", sway.focus, sway.move, db, env)
        expect_sessions("sway: A 3 s, B 2 s, idle, A 2 s", sessions(db), want)
        # sway's I3SOCK alone is told from i3 by its GET_VERSION.
        env_i3 = dict(env, I3SOCK=env["SWAYSOCK"])
        del env_i3["SWAYSOCK"]
        once = run([BIN, "record", "--once"], env=env_i3, text=True)
        check(once.stdout.startswith("backend: sway\n"), f"sway by I3SOCK: {once.stdout!r} {once.stderr!r}")
    finally:
        sway.close()
