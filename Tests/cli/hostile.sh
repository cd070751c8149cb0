# Hostile and careless input (issue 14): sourced by run.sh, with its `check`, `$kinetic`,
# `$scenes` and `$tmp`. Every case runs under a time bound generous for a loaded CI
# machine and, where memory is the risk, under `ulimit -v`; none may crash (no Swift
# runtime failure, no signal), and each refusal names FILE:LINE:COL or the flag.
hostile=$scenes/hostile

# bounded SECONDS KBYTES COMMAND… — the command under a time and virtual-memory cap;
# stdout and stderr in $tmp/stdout and $tmp/stderr.
bounded() {
    local secs=$1 mem=$2; shift 2
    ( ulimit -v "$mem"; exec timeout -k 5 "$secs" "$@" ) >"$tmp/stdout" 2>"$tmp/stderr"
}

# no_crash_report — stderr has none of the Swift runtime's or Chipmunk's crash reports.
no_crash_report() {
    ! grep -qE 'Backtracing|Fatal error|Program crashed|runtime failure|Aborting due to|CRITICAL' "$tmp/stderr" ||
        { echo "crash report:"; head -c 1500 "$tmp/stderr"; return 1; }
}

# refuses CODE REGEX COMMAND… — exits CODE within 60 s and 4 GB, stderr matches REGEX.
refuses() {
    local want=$1 pattern=$2; shift 2
    bounded 60 4000000 "$@"; local got=$?
    [ "$got" = "$want" ] || { echo "exit $got, wanted $want"; head -c 1500 "$tmp/stderr"; return 1; }
    no_crash_report || return 1
    grep -qE -- "$pattern" "$tmp/stderr" || { echo "stderr lacks /$pattern/:"; head -c 1500 "$tmp/stderr"; return 1; }
}

# --- Crashes: numbers checked before they become integers or sizes -------------------
check "duration 1e18 is refused at its key" refuses 65 'duration-1e18.yaml:2:44: scene.duration: .*over the limit of 86400 s' \
    "$kinetic" validate "$hostile/duration-1e18.yaml"
check "a 29-digit duration is refused at its key" refuses 65 'duration-29-digits.yaml:2:44: scene.duration: ' \
    "$kinetic" validate "$hostile/duration-29-digits.yaml"
check "fps 1e300 is refused with the frame limit" refuses 65 'fps-1e300.yaml:2:47: scene.duration: 1e\+300 frames exceed the limit of 100000' \
    "$kinetic" validate "$hostile/fps-1e300.yaml"
check "fps 1e-20 for 3e20 s (3 frames) is refused" refuses 65 'fps-tiny-duration-huge.yaml:2:47: scene.duration: ' \
    "$kinetic" validate "$hostile/fps-tiny-duration-huge.yaml"
check "--duration 1e30 is a usage error" refuses 64 '^--duration/--fps: a duration of 1e\+30 s is over the limit' \
    "$kinetic" render "$scenes/moving-square.yaml" -o big.gif --duration 1e30
check "--fps 1e30 is a usage error" refuses 64 '^--duration/--fps: 5e\+29 frames exceed the limit' \
    "$kinetic" render "$scenes/moving-square.yaml" -o big.gif --fps 1e30
check "--fps 1e-20 (one frame lasting 1e20 s) is a usage error" refuses 64 'at 1e-20 fps the frames last longer than the limit' \
    "$kinetic" render "$scenes/moving-square.yaml" -o big.gif --fps 1e-20
check "emitter contents of 1e300 pt are refused at their size" \
    refuses 65 'emitter-contents-huge.yaml:10:64: layers\[0\]\.emitterCells\[0\]\.contents\.size: each side .* at most 10000 pt' \
    "$kinetic" validate "$hostile/emitter-contents-huge.yaml"
check "emitter contents of 1e9 pt (finite, an allocation of 10^18 px) are refused at their size" bash -c "
    sed 's/1e300, 1e300/1e9, 1e9/' '$hostile/emitter-contents-huge.yaml' > contents-1e9.yaml
    ( ulimit -v 4000000; exec timeout 60 '$kinetic' render contents-1e9.yaml -o c9.gif --quiet ) 2>c9.err; c=\$?; cat c9.err
    [ \$c = 65 ] && [ ! -e c9.gif ] && grep -Eq 'contents-1e9.yaml:10:64: layers\[0\]\.emitterCells\[0\]\.contents\.size: each side .* at most 10000 pt' c9.err"
