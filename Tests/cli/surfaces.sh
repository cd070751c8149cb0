# Every surface as hard as the scene loader (issue 37): sourced by run.sh after
# hostile.sh, with its `check`, `refuses`, `bounded`, `$kinetic`, `$scenes` and `$tmp`.
# Each case is a defence docs/limits.md lists; each failed on the main before it.
square=$scenes/moving-square.yaml

# --- One guarded reader ----------------------------------------------------------------
check "a FIFO named as the scene is refused at once, not waited on" \
    refuses 66 'fifo.yaml: is a FIFO, not a regular file' bash -c "mkfifo fifo.yaml; exec timeout 10 '$kinetic' validate fifo.yaml"
check "a scene file far larger than any scene is refused with its size and the limit, before it is read" \
    refuses 66 'big-scene.yaml: is 33554432 bytes, over the limit of 16777216 bytes a scene file may have' \
    bash -c "truncate -s 32M big-scene.yaml; exec '$kinetic' validate big-scene.yaml"
check "--max-memory raises the scene file limit with the budget" bash -c "
    truncate -s 32M big2.yaml; '$kinetic' validate big2.yaml --max-memory 16G 2>b.err; c=\$?; cat b.err
    [ \$c = 65 ] && ! grep -q 'over the limit' b.err"
check "a 141-byte PNG frame that claims a 2 GB chunk costs nothing: encode refuses it" bash -c "
    mkdir claim && python3 -c '
