# scripts/bench/lib.py — the set-up the Python benchmarks share (scripts/bench/store, watch, postgres; save through store): the paths, the release build and the seeded workload files kept in .build/bench/. The Python counterpart of scripts/lib.sh, which they cannot source; imported, hence no dash in its name.
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / ".build" / "bench"
GEN = ROOT / "scripts" / "bench" / "gen-sessions"
DAY = "2026-02-23"


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


def build():
    """Builds the release usage-shell (as scripts/install does) and returns its path."""
    run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--product", "usage-shell"], cwd=ROOT,
        stdout=subprocess.DEVNULL)
    out = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.strip()
    return Path(out) / "usage-shell"


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
