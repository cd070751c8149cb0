# Sourced by the bench scripts: where the project is, the kinetic binary (KINETIC, made
# absolute) and the head-to-head scene (BENCH_SCENE, made absolute).
here=$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)
root=$(cd "$here/../.." && pwd)
kinetic=${KINETIC:-$root/.build/release/kinetic}
case "$kinetic" in /*) ;; *) kinetic="$root/$kinetic" ;; esac
scene=${BENCH_SCENE:-$here/scenes/app-screen.yaml}
case "$scene" in /*) ;; *) scene="$PWD/$scene" ;; esac
