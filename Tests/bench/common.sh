# Sourced by the bench scripts: where the project is, the kinetic binary (KINETIC, made
# absolute) and the head-to-head scene (BENCH_SCENE, made absolute).
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/../.." && pwd)
kinetic=${KINETIC:-$root/.build/release/kinetic}
case "$kinetic" in /*) ;; *) kinetic="$root/$kinetic" ;; esac
scene=${BENCH_SCENE:-$here/scenes/app-screen.yaml}
case "$scene" in /*) ;; *) scene="$PWD/$scene" ;; esac

# bench_setup LABEL SUBFOLDER TOOL… — checks the tools are installed, then enters a work
# folder: BENCH_OUT/SUBFOLDER when BENCH_OUT is set (kept), else a temporary one.
bench_setup() {
    local label=$1 sub=$2 tool; shift 2
    for tool in "$@"; do
        command -v "$tool" >/dev/null || { echo "$label: $tool is missing (run make deps)" >&2; exit 1; }
    done
    if [ -n "${BENCH_OUT:-}" ]; then
        work=$BENCH_OUT/$sub; rm -rf "$work"; mkdir -p "$work"
    else
        work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
    fi
    cd "$work"
}