check "an emitter pre-warmed 1e300 s is refused (it would step for ever)" \
    refuses 65 'emitter-preroll-huge.yaml:8:16: layers\[0\]\.beginTime: -1e\+300 is out of range -3600…86400' \
    "$kinetic" validate "$hostile/emitter-preroll-huge.yaml"
check "an attachment of frequency 1e300 is refused by validate (Chipmunk aborted on it)" \
    refuses 65 'attachment-absurd.yaml:8:95: dynamics\.behaviors\[0\]\.attachment\.frequency: must be ≥ 0 and ≤ 10000, got 1e\+300' \
    "$kinetic" validate "$hostile/attachment-absurd.yaml"
check "the stiffest accepted spring renders or blows up with exit 70, never aborts" bash -c "
    ( ulimit -v 4000000; exec timeout 60 '$kinetic' render '$hostile/attachment-stiff.yaml' -o stiff.gif --quiet ) 2>stiff.err; c=\$?
    cat stiff.err; ! grep -qE 'Backtracing|Aborting' stiff.err &&
    { [ \$c = 0 ] || { [ \$c = 70 ] && grep -q 'blew up at t = .* item .box.' stiff.err; }; }"
check "validate refuses the physics' ranges at their keys" bash -c "
    '$kinetic' validate '$hostile/dynamics-ranges.yaml' 2>r.txt; [ \$? = 65 ] || exit 1; cat r.txt
    grep -q 'dynamics-ranges.yaml:8:20: dynamics.referenceBounds: must be finite and within ±10000000' r.txt &&
    grep -q 'dynamics-ranges.yaml:10:42: dynamics.behaviors\[0\].gravity.magnitude: must be finite' r.txt &&
    grep -q 'dynamics-ranges.yaml:11:88: dynamics.behaviors\[1\].itemBehavior.density: must be > 0 and ≤ 1000000, got 10000000' r.txt &&
    grep -q 'dynamics-ranges.yaml:12:60: dynamics.behaviors\[2\].field.strength: must be finite' r.txt &&
    grep -q 'dynamics-ranges.yaml:13:41: dynamics.behaviors\[3\].collision.insets: must be finite' r.txt &&
    grep -q 'dynamics-ranges.yaml:14:22: dynamics.behaviors\[4\].push.items\[0\]: .far.: a dynamic item.s center must be finite' r.txt"
check "validate refuses velocities and charge past the physics' range at their keys" bash -c "
    for v in 'linearVelocity: [1e300, 0]' 'angularVelocity: 1e300' 'charge: 1e300'; do
        key=\${v%%:*}
        printf 'kinetic: 1\nscene: {size: [100, 100], fps: 10, duration: 1}\nlayers:\n  - {id: box, position: [50, 50], bounds: [10, 10]}\ndynamics:\n  behaviors:\n    - itemBehavior: {items: [box], %s}\n' \"\$v\" > vel.yaml
        ( exec timeout 60 '$kinetic' validate vel.yaml ) 2>vel.err; c=\$?; cat vel.err
        [ \$c = 65 ] && grep -Eq \"^vel.yaml:7:[0-9]+: dynamics.behaviors\\[0\\].itemBehavior.\$key: must be finite and within ±10000000\" vel.err || exit 1
    done"
