#!/usr/bin/env bash
# The quick start of docs/library.md, as a user runs it: a package outside the project
# that depends on Kinetic by path, whose main.swift is exactly the ```swift block after
# `<!-- quick-start -->`; its PNG must be the bytes `kinetic render --frame N` writes.
#   KINETIC=.build/release/kinetic bash Tests/library/quick_start.sh
# QUICK_START_BUILD: the example's build folder (kept between runs; default
# .build-quickstart in the project, ignored by git).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
kinetic=${KINETIC:-$root/.build/release/kinetic}
build=${QUICK_START_BUILD:-$root/.build-quickstart}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/example/Sources/render-frame"
# The block: the lines between the first ```swift fence after the marker and its end.
awk '/^<!-- quick-start -->$/ {m = 1; next}
     m == 1 && /^```swift$/ {m = 2; next}
     m == 2 && /^```$/ {exit}
     m == 2 {print}' "$root/docs/library.md" > "$work/example/Sources/render-frame/main.swift"
[ -s "$work/example/Sources/render-frame/main.swift" ] || { echo "quick_start: no swift block after <!-- quick-start -->" >&2; exit 1; }

# A path dependency's package name is its folder's name, lowercased.
name=$(basename "$root" | tr '[:upper:]' '[:lower:]')
cat > "$work/example/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "QuickStart",
    dependencies: [.package(path: "$root")],
    targets: [
        .executableTarget(name: "render-frame", dependencies: [.product(name: "Kinetic", package: "$name")]),
    ]
)
SWIFT

start=$(date +%s)
swift build --package-path "$work/example" --scratch-path "$build" --product render-frame >"$work/build.log" 2>&1 \
  || { tail -40 "$work/build.log" >&2; echo "quick_start: the example did not build" >&2; exit 1; }
echo "quick_start: example built in $(( $(date +%s) - start )) s" >&2

fail=0
for case in "scenes/gravity-angle.yaml 30" "scenes/paperclip-loader.yaml 55"; do
  set -- $case
  "$build/debug/render-frame" "$root/$1" "$2" "$work/library.png"
  "$kinetic" render "$root/$1" --frame "$2" -o "$work/kinetic.png" --quiet
  if cmp "$work/library.png" "$work/kinetic.png"; then
    echo "ok: $1 frame $2: the quick start's PNG is kinetic's, byte for byte"
  else
    echo "FAIL: $1 frame $2: the quick start's PNG differs from kinetic render's" >&2; fail=1
  fi
done
# A bad scene: the located error, exit 1.
printf 'kinetic: 1\nscene: {size: [10, 10], duration: 1}\nlayers:\n  - {id: a, opacity: lots}\n' > "$work/bad.yaml"
if "$build/debug/render-frame" "$work/bad.yaml" 0 "$work/bad.png" 2>"$work/err.txt"; then
  echo "FAIL: a bad scene was rendered" >&2; fail=1
elif grep -q "bad.yaml:4:[0-9]*: layers\[0\].opacity: " "$work/err.txt"; then
  echo "ok: a bad scene's error is located: $(head -1 "$work/err.txt")"
else
  echo "FAIL: unlocated error: $(cat "$work/err.txt")" >&2; fail=1
fi
exit $fail
