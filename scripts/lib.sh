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