check "SIGQUIT stops a render like SIGTERM: no crash report, no temporary file" bash -c "
    mkdir quit; '$kinetic' render '$scenes/moving-square.yaml' -o quit/long.gif --duration 600 --scale 8 --quiet 2>quit.err & pid=\$!
    for i in \$(seq 40); do sleep 0.5; [ -n \"\$(ls -A quit)\" ] && break; done  # a GIF opens after its palette pass
    [ -n \"\$(ls -A quit)\" ] || { echo 'no temporary file while rendering'; exit 1; }
    kill -QUIT \$pid; wait \$pid; code=\$?; cat quit.err
    [ \$code = 131 ] && [ -z \"\$(ls -A quit)\" ] && ! grep -q Backtracing quit.err"

# --- Memory: limits on totals, checked before allocating ---------------------------
check "nested replicators (10^10 layers) are refused at load" \
    refuses 65 'replicators-nested.yaml:5:3: layers: the replicators make 10000100001 layers, over the limit of 262144 layer instances' \
    "$kinetic" validate "$hostile/replicators-nested.yaml"
check "an animated count that multiplies past the limit stops the render" \
    refuses 65 'replicators-animated.yaml:6:3: layers: at t = 0.100 s the replicators make more than 262144 layers' \
    "$kinetic" render "$hostile/replicators-animated.yaml" -o rep.gif --quiet
check "validate finds the animated count over the limit as render does" \
    refuses 65 'replicators-animated.yaml:6:3: layers: at t = 0.100 s the replicators make more than 262144 layers' \
    "$kinetic" validate "$hostile/replicators-animated.yaml"
check "the particle limit is on all emitters together" \
    refuses 65 "particles-together.yaml:(6|11|16):5: layers\[[0-2]\]: emitter 'e.' and the others: 1000001 live particles at t = .* exceed the limit of 1000000" \
    "$kinetic" render "$hostile/particles-together.yaml" -o part.gif --quiet
check "validate fails a scene over the particle limit exactly as render does" bash -c "
    ( exec timeout 120 '$kinetic' render '$hostile/particles-together.yaml' -o part2.gif --quiet ) 2>r.err; r=\$?
    ( exec timeout 120 '$kinetic' validate '$hostile/particles-together.yaml' ) 2>v.err; v=\$?
    cat v.err; [ \$r = 65 ] && [ \$v = 65 ] && [ \$(wc -l < v.err) = 1 ] && cmp r.err v.err &&
    grep -Eq 'particles-together.yaml:(6|11|16):5: layers' v.err"
# capped_render CAP NAME SCENE ARGS… — renders SCENE's frames 40-43 (or all, for a short
# scene) with --jobs 2 under `ulimit -v CAP` (KiB) into NAME-out/, against NAME-ref/ (the
# same render uncapped). Passes when the run writes exactly the reference's frames
# (exit 0), or stops with a message and no temporary file: exit 70 when a frame's
# pixels cannot be allocated, exit 71 when the limit leaves too little to start (127
# when it is below the size of the shared libraries: ld.so's own message).
# Never a hang (120 s: generous for a loaded machine), a signal (glib's abort is 133,
# a crash 139) or exit 0 with frames missing.
capped_render() {
    local cap=$1 name=$2; shift 2
    rm -rf "$name-out"
    ( ulimit -v "$cap"; exec timeout -k 5 120 "$kinetic" render "$@" -o "$name-out/" --jobs 2 --quiet ) 2>"$name.err"; local c=$?
    case $c in
        0) [ "$(ls "$name-ref" | wc -l)" = "$(ls "$name-out" | wc -l)" ] || { echo "cap $cap: frames missing"; return 1; }
           for f in "$name-ref"/*.png; do cmp "$f" "$name-out/$(basename "$f")" || { echo "cap $cap: $f differs"; return 1; }; done ;;
        70) grep -q 'out of memory: cannot allocate a [0-9]*×[0-9]* px frame' "$name.err" || { echo "cap $cap:"; cat "$name.err"; return 1; } ;;
        71) grep -q 'out of memory: .*the address-space limit (ulimit -v) of' "$name.err" || { echo "cap $cap:"; cat "$name.err"; return 1; } ;;
        # Below the shared libraries' own size the dynamic loader stops before kinetic runs.
        127) grep -q 'error while loading shared libraries: .*failed to map segment' "$name.err" || { echo "cap $cap:"; cat "$name.err"; return 1; } ;;
        *) echo "cap $cap: exit $c"; head -c 1500 "$name.err"; return 1 ;;
    esac
    ! ls -A "$name-out" 2>/dev/null | grep -q tmp || { echo "cap $cap: temporary files left"; return 1; }
    echo "cap $cap: exit $c"
}
check "--jobs 2 under memory caps of 200-900 MB: every frame, or exit 70/71 with a message" bash -c "
    # A 2250×4002 px frame with its PNG asset; the caps run from too small to start to
    # enough for two workers' frames.
    $(declare -f capped_render); kinetic='$kinetic'
    scene='$here/../../scenes/twitter-launch.yaml'
    '$kinetic' render \$scene -o big-ref/ --frames 40-43 --jobs 1 --quiet --scale 6 || exit 1
    for cap in 200000 300000 400000 500000 600000 700000 900000; do
        capped_render \$cap big \$scene --frames 40-43 --scale 6 || exit 1
    done"
check "text (fontconfig, Pango, CJK and emoji fonts) under memory caps of 200-600 MB: every frame or exit 71" bash -c "
    $(declare -f capped_render); kinetic='$kinetic'
    scene='$here/../../scenes/text-cjk-emoji.yaml'
    '$kinetic' render \$scene -o text-ref/ --frames 0-3 --jobs 1 --quiet || exit 1
    for cap in 200000 300000 400000 450000 500000 600000; do
        capped_render \$cap text \$scene --frames 0-3 || exit 1
    done"
check "--max-particles 2000000 lets the three emitters render" bash -c "
    ( ulimit -v 4000000; exec timeout 120 '$kinetic' render '$hostile/particles-together.yaml' -o part.gif --quiet --max-particles 2000000 --frames 0-1 ) && [ -s part.gif ]"
check "a canvas side past Cairo's 32767 px is a usage error, not a crash" \
    refuses 64 "max-canvas-side must be 1…32767" \
    "$kinetic" render "$scenes/moving-square.yaml" -o big.gif --max-canvas-side 100000
check "a canvas over the memory budget is refused before rendering" bash -c "
    printf 'kinetic: 1\nscene: {size: [30000, 30000], scale: 1, fps: 10, duration: 0.2}\nlayers:\n  - {bounds: [5, 5], backgroundColor: red}\n' > huge.yaml
    ( ulimit -v 4000000; exec timeout 60 '$kinetic' render huge.yaml -o huge.gif --max-canvas-side 30000 --max-canvas-pixels 900000000 ) 2>h.err; c=\$?
    cat h.err; [ \$c = 64 ] && grep -q 'a 30000×30000 px frame needs about .* over the memory budget' h.err && [ ! -e huge.gif ]"
check "--max-memory takes sizes and refuses nonsense" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o mm.gif --quiet --max-memory 512M &&
    '$kinetic' render '$scenes/moving-square.yaml' -o mm.gif --quiet --max-memory 12X 2>mm.err; [ \$? = 64 ] && grep -q 'max-memory takes a size' mm.err"
check "fewer workers when frames in flight would not fit --max-memory" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o w.gif --jobs 8 --scale 30 --max-memory 500M 2>w.err; c=\$?; cat w.err
    [ \$c = 0 ] && grep -q 'warning: [1-7] workers instead of 8' w.err"
check "a contact sheet over the memory budget is refused" \
    refuses 64 "--contact-sheet: 12 frames of 3600×2400 px need about .* over --max-memory 256M" \
    "$kinetic" render "$scenes/moving-square.yaml" --contact-sheet cs.png --scale 30 --max-memory 256M --quiet

# --- Hangs and super-linear time -----------------------------------------------------
mkdir -p big && ( cd big && python3 "$here/gen_hostile.py" )
check "YAML aliases expanding to 2^22 layers are refused (billion laughs)" \
    refuses 65 'laughs.yaml:[0-9]+:[0-9]+: the file has more than 524288 YAML nodes, aliases counted each time' \
    "$kinetic" validate big/laughs.yaml
check "20,000 chained references validate and render (linear ordering)" bash -c "
    ( ulimit -v 4000000; timeout 60 '$kinetic' validate big/chain.yaml && timeout 60 '$kinetic' render big/chain.yaml -o chain.gif --quiet ) && [ -s chain.gif ]"
check "a 5,000-reference cycle is reported quickly, naming it" \
    refuses 65 'cycle.yaml:4:25: layers\[0\]\.position\[0\]: reference cycle: l0\.position\.x → l1\.position\.x → ' \
    timeout 30 "$kinetic" validate big/cycle.yaml
check "a 100,000-segment stroked path is refused at its key" \
    refuses 65 'stroke.yaml:4:[0-9]+: layers\[0\]\.path: the path has 100001 segments .*, over the limit of 10000' \
    "$kinetic" validate big/stroke.yaml
check "a 100,000-segment collision boundary is refused at its key" \
    refuses 65 'boundary.yaml:8:[0-9]+: dynamics\.behaviors\[1\]\.collision\.boundaries\[0\]\.path: the path has 100001 segments' \
    "$kinetic" validate big/boundary.yaml
check "5,000 random cubics (under the element limit) are counted by their chords" \
    refuses 65 'curves.yaml:4:[0-9]+: layers\[0\]\.path: the path has [0-9]+ segments \(curves counted as chords within 0\.25 pt\), over the limit of 10000' \
    "$kinetic" validate big/curves.yaml
check "a motion path through -1e300 is refused at once (fuzz finding)" \
    refuses 65 "motion-path-huge.yaml:9:12: animations\[0\]\.path: a path's coordinates must be within ±10000000" \
    timeout 20 "$kinetic" validate "$hostile/motion-path-huge.yaml"
check "a layer scaled by 1e40 with a corner radius renders at once, the rest drawn" bash -c "
    ( ulimit -v 4000000; exec timeout 60 '$kinetic' render '$hostile/scale-1e40.yaml' -o s40.png --frame 0 --quiet ) &&
    [ \"\$(convert s40.png -format '%[pixel:p{6,6}]' info:)\" = 'srgb(0,0,255)' ]"

# --- Outputs that lie ----------------------------------------------------------------
check "-o '' is a usage error" refuses 64 "-o needs a file or folder name" \
    "$kinetic" render "$scenes/moving-square.yaml" -o ''
check "a frame pattern 10 GB wide is a usage error" refuses 64 "at most 2 digits wide" \
    "$kinetic" render "$scenes/moving-square.yaml" -o 'p-%09999999999d.png'
check "PDF is byte-identical run to run (fixed creation date)" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o p1.pdf --frame 10 --quiet && sleep 1.1 &&
    '$kinetic' render '$scenes/moving-square.yaml' -o p2.pdf --frame 10 --quiet && cmp p1.pdf p2.pdf &&
    grep -aq 'CreationDate (D:200001010000Z)' p1.pdf"
check "SVG and PDF into a read-only folder exit 73 and leave nothing" bash -c "
    mkdir rov && chmod 500 rov && if [ \$(id -u) = 0 ]; then touch rov-blocker; dir=rov-blocker; else dir=rov; fi
    for ext in svg pdf; do
        '$kinetic' render '$scenes/moving-square.yaml' -o \$dir/x.\$ext --frame 1 --quiet 2>v.err; c=\$?
        [ \$c = 73 ] || { echo \"\$ext: exit \$c\"; cat v.err; exit 1; }
    done; [ -z \"\$(ls -A rov)\" ]"
# A 16 KB tmpfs is a full disk (root only; elsewhere the check says it was skipped).
full_disk() {
    local fmt=$1 dir=$tmp/full-$1
    mkdir -p "$dir"
    if ! mount -t tmpfs -o size=16k tmpfs "$dir" 2>/dev/null; then echo "skipped: cannot mount a tmpfs"; return 0; fi
    head -c 12000 /dev/zero > "$dir/filler"
    local args=(--frame 3); [ "$fmt" = gif ] && args=()
    "$kinetic" render "$scenes/inspect-cases.yaml" -o "$dir/out.$fmt" "${args[@]}" --scale 4 --quiet 2>"$tmp/full.err"; local c=$?
    local left; left=$(ls -A "$dir" | grep -v '^filler$')
    umount "$dir"
    cat "$tmp/full.err"
    [ "$c" = 73 ] && [ -z "$left" ] && grep -q "No space left on device" "$tmp/full.err"
}
for fmt in pdf svg png gif; do
    check "$fmt to a full disk exits 73 and leaves nothing" full_disk $fmt
done
check "a killed run's temporary file is removed by the next run, which says so; a live process's is kept" bash -c "
    mkdir stale && touch stale/.out.gif.999999999.abc123.tmp stale/.keep.tmp stale/.other.gif.$$.zz9.tmp
    '$kinetic' render '$scenes/moving-square.yaml' -o stale/out.gif --quiet 2>s.err; c=\$?; cat s.err
    [ \$c = 0 ] && [ ! -e stale/.out.gif.999999999.abc123.tmp ] && [ -e stale/.keep.tmp ] && [ -e stale/.other.gif.$$.zz9.tmp ] &&
    grep -q 'removed stale/.out.gif.999999999.abc123.tmp, a temporary file left by process 999999999' s.err"
check "a running render's temporary file is kept by another run beside it, under any executable name" bash -c "
    mkdir busy && cp '$kinetic' ./kinetic-1.2
    ./kinetic-1.2 render '$scenes/moving-square.yaml' -o busy/long.gif --duration 600 --scale 8 --quiet 2>/dev/null & pid=\$!
    for i in \$(seq 40); do sleep 0.5; [ -n \"\$(ls -A busy)\" ] && break; done
    first=\$(ls -A busy)
    ./kinetic-1.2 render '$scenes/moving-square.yaml' -o busy/short.gif --quiet 2>b.err; c=\$?; cat b.err
    [ -n \"\$first\" ] && [ -e \"busy/\$first\" ]; kept=\$?
    kill \$pid; wait \$pid
    [ \$c = 0 ] && [ \$kept = 0 ] && ! grep -q 'removed' b.err"
check "SIGHUP, SIGPIPE and SIGUSR1 leave no temporary file" bash -c "
    for sig in HUP PIPE USR1; do
        mkdir sig-\$sig; '$kinetic' render '$scenes/moving-square.yaml' -o sig-\$sig/long.gif --duration 600 --scale 8 --quiet 2>/dev/null & pid=\$!
        for i in \$(seq 40); do sleep 0.5; [ -n \"\$(ls -A sig-\$sig)\" ] && break; done  # a GIF opens after its palette pass
        [ -n \"\$(ls -A sig-\$sig)\" ] || { echo \"\$sig: no temporary file while rendering\"; exit 1; }
        kill -\$sig \$pid; wait \$pid; code=\$?
        [ -z \"\$(ls -A sig-\$sig)\" ] && [ \$code -gt 128 ] || { echo \"\$sig: exit \$code, left \$(ls -A sig-\$sig)\"; exit 1; }
    done"
check "frames of an earlier, longer render are removed; frames in range are kept" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o stalef/ --quiet --duration 1 && [ \$(ls stalef | wc -l) = 50 ] &&
    '$kinetic' render '$scenes/moving-square.yaml' -o stalef/ --frames 0-9 2>f.err >/dev/null; cat f.err
    [ \$(ls stalef | wc -l) = 25 ] && [ -f stalef/frame-0024.png ] && [ ! -e stalef/frame-0025.png ] &&
    grep -q 'removed 25 frames of an earlier render past the last frame (24) from stalef' f.err"

# --- Validation that agrees with rendering; errors at the right place ----------------
check "a duplicate key is reported where it is, not at 1:1" refuses 65 \
    "duplicate-key.yaml:5:41: duplicate key 'opacity' in one mapping" "$kinetic" validate "$hostile/duplicate-key.yaml"
check "a control character is reported where it is" refuses 65 \
    "control-character.yaml:4:46: YAML syntax error: control characters are not allowed" "$kinetic" validate "$hostile/control-character.yaml"
check "UTF-16 without a byte-order mark is named, at its first NUL" refuses 65 \
    "utf16-no-bom.yaml:1:2: a NUL character: the file is UTF-16 without a byte-order mark" "$kinetic" validate "$hostile/utf16-no-bom.yaml"
check "seed 9223372036854775807 is an integer" status_is 0 "$kinetic" validate "$hostile/seed-max.yaml"
check "!!str 1 is no number; fontSize 1e9 is refused (no Pango CRITICAL)" bash -c "
    '$kinetic' validate '$hostile/number-edges.yaml' 2>e.txt; [ \$? = 65 ] || exit 1; cat e.txt
    grep -q 'number-edges.yaml:3:72: scene.fps: expected a number, found the string .10. (tagged !!str)' e.txt &&
    grep -q 'number-edges.yaml:5:40: layers\[0\].fontSize: fontSize must be at most 10000, found 1000000000' e.txt &&
    ! grep -q seed e.txt"

# --- Assets and trust ------------------------------------------------------------------
make_assets() { # make_assets SCENE — the scene and the files it names, in ./trust
    rm -rf trust outside.png; mkdir trust; cp "$1" trust/
    convert -size 4x4 xc:red outside.png && ln -s ../outside.png trust/link.png && mkfifo trust/fifo.png &&
    printf 'not a png\n' > trust/text.png && convert -size 64x64 gradient:red-blue whole.png &&
    head -c $(($(stat -c %s whole.png) / 2)) whole.png > trust/cut.png &&
    python3 -c "
import struct, zlib
ihdr = struct.pack('>IIBBBBB', 20000, 20000, 8, 6, 0, 0, 0)
chunk = lambda t, d: struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d))
open('trust/huge.png', 'wb').write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', ihdr) + chunk(b'IEND', b''))"
}
check "assets outside the scene's folder, FIFOs, huge, non-PNG and cut PNG files are refused at their keys, at once" bash -c "
    $(declare -f make_assets); make_assets '$hostile/assets-escape.yaml' || exit 1
    ( ulimit -v 4000000; exec timeout 30 '$kinetic' validate trust/assets-escape.yaml ) 2>a.txt; c=\$?; cat a.txt; [ \$c = 65 ] &&
    grep -q \"assets-escape.yaml:7:16: layers\[0\].contents: asset '/etc/hostname.png' is outside the scene's folder (an absolute path)\" a.txt &&
    grep -q \"assets-escape.yaml:8:16: layers\[1\].contents: asset '../outside.png' is outside the scene's folder (it resolves to\" a.txt &&
    grep -q \"assets-escape.yaml:9:16: layers\[2\].contents: asset 'link.png' is outside the scene's folder\" a.txt &&
    grep -q \"assets-escape.yaml:10:16: layers\[3\].contents: asset 'fifo.png' is not a regular file\" a.txt &&
    grep -q \"assets-escape.yaml:11:16: layers\[4\].contents: image asset 'huge.png' is 20000×20000 px, over the limit\" a.txt &&
    grep -q \"assets-escape.yaml:12:16: layers\[5\].contents: cannot read image asset 'text.png': not a PNG file\" a.txt &&
    grep -q \"assets-escape.yaml:13:16: layers\[6\].contents: cannot read image asset 'cut.png': the PNG file is cut short\" a.txt"
check "--allow-any-path trusts the paths, never a FIFO or a huge image" bash -c "
    $(declare -f make_assets); make_assets '$hostile/assets-escape.yaml' || exit 1
    ( exec timeout 30 '$kinetic' validate trust/assets-escape.yaml --allow-any-path ) 2>a.txt; c=\$?; cat a.txt; [ \$c = 65 ] &&
    [ \$(wc -l < a.txt) = 5 ] && grep -q \"'cut.png': the PNG file is cut short\" a.txt && grep -q \"missing asset file '/etc/hostname.png'\" a.txt && grep -q 'fifo.png. is not a regular file' a.txt &&
    grep -q \"'huge.png' is 20000×20000 px\" a.txt && grep -q \"'text.png': not a PNG file\" a.txt"
check "--asset-root widens the root to a named folder" bash -c "
    $(declare -f make_assets); make_assets '$hostile/assets-escape.yaml' || exit 1
    printf 'kinetic: 1\nscene: {size: [40, 30], duration: 0.2}\nlayers:\n  - {contents: ../outside.png, bounds: [5, 5]}\n' > trust/up.yaml
    '$kinetic' validate trust/up.yaml 2>/dev/null; [ \$? = 65 ] && '$kinetic' validate trust/up.yaml --asset-root ."

make_fonts() { # make_fonts SCENE — the scene and the font files it names, in ./ftrust
    rm -rf ftrust outside.ttf; mkdir ftrust; cp "$1" ftrust/
    cp /usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf outside.ttf && cp outside.ttf ftrust/good.ttf &&
    ln -s ../outside.ttf ftrust/link.ttf && mkfifo ftrust/fifo.otf && printf 'not a font\n' > ftrust/text.ttf &&
    printf 'true' > ftrust/huge.ttc && truncate -s 100M ftrust/huge.ttc
}
check "font files outside the scene's folder, FIFOs, huge and non-font files are refused at their keys, at once" bash -c "
    $(declare -f make_fonts); make_fonts '$hostile/fonts-escape.yaml' || exit 1
    ( ulimit -v 4000000; exec timeout 30 '$kinetic' validate ftrust/fonts-escape.yaml ) 2>f.txt; c=\$?; cat f.txt; [ \$c = 65 ] &&
    [ \$(wc -l < f.txt) = 6 ] &&
    grep -q \"fonts-escape.yaml:7:35: layers\[0\].font: font file '/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf' is outside the scene's folder (an absolute path)\" f.txt &&
    grep -q \"fonts-escape.yaml:8:35: layers\[1\].font: font file '../outside.ttf' is outside the scene's folder (it resolves to\" f.txt &&
    grep -q \"fonts-escape.yaml:9:35: layers\[2\].font: font file 'link.ttf' is outside the scene's folder\" f.txt &&
    grep -q \"fonts-escape.yaml:10:35: layers\[3\].font: font file 'fifo.otf' is not a regular file\" f.txt &&
    grep -q \"fonts-escape.yaml:11:35: layers\[4\].font: font file 'huge.ttc' is 104857600 bytes, over the limit of 67108864\" f.txt &&
    grep -q \"fonts-escape.yaml:12:35: layers\[5\].font: cannot read font file 'text.ttf': not a TrueType or OpenType font\" f.txt"
check "--allow-any-path trusts font paths, never a FIFO, a huge or a non-font file" bash -c "
    $(declare -f make_fonts); make_fonts '$hostile/fonts-escape.yaml' || exit 1
    ( exec timeout 30 '$kinetic' validate ftrust/fonts-escape.yaml --allow-any-path ) 2>f.txt; c=\$?; cat f.txt; [ \$c = 65 ] &&
    [ \$(wc -l < f.txt) = 3 ] && grep -q 'fifo.otf. is not a regular file' f.txt &&
    grep -q \"'huge.ttc' is 104857600 bytes\" f.txt && grep -q \"'text.ttf': not a TrueType\" f.txt &&
    sed -Ei '/font: (fifo|huge|text|\\.\\.\\/outside|link)/d' ftrust/fonts-escape.yaml &&
    ( exec timeout 60 '$kinetic' render ftrust/fonts-escape.yaml -o f.png --frame 0 --quiet --allow-any-path ) && [ -s f.png ]"

# --- batch: each scene in its own process ----------------------------------------------
check "batch: a scene killed mid-render is its own row; the others render" bash -c "
    mkdir -p bscenes && cp '$scenes/moving-square.yaml' bscenes/b.yaml &&
    sed 's/duration: 0.5/duration: 600/' '$scenes/moving-square.yaml' > bscenes/a.yaml
    '$kinetic' batch bscenes -o bout --jobs 1 2>b.err & pid=\$!
    for i in \$(seq 50); do child=\$(pgrep -P \$pid); [ -n \"\$child\" ] && break; sleep 0.1; done
    sleep 0.5; kill -KILL \$child; wait \$pid; c=\$?; cat b.err
    [ \$c = 70 ] && [ -s bout/b.gif ] && grep -q 'bscenes/a.yaml: crashed (signal 9)' b.err &&
    grep -Eq 'bscenes/a.yaml +- +[0-9.]+ +- +FAILED \(70\): crashed \(signal 9\)' b.err && grep -q '2 scenes, 1 failed' b.err"
check "batch isolates scenes in child processes when the executable has another name" bash -c "
    mkdir -p bscenes3 && cp '$scenes/moving-square.yaml' bscenes3/b.yaml &&
    sed 's/duration: 0.5/duration: 600/' '$scenes/moving-square.yaml' > bscenes3/a.yaml
    ln '$kinetic' renamed-kinetic 2>/dev/null || cp '$kinetic' renamed-kinetic
    ./renamed-kinetic batch bscenes3 -o bout3 --jobs 1 2>b3.err & pid=\$!
    for i in \$(seq 50); do child=\$(pgrep -P \$pid); [ -n \"\$child\" ] && break; sleep 0.1; done
    [ -n \"\$child\" ] || { kill \$pid; echo 'no child process'; exit 1; }
    sleep 0.5; kill -KILL \$child; wait \$pid; c=\$?; cat b3.err; rm -f renamed-kinetic
    [ \$c = 70 ] && [ -s bout3/b.gif ] && grep -Eq 'bscenes3/a.yaml +- +[0-9.]+ +- +FAILED \(70\): crashed \(signal 9\)' b3.err"
check "batch reports a scene's real status and message" bash -c "
    mkdir -p b2 && cp '$hostile/attachment-stiff.yaml' b2/ && cp '$hostile/particles-together.yaml' b2/
    '$kinetic' batch b2 -o b2out --jobs 1 2>b2.err; c=\$?; cat b2.err
    grep -Eq 'particles-together.yaml .*FAILED \(65\)' b2.err && [ \$c != 0 ] && ! grep -q 'SimulationError error' b2.err"

# --- runtime dynamics failures, at their place in the file (issue 13) -------------------
check "an expression driving a push out of range: validate and render both exit 65 at its key" bash -c "
    '$kinetic' validate '$hostile/push-expression-out-of-range.yaml' 2>v.err; v=\$?
    '$kinetic' render '$hostile/push-expression-out-of-range.yaml' -o push.gif --quiet 2>r.err; r=\$?; cat v.err
    [ \$v = 65 ] && [ \$r = 65 ] && [ ! -e push.gif ] && cmp r.err v.err &&
    grep -Eq '^[^ ]*push-expression-out-of-range.yaml:10:74: dynamics.behaviors\[0\].push.magnitude: at t = 0.5 s the expression drives behavior .shove. out of range' v.err"
# validate runs the frames as render does: it refuses the same scenes with the same line
# (exit 65 for a blow-up too, which render reports with 70).
check "a push that runs away exits 70 at the item's layer; validate refuses it alike" bash -c "
    '$kinetic' validate '$hostile/push-blows-up.yaml' 2>v.err; [ \$? = 65 ] || exit 1
    '$kinetic' render '$hostile/push-blows-up.yaml' -o blow.gif --quiet 2>blow.err; c=\$?; cat blow.err; [ \$c = 70 ] && [ ! -e blow.gif ] &&
    [ \$(wc -l < blow.err) = 1 ] && cmp blow.err v.err &&
    grep -Eq '^[^ ]*push-blows-up.yaml:6:10: layers\[0\]\.id: simulation blew up at t = 0\.50[0-9]* s: item .ball. has a non-finite' blow.err"
check "an unsolvable pin exits 65 at its behavior; validate refuses it alike" bash -c "
    '$kinetic' validate '$hostile/attachment-unsolvable.yaml' 2>v.err; [ \$? = 65 ] || exit 1
    '$kinetic' render '$hostile/attachment-unsolvable.yaml' -o pin.gif --quiet 2>pin.err; c=\$?; cat pin.err; [ \$c = 65 ] && [ ! -e pin.gif ] &&
    cmp pin.err v.err &&
    grep -q '^[^ ]*attachment-unsolvable.yaml:10:7: dynamics.behaviors\[1\]: an attach point this far from so small an item cannot be solved' pin.err"
