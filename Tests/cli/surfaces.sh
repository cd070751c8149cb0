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
    for i in \$(seq 240); do sleep 0.5; ls -A sig 2>/dev/null | grep -q tmp && break; done
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

# --- Text, messages, validate, help --------------------------------------------------------
text_scene() {  # text_scene FILE STRING-EXPR (Python) — a text layer whose string is STRING-EXPR
    python3 -c "
import json, sys
s = $2
print(json.dumps({'kinetic': 1, 'scene': {'size': [100, 100], 'fps': 10, 'duration': 0.2},
                  'layers': [{'type': 'text', 'string': s, 'bounds': [90, 40], 'position': [50, 50]}]}))" > "$1"
}
check "a text string with 31 combining marks in a row is refused at the key (stream-safe limit 30)" bash -c "
    $(declare -f text_scene); text_scene marks.json \"'a' + '\\\\u0301' * 31\"
    text_scene marks30.json \"'a' + '\\\\u0301' * 30\"
    '$kinetic' validate marks30.json || exit 1
    timeout 20 '$kinetic' validate marks.json 2>m.err; c=\$?; cat m.err
    [ \$c = 65 ] && grep -q 'marks.json:[0-9]*:[0-9]*: layers\[0\].string: more than 30 combining marks in a row' m.err"
check "a text string over 100000 characters is refused at the key, at once" bash -c "
    $(declare -f text_scene); text_scene long.json \"'x' * 100001\"
    timeout 20 '$kinetic' validate long.json 2>l.err; c=\$?; head -c 300 l.err
    [ \$c = 65 ] && grep -q 'layers\[0\].string: a string of more than 100000 characters' l.err"
check "echoed text is escaped and shortened: a newline or U+2028 never starts a line of its own" bash -c "
    printf 'kinetic: 1\nscene: {size: [10, 10], fps: 10, duration: 1}\nlayers:\n  - {\"opa\\\\ncity\\\\u2028x.yaml:1:1: forged\": 1}\n' > esc.yaml
    '$kinetic' validate esc.yaml 2>e.err; c=\$?; cat e.err
    [ \$c = 65 ] && [ \$(wc -l < e.err) = 1 ] && grep -q 'opa\\\\ncity\\\\u{2028}x.yaml' e.err"
check "a multi-megabyte unknown value costs milliseconds and is echoed shortened" bash -c "
    python3 -c \"print('kinetic: 1\nscene: {size: [10, 10], fps: 10, duration: 1}\nlayers:\n  - {type: \\\"' + 'q' * 4000000 + '\\\"}')\" > bigkey.yaml
    s=\$(date +%s%N); timeout 30 '$kinetic' validate bigkey.yaml 2>k.err; c=\$?; e=\$(( (\$(date +%s%N) - s) / 1000000 ))
    echo \"\$e ms, \$(wc -c < k.err) bytes\"; [ \$c = 65 ] && [ \$(wc -c < k.err) -lt 2000 ] && grep -q 'qqq…' k.err"
check "validate refuses, at scene.size, a canvas render would refuse" bash -c "
    printf 'kinetic: 1\nscene: {size: [5000, 5000], scale: 2, fps: 10, duration: 0.2}\nlayers:\n  - {bounds: [5, 5]}\n' > canvas.yaml
    '$kinetic' validate canvas.yaml 2>v.err; v=\$?; '$kinetic' render canvas.yaml -o canvas.gif --quiet 2>/dev/null; r=\$?; cat v.err
    [ \$v = 65 ] && [ \$r = 64 ] && grep -q '^canvas.yaml:2:15: scene.size: the canvas would be 100000000 px' v.err &&
    '$kinetic' validate canvas.yaml --max-canvas-pixels 100000000"
check "render --discard -o x.gif is a usage error, and writes nothing" bash -c "
    '$kinetic' render '$square' --discard -o discard.gif 2>d.err; c=\$?; cat d.err
    [ \$c = 64 ] && [ ! -e discard.gif ] && grep -q 'discard writes nothing' d.err"
check "--help is wrapped once: a paragraph is one line at a wide terminal" bash -c "
    COLUMNS=300 '$kinetic' encode --help | grep -q 'FRAMES is what .* several shards, or a pattern .* an error naming it.' &&
    COLUMNS=300 '$kinetic' render --help | grep -q 'Files appear only when complete: each is written under a temporary name'"

# --- JSON scenes and shards' frames ----------------------------------------------------
check "a JSON scene's surrogate pairs are read as the character they spell" bash -c "
    printf '{\"kinetic\": 1, \"scene\": {\"size\": [60, 40], \"fps\": 10, \"duration\": 0.1},\n \"layers\": [{\"id\": \"t\", \"type\": \"text\", \"string\": \"a\\\\ud83d\\\\ude00b\", \"bounds\": [50, 30], \"position\": [30, 20]}]}\n' > emoji.json
    '$kinetic' validate emoji.json && '$kinetic' inspect emoji.json --frame 0 | grep -q '\"string\" *: *\"a😀b\"'"
check "what JSON forbids is a located error in a .json file: a trailing comma, a comment, a lone surrogate" bash -c "
    printf '{\"kinetic\": 1,\n \"scene\": {\"size\": [10, 10], \"fps\": 10, \"duration\": 1,},\n \"layers\": []}\n' > comma.json
    printf '{\"kinetic\": 1, # note\n \"layers\": []}\n' > comment.json
    printf '{\"kinetic\": 1, \"x\": \"\\\\udc00\"}\n' > lone.json
    '$kinetic' validate comma.json 2>c.err; [ \$? = 65 ] && grep -q '^comma.json:2:55: JSON syntax error: a trailing comma' c.err || { cat c.err; exit 1; }
    '$kinetic' validate comment.json 2>c.err; [ \$? = 65 ] && grep -q '^comment.json:1:16: JSON syntax error: a comment' c.err || { cat c.err; exit 1; }
    '$kinetic' validate lone.json 2>c.err; [ \$? = 65 ] && grep -q '^lone.json:1:22: JSON syntax error: a lone surrogate' c.err || { cat c.err; exit 1; }"
check "shards' frames carry their scene: encode needs no --fps, gives render's bytes, and refuses another scene's frames" bash -c "
    '$kinetic' render '$square' -o shards/ --frames 0-9 --quiet && '$kinetic' render '$square' -o shards/ --frames 10-24 --quiet &&
    '$kinetic' render '$square' -o whole.gif --quiet && '$kinetic' encode shards -o joined.gif --quiet && cmp whole.gif joined.gif || exit 1
    sed 's/#F2F2F7/#FFFFFF/' '$square' > other.yaml && '$kinetic' render other.yaml -o shards/ --frames 10-12 --quiet
    '$kinetic' encode shards -o mixed.mp4 2>m.err; c=\$?; cat m.err
    [ \$c = 65 ] && grep -q 'shards/frame-0010.png: it comes from another scene' m.err && [ ! -e mixed.mp4 ]"
check "frames without their scene's rate need --fps (64)" bash -c "
    mkdir plain && '$kinetic' render '$square' -o plain/frame-0000.png --frame 0 --quiet && convert plain/frame-0000.png plain/frame-0001.png
    '$kinetic' encode plain -o p.gif 2>p.err; [ \$? = 64 ] && grep -q 'give --fps' p.err"
