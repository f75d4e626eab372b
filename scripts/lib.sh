# scripts/lib.sh — what the shell scripts share, sourced (never run): building and finding the usage-shell binary (and the folder a build puts it in), and finding a Python with the modules a test needs. (scripts/bench/lib.py is its counterpart for the Python scripts.)
# shellcheck shell=bash
# A script sources it after `cd "$(dirname "$0")/.."` (to the repository root), under `set -euo pipefail`:
#   source scripts/lib.sh
# Each function reports in a variable (bin, py) rather than on standard output, so that the
# build's own output goes where it always went.

# build_usage_shell [--quiet] [swift build options]: builds the usage-shell product (the debug
# one, unless the options say `-c release`) and sets bin to its path. --quiet: the build's
# output is dropped (its errors still go to standard error).
build_usage_shell() {
    local quiet=false
    if [[ "${1:-}" == "--quiet" ]]; then
        quiet=true
        shift
    fi
    if $quiet; then
        swift build "$@" --product usage-shell >/dev/null
    else
        swift build "$@" --product usage-shell
    fi
    usage_shell_path "$@"
}

# usage_shell_path [swift build options]: sets bin to where those options build usage-shell, without building it.
usage_shell_path() {
    build_path "$@"
    # shellcheck disable=SC2034  # bin is the caller's
    bin="$products/usage-shell"
}

# build_path [swift build options]: sets products to the folder those options build into
# (`swift build --show-bin-path`: the binary, the test bundle, the compiled modules in Modules/).
build_path() {
    products="$(swift build "$@" --show-bin-path)"
}

# find_python MODULE...: sets py to the first of python3 and /usr/bin/python3 that imports every
# MODULE (a pip install may make the first lack what Debian's has); if none does, says what to
# install and exits 1.
find_python() {
    local candidate list="$*"
    py=""
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c "import ${list// /, }" >/dev/null 2>&1; then
            # shellcheck disable=SC2034  # py is the caller's
            py="$candidate"
            return 0
        fi
    done
    local packages verb=is
    packages="$(printf 'python3-%s ' "$@")"
    (($# > 1)) && verb=are
    echo "error: ${list// / and } $verb needed: apt-get install ${packages% } (or pip install $list)" >&2
    exit 1
}

# stage NAME COMMAND...: prints `== NAME`, runs COMMAND, then `== NAME: N s` (its wall-clock time),
# so that a log says where the minutes went; a COMMAND that fails ends the script after saying how
# long it ran. The stages of scripts/test and .ci/run go through it. A shell function given as
# COMMAND runs where bash ignores set -e (it is tested with ||): chain its steps with && or make
# it one pipeline.
stage() {
    local name=$1 started=$SECONDS status=0
    shift
    echo "== $name"
    "$@" || status=$?
    if ((status)); then
        echo "== $name: failed (status $status) after $((SECONDS - started)) s" >&2
        exit "$status"
    fi
    echo "== $name: $((SECONDS - started)) s"
}

# beside NAME COMMAND...: (NAME: words, no slash) starts COMMAND in the background at the lowest CPU priority (nice 19),
# in a process group of its own, its output in .build/beside/NAME.log, so that a build nothing
# waits for yet takes only the CPU the tests in front leave idle (most of them wait on desktops,
# browsers and terminals). What is still running when the script ends is stopped (a trap).
# joined NAME: waits for it, then says its time; on its failure prints its log and fails.
beside() {
    local name=$1 slot=${1//[^A-Za-z0-9]/_}
    shift
    mkdir -p .build/beside
    rm -f ".build/beside/$name.status"
    echo "== $name: started beside the tests (nice 19; its output: .build/beside/$name.log)"
    setsid bash -c 'nice -n 19 "$@" >".build/beside/$0.log" 2>&1; echo "$? $SECONDS" >".build/beside/$0.status"' "$name" "$@" &
    declare -g "beside_pid_$slot=$!"
    beside_groups+=("$!")
    trap 'for group in "${beside_groups[@]}"; do kill -TERM -- "-$group" "$group" 2>/dev/null || true; done' EXIT
}
beside_groups=()
joined() {
    local name=$1 pid_var="beside_pid_${1//[^A-Za-z0-9]/_}" status seconds
    wait "${!pid_var}" || true
    read -r status seconds <".build/beside/$name.status" || { status=1; seconds="?"; }
    if ((status)); then
        cat ".build/beside/$name.log" >&2
        echo "== $name: failed (status $status) after $seconds s (beside the tests)" >&2
        exit "$status"
    fi
    echo "== $name: $seconds s (beside the tests)"
}
