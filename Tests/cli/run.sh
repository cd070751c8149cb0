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
    sleep 1; [ -n \"\$(ls -A int)\" ] || { echo 'no temporary file while rendering'; exit 1; }
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
