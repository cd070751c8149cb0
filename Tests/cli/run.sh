#!/usr/bin/env bash
# End-to-end checks of the kinetic command as a user runs it: exit codes, stdout
# cleanliness, outputs decoded by independent tools (ffprobe/ffmpeg), determinism and
# atomic outputs. Prints "N passed, N failed" last; exits non-zero on any failure.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
kinetic=${KINETIC:-$root/.build/release/kinetic}
case "$kinetic" in /*) ;; *) kinetic="$root/$kinetic" ;; esac
scenes=$here/scenes
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0

check() { # check NAME COMMAND… — passes when the command succeeds
    local name=$1; shift
    if "$@" >"$tmp/check.out" 2>&1; then passed=$((passed + 1)); echo "ok   $name"
    else failed=$((failed + 1)); echo "FAIL $name"; sed 's/^/     /' "$tmp/check.out" | head -20; fi
}

status_is() { # status_is EXPECTED COMMAND…
    local want=$1; shift
    "$@" >"$tmp/stdout" 2>"$tmp/stderr"; local got=$?
    [ "$got" = "$want" ] || { echo "exit $got, wanted $want"; cat "$tmp/stderr"; return 1; }
}

gif_frames() { ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1"; }

cd "$tmp"

check "help shows examples" bash -c "'$kinetic' render --help | grep -q 'Examples:'"
check "usage error exits 64" status_is 64 "$kinetic" render "$scenes/moving-square.yaml"
check "missing scene exits 66" status_is 66 "$kinetic" validate "$tmp/nope.yaml"
check "valid scene validates" status_is 0 "$kinetic" validate "$scenes/moving-square.yaml"
check "invalid scene exits 65" status_is 65 "$kinetic" validate "$scenes/broken.yaml"
check "every problem is located" bash -c "
    '$kinetic' validate '$scenes/broken.yaml' 2>&1 >/dev/null | tee /dev/stderr > errs.txt
    [ \$(wc -l < errs.txt) = 3 ] &&
    grep -q 'broken.yaml:5:5: layers\[0\].opacty: unknown key .opacty. (did you mean .opacity.?)' errs.txt &&
    grep -q 'broken.yaml:7:22: layers\[1\].backgroundColor: ' errs.txt &&
    grep -q 'broken.yaml:9:13: animations\[0\].layer: unknown layer id .c.' errs.txt"

check "gif renders with a clean stdout" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o a.gif > out.txt 2> err.txt && [ ! -s out.txt ] && [ -s a.gif ]"
check "ffprobe decodes every gif frame" bash -c "[ \"\$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 a.gif)\" = 25 ]"
check "gif delays add up to the duration" bash -c "
    d=\$(ffprobe -v error -show_entries format=duration -of csv=p=0 a.gif); python3 -c \"import sys; sys.exit(abs(float('\$d') - 0.5) > 1e-6)\""
check "gif loops forever" bash -c "grep -q NETSCAPE2.0 a.gif"
check "same scene gives identical bytes" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o b.gif --quiet --jobs 1 && cmp a.gif b.gif"
check "png frames to a folder" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o frames/ --quiet && [ \$(ls frames | wc -l) = 25 ] && [ -f frames/frame-0024.png ]"
check "png frames by pattern and range" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o 'shot-%03d.png' --frames 5-9 --quiet && ls shot-005.png shot-009.png && [ \$(ls shot-*.png | wc -l) = 5 ]"
check "gif frames match the png frames (PSNR > 30 dB)" bash -c "
    ffmpeg -v error -i a.gif -framerate 50 -i frames/frame-%04d.png -lavfi psnr=stats_file=psnr.log -f null - &&
    python3 -c \"
import re,sys
vals=[float(m) for m in re.findall(r'psnr_avg:([0-9.]+|inf)', open('psnr.log').read().replace('inf','999'))]
print(min(vals)); sys.exit(not (len(vals)==25 and min(vals)>30))\""
check "still png, svg and pdf" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o s.png --time 0.2 --quiet &&
    '$kinetic' render '$scenes/moving-square.yaml' -o s.svg --frame 10 --quiet &&
    '$kinetic' render '$scenes/moving-square.yaml' -o s.pdf --frame 10 --quiet &&
    head -c 8 s.png | grep -q PNG && grep -q '<svg' s.svg && head -c 5 s.pdf | grep -q '%PDF'"
check "lottie: .json exports the same bytes twice; a blur is refused at its key (65) unless approximated" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o a.json --quiet &&
    '$kinetic' render '$scenes/moving-square.yaml' -o b.json --quiet && cmp a.json b.json &&
    python3 -c \"import json; d=json.load(open('a.json')); assert d['op'] > 1 and d['fr'] > 0 and d['layers'], d\" &&
    printf 'kinetic: 1\\nscene: {size: [40, 40], duration: 0.2}\\nlayers:\\n  - {frame: [0, 0, 20, 20], backgroundColor: red,\\n     filters: [{gaussianBlur: 2}]}\\n' > blur.yaml &&
    '$kinetic' validate blur.yaml --quiet >/dev/null 2>&1;
    '$kinetic' render blur.yaml -o c.json --quiet 2> refused.txt; [ \$? = 65 ] && [ ! -e c.json ] &&
    grep -q '^blur.yaml:[0-9]*:[0-9]*: layers\\[0\\].filters: ' refused.txt &&
    '$kinetic' render blur.yaml -o c.json --lottie-approximate --quiet 2> dropped.txt && [ -s c.json ] &&
    grep -q 'warning: blur.yaml:[0-9]*:[0-9]*: layers\\[0\\].filters: .*dropped' dropped.txt"
check "lottie: .lottie is a deterministic dotLottie ZIP holding the .json export byte for byte; refused like .json" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o a.lottie --quiet &&
    mkdir again && sleep 1 && TZ=Asia/Tokyo '$kinetic' render '$scenes/moving-square.yaml' -o again/a.lottie --quiet &&
    cmp a.lottie again/a.lottie && python3 -c \"
import json, zipfile
z = zipfile.ZipFile('a.lottie')
assert z.testzip() is None
assert z.namelist() == ['manifest.json', 'animations/a.json'], z.namelist()
assert all(i.compress_type == zipfile.ZIP_DEFLATED and i.date_time == (1980, 1, 1, 0, 0, 0) for i in z.infolist())
m = json.loads(z.read('manifest.json'))
assert m['version'] == '1.0' and [a['id'] for a in m['animations']] == ['a'], m
assert z.read('animations/a.json') == open('a.json', 'rb').read()
\" &&
    '$kinetic' render blur.yaml -o c.lottie --quiet 2> refused.txt; [ \$? = 65 ] && [ ! -e c.lottie ] &&
    grep -q '^blur.yaml:[0-9]*:[0-9]*: layers\\[0\\].filters: ' refused.txt &&
    '$kinetic' render blur.yaml -o c.lottie --lottie-approximate --quiet 2> dropped.txt &&
    python3 -c \"import zipfile; assert zipfile.ZipFile('c.lottie').testzip() is None\""
check "unwritable output exits 73 and leaves nothing" bash -c "
    mkdir ro && chmod 500 ro && if [ \$(id -u) = 0 ]; then touch blocker; out=blocker/x.gif; else out=ro/x.gif; fi
    '$kinetic' render '$scenes/moving-square.yaml' -o \$out --quiet; [ \$? = 73 ] && [ -z \"\$(ls -A ro)\" ]"
check "no temporary files are left behind" bash -c "[ -z \"\$(ls -A | grep -E '^\.|tmp' )\" ]"
check "inspect prints the presentation state" bash -c "
    '$kinetic' inspect '$scenes/moving-square.yaml' --frame 10 > i.json && python3 -c \"
import json,sys
d=json.load(open('i.json'))
sq=d['layers']['square']
ok = d['frame']==10 and abs(d['time']-0.2)<1e-9 and abs(sq['position'][0]-40)<1e-9 \
     and sq['corners'][0]==[30,30] and sq['backgroundColor']=='#FF3B30FF' and d['layers']['ring']['strokeEnd']==0.4
sys.exit(not ok)\""
check "inspect lists masks, multiplied colors, corners behind the eye" bash -c "
    '$kinetic' inspect '$scenes/inspect-cases.yaml' --time 0.5 > m.json && python3 -c \"
import json,sys
L=json.load(open('m.json'))['layers']
ok = L['view']['mask']=='revealMask' and L['revealMask']['type']=='shape' \\
     and L['revealMask']['path'].startswith('M 80 50 ') \\
     and L['cell#1#1']['colorMultiplier']=='#99FF99FF' and L['cell#1#0']['colorMultiplier']=='#FFFF99FF' \\
     and L['wall']['corners'][0] is None and L['wall']['corners'][3] is None and L['wall']['corners'][1] is not None
sys.exit(not ok)\""
check "--time past the end exits 64 like --frame, naming the end" bash -c "
    exits64() { '$kinetic' \"\$@\" >/dev/null 2>err.txt; local c=\$?; [ \$c = 64 ] || { echo \"exit \$c: \$*\"; return 1; }; }
    exits64 inspect '$scenes/inspect-cases.yaml' --time 5 && grep -q 'past the scene.s end (2 s; the last frame is 39)' err.txt &&
    exits64 render '$scenes/inspect-cases.yaml' -o late.png --time 2.5 --quiet && grep -q 'past the scene.s end (2 s;' err.txt &&
    [ ! -e late.png ] &&
    exits64 inspect '$scenes/inspect-cases.yaml' --frame 40 && grep -q 'past the last frame (39)' err.txt &&
    '$kinetic' inspect '$scenes/inspect-cases.yaml' --time 2 | python3 -c 'import json,sys; sys.exit(json.load(sys.stdin)[\"frame\"] != 39)'"
check "fps above 50 resamples gifs with a warning" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o c.gif --quiet 2>w.txt --duration 0.5 && true
    '$kinetic' render '$scenes/moving-square.yaml' -o d.gif --fps 100 2>w.txt >/dev/null; grep -q 'clamp' w.txt"

check "ctrl-c leaves neither the output nor a temporary file" bash -c "
    mkdir int; '$kinetic' render '$scenes/moving-square.yaml' -o int/long.gif --duration 600 --scale 8 --quiet & pid=\$!
    # The GIF's file opens once its palette is built from 16 sample frames (about 1.5 s here).
    for i in \$(seq 40); do sleep 0.5; [ -n \"\$(ls -A int)\" ] && break; done
    [ -n \"\$(ls -A int)\" ] || { echo 'no temporary file while rendering'; exit 1; }
    kill -INT \$pid; wait \$pid; code=\$?
    [ \$code = 130 ] && [ -z \"\$(ls -A int)\" ]"

# Golden timelines (docs/golden.md): a project of the user's own, copied to a temporary
# folder, blessed, then changed one timing at a time.
check "golden update writes spread frames and a state file" bash -c "
    cp -R '$here/golden-project' gp && cd gp && '$kinetic' golden update --jobs 1 >/dev/null &&
    [ \"\$(ls golden/timing | tr '\n' ' ')\" = 'frame-0000.png frame-0002.png frame-0004.png frame-0008.png frame-0011.png frame-0014.png frame-0015.png frame-0019.png state.jsonl ' ] &&
    head -1 golden/timing/state.jsonl | grep -q '\"format\":\"kinetic-state\"'"
for jobs in 1 2; do
    check "golden check passes on the unchanged scene (--jobs $jobs)" bash -c "cd gp && '$kinetic' golden check --jobs $jobs > out.txt && grep -q 'timing state  ok' out.txt"
    # Each change: the sed edit, then the key and frame where the state must part first.
    while IFS='|' read -r what edit key frame; do
        check "golden check catches $what (--jobs $jobs)" bash -c "
            cd gp && cp scenes/timing.yaml timing.orig && sed -i '$edit' scenes/timing.yaml && ! cmp -s scenes/timing.yaml timing.orig &&
            '$kinetic' golden check --jobs $jobs > out.txt; code=\$?; cp timing.orig scenes/timing.yaml; cat out.txt
            [ \$code = 1 ] && grep -E '^timing state  FAIL  $key at frame $frame \([0-9.]+ s\): golden -?[0-9.]+, actual -?[0-9.]+' out.txt"
    done <<'CHANGES'
the easing (easeInEaseOut to linear)|s/timingFunction: easeInEaseOut/timingFunction: linear/|btn\.position\.x|3
a spring's damping by 1 %|s/damping: 10}/damping: 10.1}/|bouncer\.position\.x|1
an animation's begin by one frame|s/begin: 0.1,/begin: 0.15,/|btn\.position\.x|3
an emitter's birth rate by 1 %|s/birthRate: 300/birthRate: 303/|sparks\.cells\.spark\.alive|7
a gravity magnitude by 1 %|s/magnitude: 0.1}/magnitude: 0.101}/|ball\.position\.y|3
CHANGES
done
check "golden update says where the new state parts from the old" bash -c "
    cd gp && cp scenes/timing.yaml timing.orig && sed -i 's/begin: 0.1,/begin: 0.15,/' scenes/timing.yaml &&
    '$kinetic' golden update > out.txt; cp timing.orig scenes/timing.yaml; cat out.txt
    grep -q '^timing state  changed: btn.position.x at frame 3 (0.15 s): golden 21.088, actual 20' out.txt &&
    grep -q '^timing frame-0002.png  stale' out.txt && grep -q '^timing frame 0003  new' out.txt &&
    '$kinetic' golden update > out.txt && grep -q '^timing state  changed: btn.position.x at frame 3 (0.15 s): golden 20, actual 21.088' out.txt &&
    rm golden/timing/frame-0003.png && '$kinetic' golden check > /dev/null"
check "golden check --junit and --html report frames and state" bash -c "
    cd gp && cp scenes/timing.yaml timing.orig && sed -i 's/timingFunction: easeInEaseOut/timingFunction: linear/' scenes/timing.yaml &&
    '$kinetic' golden check --jobs 2 --junit report/golden.xml --html report/html > out.txt; code=\$?; cp timing.orig scenes/timing.yaml
    [ \$code = 1 ] && python3 - <<'PY'
import os, re, sys, xml.etree.ElementTree as ET
root = ET.parse('report/golden.xml').getroot()
cases = root.findall('./testsuite/testcase')
names = [c.get('name') for c in cases]
failed = {c.get('name'): c.find('failure').get('message') for c in cases if c.find('failure') is not None}
assert root.tag == 'testsuites' and root.find('testsuite').get('name') == 'timing', root.tag
assert names == ['frame 0000', 'frame 0002', 'frame 0004', 'frame 0008', 'frame 0011', 'frame 0014', 'frame 0015', 'frame 0019', 'state'], names
assert int(root.get('tests')) == 9 and int(root.get('failures')) == len(failed) >= 2, (root.attrib, failed)
assert re.match(r'btn\.position\.x at frame 3 \(0\.15 s\): golden 21\.088, actual 26\.667', failed['state']), failed['state']
frames = [m for n, m in failed.items() if n != 'state']
assert frames and all(re.search(r'differing [0-9.]+ %  max Δ [0-9]+  SSIM [0-9.]+', m) for m in frames), frames
page = open('report/html/index.html').read()
srcs = re.findall(r'src=\"([^\"]+)\"', page)
assert srcs and all(os.path.isfile(os.path.join('report/html', s)) for s in srcs), srcs
assert any(s.endswith('-expected.png') for s in srcs) and any(s.endswith('-diff.png') for s in srcs)
assert 'type=\"range\"' in page and 'btn.position.x at frame 3' in page and 'http' not in page.replace('http-equiv', '')
PY"
check "golden check --junit lists a scene that cannot be checked as an error" bash -c "
    cd gp && '$kinetic' golden check scenes/timing.yaml '$scenes/broken.yaml' --junit broken.xml > out.txt 2> err.txt; code=\$?
    [ \$code = 65 ] && grep -q 'broken.yaml:5:5' err.txt && python3 - <<'PY'
import xml.etree.ElementTree as ET
root = ET.parse('broken.xml').getroot()
suites = {s.get('name'): s for s in root.findall('testsuite')}
assert root.get('errors') == '1' and root.get('failures') == '0', root.attrib
assert len(suites['timing'].findall('testcase')) == 9
error = suites['broken'].find('testcase/error')
assert error is not None and 'could not be checked (exit 65' in error.get('message'), ET.tostring(suites['broken'])
PY"
check "golden check --record-missing records, says so, never overwrites" bash -c "
    cd gp && rm golden/timing/frame-0004.png golden/timing/state.jsonl && cp golden/timing/frame-0002.png golden/timing/frame-0000.png &&
    cp golden/timing/frame-0000.png before.png
    '$kinetic' golden check --record-missing > out.txt; code=\$?; cat out.txt
    [ \$code = 1 ] && cmp golden/timing/frame-0000.png before.png && [ -f golden/timing/frame-0004.png ] && [ -f golden/timing/state.jsonl ] &&
    grep -q '^timing frame 0004  recorded  no golden yet: recorded golden/timing/frame-0004.png' out.txt &&
    grep -q '^timing state  recorded' out.txt && grep -q '^timing frame 0000  FAIL' out.txt &&
    '$kinetic' golden update >/dev/null && '$kinetic' golden check >/dev/null"
# The canvas limit applies to what is drawn: 4096×4096 pt @3x is 151 Mpx (over 64), at
# --scale 1 16.8 Mpx; inspect draws nothing.
printf 'kinetic: 1\nscene: {size: [4096, 4096], scale: 3, duration: 0.1, fps: 10}\nlayers: [{id: a, frame: [0, 0, 10, 10], backgroundColor: red}]\n' > big.yaml
check "canvas limit: inspect of a @3x 4096 pt scene draws nothing, so passes" status_is 0 "$kinetic" inspect big.yaml --frame 0
check "canvas limit: over it at the scene's scale exits 64 and names --scale" bash -c "
    '$kinetic' render big.yaml -o big.png --frame 0 2> err.txt; [ \$? = 64 ] && grep -q 'big.yaml: the canvas would be 150994944 px (4096×4096 pt at scale 3).*--scale' err.txt && [ ! -e big.png ]"
check "canvas limit: --scale 1 brings it under" bash -c "
    '$kinetic' render big.yaml -o big.png --frame 0 --scale 1 --quiet && [ \"\$(ffprobe -v error -show_entries stream=width,height -of csv=p=0 big.png)\" = 4096,4096 ]"
check "--appearance dark resolves semantic colors" bash -c "
    '$kinetic' inspect '$scenes/appearance-font.yaml' --frame 0 | grep -q '#F2F2F7FF' &&
    '$kinetic' inspect '$scenes/appearance-font.yaml' --frame 0 --appearance dark | grep -q '#1C1C1EFF'"
check "a font that falls back is named on stderr" bash -c "
    '$kinetic' render '$scenes/appearance-font.yaml' --frame 0 -o font.png --quiet 2>f.txt &&
    grep -q \"font 'Menlo' (family 'Menlo') is not available; text is drawn in 'DejaVu Sans'\" f.txt"
# --- SVG in (issue 40): a path from an SVG file and SVG contents, at --scale 3 ---
check "SVG paths and SVG contents render at scale 3 where their geometry is" bash -c "
    '$kinetic' render '$scenes/svg-in/scene.yaml' -o svg.png --frame 9 --scale 3 --quiet && /usr/bin/python3 -c \"
from PIL import Image
im = Image.open('svg.png').convert('RGBA')
assert im.size == (480, 360), im.size
# The groove starts at (4, 8) of the file: (24, 18) pt on the canvas, 3 px a point.
assert im.getpixel((75, 54))[:3] == (0, 122, 255), im.getpixel((75, 54))
assert im.getpixel((75, 45))[:3] == (255, 255, 255)
# The badge (vector contents) is blue at its centre and white where its circle ends.
r, g, b, a = im.getpixel((240, 300)); assert b > 200 and r < 120, (r, g, b)
assert im.getpixel((240, 252))[:3] == (255, 255, 255), im.getpixel((240, 252))
\""
check "a malformed SVG is reported with libxml2's message and its own line" bash -c "
    mkdir -p svgbad && printf '<svg xmlns=\"http://www.w3.org/2000/svg\">\\n<path d=\"M0 0\">\\n</svg>\\n' > svgbad/bad.svg &&
    printf 'kinetic: 1\\nscene: {size: [10, 10], duration: 1}\\nlayers:\\n  - {type: shape, path: {svg: bad.svg}}\\n' > svgbad/s.yaml &&
    '$kinetic' validate svgbad/s.yaml 2>err.txt; [ \$? = 65 ] &&
    grep -q \"s.yaml:4:31: layers\\[0\\].path.svg: SVG file 'bad.svg', line 3, column 7: Opening and ending tag mismatch\" err.txt"
# --- Outputs: APNG, WebP, MP4, WebM, MOV (issue 19) ---
shadow=$scenes/soft-shadow.yaml   # 96×64, 5 frames at 10 fps, transparent background
check "unknown extension exits 64 naming the formats, writes nothing" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o anim.avi >/dev/null 2>err.txt; [ \$? = 64 ] &&
    grep -q '.gif, .apng, .webp, .mp4, .webm, .mov' err.txt && [ ! -e anim.avi ] && [ -z \"\$(ls -A | grep anim)\" ]"
check "every format renders, twice byte-identical (all cores, then --jobs 1)" bash -c "
    for f in s.apng s.webp s.mp4 s.webm s.mov; do
        '$kinetic' render '$shadow' -o \$f --quiet && '$kinetic' render '$shadow' -o r-\$f --quiet --jobs 1 &&
        cmp \$f r-\$f || exit 1
    done"
# FFmpeg's 93 shared objects cost every process 50 ms to load: only a video output loads them.
check "FFmpeg is loaded for a video, not for a GIF or validate" bash -c "
    LD_DEBUG=files '$kinetic' render '$shadow' -o ld.gif --quiet 2>ld-gif.txt &&
    LD_DEBUG=files '$kinetic' validate '$shadow' 2>ld-validate.txt &&
    LD_DEBUG=files '$kinetic' render '$shadow' -o ld.mp4 --quiet 2>ld-mp4.txt &&
    ! grep -q 'file=libavcodec' ld-gif.txt ld-validate.txt &&
    grep -q 'file=libavcodec.so.* dynamically loaded by' ld-mp4.txt && grep -q 'file=libswscale' ld-mp4.txt"
# So are libwebp, libzip and librsvg (with libcrypto, gdk-pixbuf and the rest: ~19 M
# instructions of every process's start-up): each for the output or contents that use it.
check "libwebp, libzip and librsvg are loaded for a WebP, a dotLottie and SVG contents alone" bash -c "
    LD_DEBUG=files '$kinetic' render '$shadow' -o ld.webp --quiet 2>ld-webp.txt &&
    LD_DEBUG=files '$kinetic' render '$shadow' -o ld.lottie --quiet 2>ld-lottie.txt &&
    LD_DEBUG=files '$kinetic' render '$scenes/svg-in/scene.yaml' -o ld-svg.png --frame 0 --quiet 2>ld-svg.txt &&
    ! grep -q 'file=libwebp\\|file=libzip\\|file=librsvg' ld-gif.txt ld-validate.txt &&
    grep -q 'file=libwebpmux.so.* dynamically loaded by' ld-webp.txt && ! grep -q 'file=libzip\\|file=librsvg' ld-webp.txt &&
    grep -q 'file=libzip.so.* dynamically loaded by' ld-lottie.txt && ! grep -q 'file=librsvg\\|file=libwebp' ld-lottie.txt &&
    grep -q 'file=librsvg-2.so.* dynamically loaded by' ld-svg.txt && ! grep -q 'file=libzip\\|file=libwebp' ld-svg.txt"
# librsvg's declarations in its shim (its header's include path would link it) are the header's.
if command -v clang >/dev/null && pkg-config --exists librsvg-2.0; then
    check "the librsvg declarations of Sources/CRsvg/shim.h match rsvg.h" bash -c "
        clang -fsyntax-only -DKINETIC_RSVG_CHECK \$(pkg-config --cflags librsvg-2.0) -x c '$root/Sources/CRsvg/shim.h'"
fi
# Without one of those libraries (hidden in a mount namespace: root only), what needs it
# fails with a clear error, its status, and leaves nothing; a GIF still renders.
missing_library() { # missing_library LIBRARY SCENE OUTPUT STATUS MESSAGE
    local libs; libs=$(ldconfig -p | awk -v name="$1" '$1 ~ "^" name "[.]so[.][0-9]+$" {print $NF}')
    [ -n "$libs" ] || { echo "$1 not found by ldconfig"; return 1; }
    rm -rf nolib; mkdir nolib
    unshare -m bash -c 'for lib in $4; do mount --bind /dev/null "$lib" || exit 1; done
        "$1" render "$2" -o "nolib/$3" --quiet 2>nolib-err.txt; echo $? > nolib-status.txt
        "$1" render "$5" -o nolib/g.gif --quiet; echo $? > nolib-gif.txt' _ "$kinetic" "$2" "$3" "$libs" "$shadow" || return 1
    cat nolib-err.txt
    [ "$(cat nolib-status.txt)" = "$4" ] && [ "$(cat nolib-gif.txt)" = 0 ] &&
        grep -q "$5" nolib-err.txt && [ "$(ls -A nolib)" = g.gif ]
}
if unshare -m true 2>/dev/null; then
    check "a missing FFmpeg library fails the video alone (exit 64, nothing left), not a GIF" \
        missing_library libswscale "$shadow" v.mp4 64 "cannot load FFmpeg.*libswscale"
    check "a missing libwebpmux fails the WebP alone (exit 64, nothing left), not a GIF" \
        missing_library libwebpmux "$shadow" v.webp 64 "cannot load libwebp.*libwebpmux"
    check "a missing libzip fails the dotLottie alone (exit 73, nothing left), not a GIF" \
        missing_library libzip "$shadow" v.lottie 73 "cannot load libzip.*libzip"
    check "a missing librsvg fails SVG contents alone (exit 65, nothing left), not a GIF" \
        missing_library librsvg-2 "$scenes/svg-in/scene.yaml" v.gif 65 "cannot load librsvg.*librsvg"
else
    echo "skip missing libraries (no mount namespace here: needs root)"
fi
check "video and APNG: ffprobe counts frames, size, 10 fps, 0.5 s" bash -c "
    for f in s.apng s.mp4 s.webm s.mov; do
        got=\$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames,width,height,r_frame_rate -of csv=p=0 \$f)
        [ \"\$got\" = '96,64,10/1,5' ] || { echo \"\$f: \$got\"; exit 1; }
        # every frame lasts 0.1 s, so the timestamps add up to the scene's 0.5 s
        d=\$(ffprobe -v error -select_streams v:0 -show_entries packet=duration_time -of csv=p=0 \$f | python3 -c 'import sys; print(sum(float(l.split(\",\")[0]) for l in sys.stdin if l.strip()))')
        python3 -c \"import sys; sys.exit(abs(\$d - 0.5) > 1e-6)\" || { echo \"\$f: durations add up to \$d\"; exit 1; }
    done
    for f in s.mp4 s.webm s.mov; do
        d=\$(ffprobe -v error -show_entries format=duration -of csv=p=0 \$f)
        python3 -c \"import sys; sys.exit(abs(\$d - 0.5) > 1e-6)\" || { echo \"\$f: duration \$d\"; exit 1; }
    done"
check "video is flagged BT.709, sRGB transfer, limited range" bash -c "
    for f in s.mp4 s.webm s.mov; do
        got=\$(ffprobe -v error -select_streams v:0 -show_entries stream=color_space,color_primaries,color_transfer,color_range -of csv=p=0 \$f)
        [ \"\$got\" = 'tv,bt709,iec61966-2-1,bt709' ] || { echo \"\$f: \$got\"; exit 1; }
    done"
check "pixel formats: H.264 yuv420p (yuv444p on request), VP9 and ProRes with alpha" bash -c "
    '$kinetic' render '$shadow' -o s444.mp4 --pix-fmt yuv444p --quiet &&
    [ \"\$(ffprobe -v error -show_entries stream=codec_name,pix_fmt -of csv=p=0 s.mp4)\" = h264,yuv420p ] &&
    [ \"\$(ffprobe -v error -show_entries stream=codec_name,pix_fmt -of csv=p=0 s444.mp4)\" = h264,yuv444p ] &&
    [ \"\$(ffprobe -v error -show_entries stream=codec_name,pix_fmt:stream_tags=alpha_mode -of csv=p=0 s.webm)\" = vp9,yuv420p,1 ] &&
    [ \"\$(ffprobe -v error -show_entries stream=codec_name,pix_fmt -of csv=p=0 s.mov)\" = prores,yuva444p12le ]"
check "WebP: webpmux sees 5 frames of 100 ms, lossless by default, lossy with --quality" bash -c "
    webpmux -info s.webp > info.txt && grep -q 'Canvas size: 96 x 64' info.txt && grep -q 'Number of frames: 5' info.txt &&
    [ \"\$(awk '/^ *[0-9]+:/ {s += \$7} END {print s}' info.txt)\" = 500 ] && grep -q lossless info.txt && ! grep -q lossy info.txt &&
    '$kinetic' render '$shadow' -o q.webp --quality 70 --quiet && webpmux -info q.webp | grep -q lossy"
check "APNG: Pillow's own reader (not FFmpeg's) sees 5 frames of 100 ms, looping, with the soft shadow" /usr/bin/python3 -c "
from PIL import Image
im = Image.open('s.apng')
assert (im.format, im.size, im.n_frames, im.info.get('loop')) == ('PNG', (96, 64), 5, 0), (im.format, im.size, im.n_frames, im.info)
durations = []
for i in range(im.n_frames):
    im.seek(i); im.load(); durations.append(im.info.get('duration'))
assert durations == [100] * 5, durations
im.seek(0); px = im.convert('RGBA')
assert px.getpixel((24, 24)) == (255, 0, 0, 255) and 0 < px.getpixel((24, 44))[3] < 255 and px.getpixel((2, 62))[3] == 0, px.getpixel((24, 44))"
check "decoded colours: sRGB red comes back red; alpha formats keep the soft shadow" bash -c "
    for f in s.apng s.webp s.webm s.mov; do /usr/bin/python3 '$here/decode-check.py' \$f 1 4 || exit 1; done
    /usr/bin/python3 '$here/decode-check.py' s.mp4 0 4 && /usr/bin/python3 '$here/decode-check.py' s444.mp4 0 4 &&
    /usr/bin/python3 '$here/decode-check.py' q.webp 1 6"
check ".png --animated is the APNG" bash -c "
    '$kinetic' render '$shadow' -o anim.png --animated --quiet && cmp anim.png s.apng"
check "flags that do not fit the format exit 64" bash -c "
    for args in 'x.mov --crf 20' 'x.mp4 --quality 50' 'x.webp --crf 20' 'x.webm --pix-fmt yuv444p' 'x.mp4 --crf 60' 'x.gif --animated' 'x.mp4 --pix-fmt rgb' \
                'x.mp4 --colors 16' 'x.webp --dither 0' 'x.gif --colors 1' 'x.gif --colors 257' 'x.gif --dither 1.5' 'x.gif --dither maybe'; do
        '$kinetic' render '$shadow' -o \$args --quiet 2>/dev/null; c=\$?; [ \$c = 64 ] || { echo \"\$args: exit \$c\"; exit 1; }
    done
    '$kinetic' render '$shadow' -o odd.mp4 --scale 1.01 --quiet 2>err.txt; c=\$?
    [ \$c = 64 ] && grep -q 'even width and height' err.txt && [ ! -e odd.mp4 ] && [ -z \"\$(ls -A | grep odd)\" ]"
check "ctrl-c during an mp4 leaves neither the output nor a temporary file" bash -c "
    mkdir intv; '$kinetic' render '$scenes/moving-square.yaml' -o intv/long.mp4 --duration 600 --scale 8 --quiet & pid=\$!
    sleep 1; [ -n \"\$(ls -A intv)\" ] || { echo 'no temporary file while rendering'; exit 1; }
    kill -INT \$pid; wait \$pid; code=\$?
    [ \$code = 130 ] && [ -z \"\$(ls -A intv)\" ]"

# --- encode and plan: PNG frames to animations, shards for a job runner (issue 19) ---
check "plan: shards cover every frame exactly once, in order" bash -c "
    for n in 1 2 3 7 25; do
        '$kinetic' plan '$scenes/moving-square.yaml' --shards \$n -o frames/ > plan-\$n.jsonl || exit 1
        python3 -c \"
import json, sys
shards = [json.loads(l) for l in open('plan-\$n.jsonl')]
assert len(shards) == \$n, len(shards)
covered = []
for s in shards:
    assert s['scene'] == '$scenes/moving-square.yaml' and s['output'] == 'frames/', s
    a, b = map(int, s['frames'].split('-'))
    covered += range(a, b + 1)
sys.exit(covered != list(range(25)))\" || { echo \"--shards \$n\"; cat plan-\$n.jsonl; exit 1; }
    done
    '$kinetic' plan '$scenes/moving-square.yaml' --shards 26 2>err.txt; [ \$? = 64 ] && grep -q 'only 25 frames' err.txt &&
    '$kinetic' plan '$scenes/moving-square.yaml' --shards 2 -o x.mp4 2>/dev/null; [ \$? = 64 ]"
check "GNU parallel: 2 shards, then encode, byte-identical with one render (GIF, MP4, WebP)" bash -c "
    '$kinetic' plan '$shadow' --shards 2 -o shards/ | python3 -c 'import json,sys; [print(json.loads(l)[\"frames\"]) for l in sys.stdin]' |
        parallel --will-cite --jobs 2 '$kinetic' render '$shadow' --frames {} -o shards/ --quiet &&
    [ \$(ls shards | wc -l) = 5 ] &&
    for f in gif mp4 webp; do
        '$kinetic' encode shards/ -o sharded.\$f --fps 10 --quiet && '$kinetic' render '$shadow' -o whole.\$f --quiet &&
        cmp sharded.\$f whole.\$f || exit 1
    done"
check "encode: a pattern of an opaque scene's frames gives render's GIF and APNG" bash -c "
    '$kinetic' encode 'frames/frame-%04d.png' -o e.gif --fps 50 --quiet && cmp e.gif a.gif &&
    '$kinetic' render '$scenes/moving-square.yaml' -o m.apng --quiet && '$kinetic' encode frames/ -o e.apng --fps 50 --quiet && cmp e.apng m.apng"
# A GIF's frames are rasterized once and kept for its later passes when they fit; at
# scale 16 (9.8 MB frames) --max-memory 80M leaves 11 MB past the frames in flight, less
# than the 25 frames need, so that render simulates and rasterizes each pass again.
check "a GIF is the same whether its frames are kept between passes or rendered again" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o kept.gif --scale 16 --jobs 1 --quiet &&
    '$kinetic' render '$scenes/moving-square.yaml' -o again.gif --scale 16 --jobs 1 --max-memory 80M --quiet &&
    cmp kept.gif again.gif"
check "gif --colors N: a global table of at most N entries and no local ones; encode gives render's bytes" bash -c "
    '$kinetic' render '$scenes/moving-square.yaml' -o c16.gif --colors 16 --quiet &&
    '$kinetic' encode frames/ -o e16.gif --fps 50 --colors 16 --quiet && cmp c16.gif e16.gif &&
    python3 -c \"
import sys
b = open('c16.gif', 'rb').read()
table = 2 << (b[10] & 7) if b[10] & 0x80 else 0
# Every image descriptor (0x2C after a block) without a local table (bit 0x80 of its byte 9).
i, local = 13 + 3 * table, 0
while b[i] != 0x3B:
    if b[i] == 0x21:
        i += 2
        while b[i]: i += b[i] + 1
        i += 1
    else:
        flags = b[i + 9]; i += 10
        if flags & 0x80: local += 1; i += 3 * (2 << (flags & 7))
        i += 1
        while b[i]: i += b[i] + 1
        i += 1
sys.exit(not (0 < table <= 16 and local == 0))\" &&
    '$kinetic' render '$scenes/moving-square.yaml' -o d0.gif --colors 8 --dither off --quiet &&
    '$kinetic' render '$scenes/moving-square.yaml' -o d1.gif --colors 8 --dither on --quiet && ! cmp -s d0.gif d1.gif"
# (At --colors 4 the palette is the scene's 3 flat colours exactly: no flat area errs, and
# libimagequant dithers flat areas only, so on and off give the same bytes.)
check "encode: a gap or another size is an error naming the frame; no output" bash -c "
    cp -r frames gap && rm gap/frame-0012.png
    '$kinetic' encode gap -o g.mp4 --fps 50 2>err.txt; [ \$? = 65 ] && grep -q 'gap/frame-0012.png is missing' err.txt &&
    cp -r frames size && '$kinetic' render '$shadow' -o size/frame-0007.png --frame 0 --quiet
    '$kinetic' encode size -o g.mp4 --fps 50 2>err.txt; [ \$? = 65 ] && grep -q 'size/frame-0007.png is 96×64, but size/frame-0000.png is 120×80' err.txt &&
    '$kinetic' encode nothere -o g.mp4 --fps 50 2>/dev/null; [ \$? = 66 ] &&
    '$kinetic' encode frames -o g.avi --fps 50 2>/dev/null; [ \$? = 64 ] && [ -z \"\$(ls -A | grep '^g\\.')\" ]"
source "$here/hostile.sh"
source "$here/surfaces.sh"

# kinetic preview (the page itself: Tests/browser/preview_test.py) and kinetic schema.
check "preview of a missing scene exits 66" status_is 66 "$kinetic" preview missing.yaml
check "preview refuses port 0 and 70000 (64)" bash -c "
    '$kinetic' preview '$scenes/moving-square.yaml' --port 0 2>/dev/null; [ \$? = 64 ] &&
    '$kinetic' preview '$scenes/moving-square.yaml' --port 70000 2>/dev/null; [ \$? = 64 ]"
check "preview on a non-loopback host warns, prints its URL" bash -c "
    '$kinetic' preview '$scenes/moving-square.yaml' --host 0.0.0.0 2> p.txt & pid=\$!
    for i in \$(seq 50); do grep -q 'http://0.0.0.0:' p.txt && break; sleep 0.1; done; kill \$pid
    grep -q '^warning: --host 0.0.0.0' p.txt && grep -q 'http://0.0.0.0:[0-9]*/' p.txt"
check "schema prints draft 2020-12 JSON" bash -c "
    '$kinetic' schema | python3 -c 'import json,sys; s=json.load(sys.stdin); sys.exit(s[\"\$schema\"] != \"https://json-schema.org/draft/2020-12/schema\")'"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