import struct, zlib
def chunk(t, d, n=None): return struct.pack(\">I\", len(d) if n is None else n) + t + d + struct.pack(\">I\", zlib.crc32(t + d))
png = b\"\\x89PNG\\r\\n\\x1a\\n\" + chunk(b\"IHDR\", struct.pack(\">IIBBBBB\", 2, 2, 8, 6, 0, 0, 0)) + chunk(b\"IDAT\", b\"x\" * 60, 2000000000) + chunk(b\"IEND\", b\"\")
open(\"claim/frame-0000.png\", \"wb\").write(png)'
    ( ulimit -v 1000000; exec timeout 20 '$kinetic' encode claim -o c.gif --fps 10 ) 2>c.err; c=\$?; cat c.err
    [ \$c = 65 ] && grep -q 'IDAT chunk claims 2000000000 bytes, past the file' c.err && [ ! -e c.gif ]"
check "frames 0 and 999999999 are a gap, found without building the range" bash -c "
    mkdir gapped && '$kinetic' render '$square' -o gapped/frame-0000.png --frame 0 --quiet &&
    cp gapped/frame-0000.png gapped/frame-999999999.png
    ( ulimit -v 1000000; exec timeout 20 '$kinetic' encode 'gapped/frame-%04d.png' -o g.gif --fps 10 ) 2>g.err; c=\$?; cat g.err
    [ \$c = 65 ] && grep -q 'frame-0001.png is missing: frames 0-999999999' g.err"
check "a FIFO among encode's frames is refused, not waited on" bash -c "
    mkdir ff && '$kinetic' render '$square' -o ff/frame-0000.png --frame 0 --quiet && mkfifo ff/frame-0001.png
    timeout 20 '$kinetic' encode ff -o f.gif --fps 10 2>f.err; c=\$?; cat f.err
    [ \$c = 65 ] && grep -q 'frame-0001.png: is a FIFO, not a regular file' f.err"

# --- One writer: only a regular file (or nothing) is replaced --------------------------
check "a FIFO as the output is refused (73), never replaced" bash -c "
    mkfifo out.gif; '$kinetic' render '$square' -o out.gif --quiet 2>o.err; c=\$?; cat o.err
    [ \$c = 73 ] && [ -p out.gif ] && grep -q 'is a FIFO; kinetic replaces only regular files' o.err"
check "a device as the output is refused (73), never replaced (as root, rename would replace the node)" bash -c "
    [ \$(id -u) = 0 ] || { echo 'not root: mknod unavailable, skipped'; exit 0; }
    mknod dev.png c 1 3; '$kinetic' render '$square' -o dev.png --frame 0 --quiet 2>d.err; c=\$?; cat d.err
    [ \$c = 73 ] && [ -c dev.png ] && grep -q 'is a character device; kinetic replaces only regular files' d.err"

# --- golden ------------------------------------------------------------------------------
golden_project() {  # a project with one scene and its blessed goldens in $1
    mkdir -p "$1/scenes" && cp "$square" "$1/scenes/sq.yaml" && ( cd "$1" && "$kinetic" golden update >/dev/null )
}
check "a state.jsonl with hostile numbers is a located mismatch, never a trap" bash -c "
    $(declare -f golden_project); kinetic='$kinetic'; square='$square'; golden_project gp1 && cd gp1 || exit 1
    python3 - <<'PY'
lines = open('golden/sq/state.jsonl').read().split('\n')
lines[1] = lines[1].rsplit(',[', 1)[0] + ',[9223372036854775807,9223372036854775807,1e300,[1,9223372036854775807]]]'
open('golden/sq/state.jsonl', 'w').write('\n'.join(lines))
PY
    timeout 60 '$kinetic' golden check >c.out 2>c.err; c=\$?; cat c.out c.err
    [ \$c = 1 ] && grep -q 'golden/sq/state.jsonl:2: ' c.out && ! grep -qE 'Fatal|crashed|overflow' c.err"
check "golden update re-blesses over a corrupt golden" bash -c "
    $(declare -f golden_project); kinetic='$kinetic'; square='$square'; golden_project gp2 && cd gp2 || exit 1
    printf 'garbage' > golden/sq/state.jsonl; f=\$(ls golden/sq/frame-*.png | head -1); printf 'xx' > \$f
    '$kinetic' golden update >u.out 2>u.err && '$kinetic' golden check >/dev/null"
check "a golden folder linking out of golden/ is refused for check and update (65), unless --allow-any-path" bash -c "
    $(declare -f golden_project); kinetic='$kinetic'; square='$square'; golden_project gp3 && cd gp3 || exit 1
    mv golden/sq ../outside-sq && ln -s \"\$PWD/../outside-sq\" golden/sq
    '$kinetic' golden check 2>c.err >/dev/null; c=\$?; cat c.err
    [ \$c = 65 ] && grep -q 'golden/sq: resolves to .*outside-sq, outside .*golden' c.err || exit 1
    '$kinetic' golden update 2>u.err >/dev/null; [ \$? = 65 ] || exit 1
    '$kinetic' golden check --allow-any-path >/dev/null"
check "an unwritable report outranks a mismatch: exit 73, naming the file" bash -c "
    $(declare -f golden_project); kinetic='$kinetic'; square='$square'; golden_project gp4 && cd gp4 || exit 1
    f=\$(ls golden/sq/frame-*.png | tail -1); convert \$f -fill red -draw 'rectangle 0,0 40,40' \$f
    mkfifo report.xml
    '$kinetic' golden check --junit report.xml >c.out 2>c.err; c=\$?; cat c.err
    [ \$c = 73 ] && grep -q 'report.xml' c.err && grep -q 'FAIL' c.out"

# --- batch ---------------------------------------------------------------------------------
# A long scene: 600 s at scale 8, so its GIF is still being written when the signal comes.
long_scene() { sed -E 's/duration: [0-9.]+/duration: 600/; s/scale: [0-9.]+/scale: 8/' "$square" > "$1"; }
check "SIGTERM to a batch reaches the scene's child: it cleans up, the batch exits 143, nothing is left" bash -c "
    $(declare -f long_scene); square='$square'; long_scene long.yaml; grep -q 'duration: 600' long.yaml || exit 1
    '$kinetic' batch long.yaml -o sig --quiet 2>s.err & pid=\$!
    for i in \$(seq 80); do sleep 0.5; ls -A sig 2>/dev/null | grep -q tmp && break; done
    ls -A sig | grep -q tmp || { echo 'no temporary file while rendering'; exit 1; }
    child=\$(pgrep -P \$pid); [ -n \"\$child\" ] || { echo 'no child process'; exit 1; }
    kill -TERM \$pid; wait \$pid; c=\$?; sleep 0.3; cat s.err
    [ \$c = 143 ] && [ -z \"\$(ls -A sig)\" ] && ! kill -0 \$child 2>/dev/null"
check "batch --timeout stops a scene, its row says timed out, the others render (exit 75)" bash -c "
    $(declare -f long_scene); square='$square'; long_scene long2.yaml
    timeout 60 '$kinetic' batch long2.yaml '$square' -o to --timeout 1 2>t.err; c=\$?; cat t.err
    [ \$c = 75 ] && grep -q 'long2.yaml .*timed out after 1 s' t.err && [ -s to/moving-square.gif ] && [ -z \"\$(ls -A to | grep tmp)\" ]"
check "an output folder batch cannot create exits 73 with the system's reason" bash -c "
    touch afile; '$kinetic' batch '$square' -o afile/out 2>a.err; c=\$?; cat a.err
    [ \$c = 73 ] && grep -q 'afile/out: cannot create the output folder: Not a directory' a.err"
check "encode --fps 1e-300 is a usage error for every format, no crash, no temporary file" bash -c "
    mkdir efr && '$kinetic' render '$square' -o efr/ --quiet || exit 1
    for ext in gif webp apng mp4 webm; do
        '$kinetic' encode efr -o e.\$ext --fps 1e-300 2>enc.err; c=\$?
        [ \$c = 64 ] || { echo \"\$ext: exit \$c\"; cat enc.err; exit 1; }
    done
    '$kinetic' encode efr -o e.mp4 --fps 1e300 2>enc.err; [ \$? = 64 ] && [ -z \"\$(ls -A | grep '^\\.e\\.')\" ] && [ -z \"\$(ls | grep '^e\\.')\" ]"
