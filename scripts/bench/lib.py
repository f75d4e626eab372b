# scripts/bench/lib.py — what the Python scripts share: building and finding the usage-shell binary (scripts/lib.sh's counterpart, which they cannot source: gen-manpage, test-recorder and the benchmarks go through it), and the benchmarks' set-up (the paths, the seeded workload files kept in .build/bench/). Imported, hence no dash in its name; a script outside scripts/bench first puts this folder on sys.path.
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / ".build" / "bench"
GEN = ROOT / "scripts" / "bench" / "gen-sessions"
DAY = "2026-02-23"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# The build scripts/install makes and the benchmarks time: the release one, with the Swift runtime linked in.
RELEASE = ("-c", "release", "--static-swift-stdlib")


def build_usage_shell(*options, quiet=True):
    """Builds the usage-shell product with these swift build options (the debug one, unless they
    say `-c release`) and returns its path; lib.sh's build_usage_shell. quiet: the build's output
    is dropped (its errors still go to standard error). A failed build ends the script."""
    command = ["swift", "build", *options, "--product", "usage-shell"]
    if subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL if quiet else None).returncode != 0:
        sys.exit(f"{Path(sys.argv[0]).name}: {' '.join(command)} failed")
    return usage_shell_path(*options)


def usage_shell_path(*options):
    """Where these swift build options build usage-shell, without building it; lib.sh's usage_shell_path."""
    out = subprocess.run(["swift", "build", *options, "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    return Path(out) / "usage-shell"


def build():
    """Builds the release usage-shell (as scripts/install does) and returns its path."""
    return build_usage_shell(*RELEASE)


def workload(rows, days, end, seed, dirty=False):
    """The sessions file GEN writes for these arguments, made once into BENCH and kept for the next runs."""
    name = f"sessions-{rows}-{days}-{end}-{seed}{'-dirty' if dirty else ''}.json"
    path = BENCH / name
    if not path.exists():
        print(f"writing {path.name} …", file=sys.stderr)
        tmp = path.with_suffix(".tmp")
        args = [sys.executable, str(GEN), str(rows), "--days", str(days), "--end", end, "--seed", str(seed), "-o", str(tmp)]
        run(args + (["--dirty"] if dirty else []))
        tmp.rename(path)
    return path
