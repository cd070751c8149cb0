#!/usr/bin/env python3
"""Browser test of `kinetic preview` (run by `make test`): headless Chromium through
chromedriver (webdriver.py), against a server on a copy of Tests/browser/scene.yaml.

Checks: the page loads with no console errors; scrubbing to frame N (forward, back, and
forward again) puts exactly `kinetic render --frame N`'s pixels on the canvas (read back
with toDataURL, decoded by ImageMagick); an edit on disk shows within 2 s at the same
frame; a typo shows each FILE:LINE:COL message `kinetic validate` prints while the last
good frame stays; choosing a layer shows `kinetic inspect`'s entry for it; the server
answers malformed or escaping requests with 4xx and keeps running.

Environment: KINETIC (the binary), CHROMEDRIVER, CHROMIUM; PREVIEW_SOAK_SECONDS > 0 adds a
soak run (scrubbing, toggling the debug overlay and editing) that checks the server's
resident memory stays within its frame cache bound plus a margin; PREVIEW_SCREENSHOT=FILE
saves a screenshot of the page (docs/preview.png).
"""
import base64
import http.client
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from webdriver import Browser, free_port  # noqa: E402

KINETIC = os.path.abspath(os.environ.get("KINETIC", ".build/release/kinetic"))
HERE = os.path.dirname(os.path.abspath(__file__))
CACHE_MB = 1
# What the server may hold beyond its frame cache: the Swift runtime, NIO, the scene, two
# simulations and the rasters of the frame being drawn (see docs/preview.md).
RSS_MARGIN_MB = 64

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    if not condition:
        failures.append(message)


def rgba(png_bytes):
    """Decodes PNG bytes with ImageMagick (an independent decoder): (width, height, RGBA bytes)."""
    size = subprocess.run(["identify", "-format", "%w %h", "png:-"], input=png_bytes,
                          capture_output=True, check=True).stdout.split()
    pixels = subprocess.run(["convert", "png:-", "-depth", "8", "rgba:-"], input=png_bytes,
                            capture_output=True, check=True).stdout
    return int(size[0]), int(size[1]), pixels


def render_frame(scene, n, folder):
    out = os.path.join(folder, f"expected-{n}.png")
    subprocess.run([KINETIC, "render", scene, "-o", out, "--frame", str(n), "--quiet"], check=True)
    with open(out, "rb") as f:
        return f.read()


def canvas_png(browser):
    url = browser.script("return document.getElementById('frame').toDataURL('image/png');")
    return base64.b64decode(url.split(",", 1)[1])


def rss_mb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def start_server(scene):
    server = subprocess.Popen([KINETIC, "preview", scene, "--cache-mb", str(CACHE_MB)],
                              stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = server.stderr.readline()
        if not line:
            break
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        if match:
            return server, int(match.group(1))
    server.kill()
    raise RuntimeError("kinetic preview printed no URL")


def raw_request(port, data):
    """Sends raw bytes; returns the status line, b"closed" when the server closed the
    connection, or b"no answer" after 3 s."""
    with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
        s.sendall(data)
        try:
            reply = s.recv(200)
        except socket.timeout:
            return b"no answer"
    return reply.split(b"\r\n", 1)[0] if reply else b"closed"


def status_of(port, method, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.putrequest(method, path, skip_accept_encoding=True)
    connection.endheaders()
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def scrub_to(browser, n):
    """Moves the scrubber as a user drags it (input events) and waits for frame n on the canvas."""
    browser.script("const s = document.getElementById('scrub'); s.value = arguments[0];"
                   "s.dispatchEvent(new Event('input'));", n)
    browser.wait("const d = window.kinetic.drawn; return d && d.frame === arguments[0] && "
                 "d.generation === window.kinetic.state.generation && !d.debug;", 20, n)


def same_pixels(browser, scene, n, folder):
    w1, h1, page = rgba(canvas_png(browser))
    w2, h2, expected = rgba(render_frame(scene, n, folder))
    differing = sum(1 for a, b in zip(page, expected) if a != b)
    return (w1, h1) == (w2, h2) and differing == 0, f"{w1}×{h1} vs {w2}×{h2}, {differing} differing bytes"


def edit(scene, old, new):
    with open(scene) as f:
        text = f.read()
    assert old in text, old
    # Written under another name and renamed, as editors save.
    with open(scene + ".swp", "w") as f:
        f.write(text.replace(old, new, 1))
    os.replace(scene + ".swp", scene)


def main():
    started = time.time()
    folder = tempfile.mkdtemp(prefix="kinetic-preview-test-")
    scene = os.path.join(folder, "scene.yaml")
    shutil.copy(os.path.join(HERE, "scene.yaml"), scene)
    shutil.copy(os.path.join(HERE, "badge.png"), os.path.join(folder, "badge.png"))
    os.mkdir(os.path.join(folder, "sub"))
    with open(os.path.join(folder, "..", os.path.basename(folder) + "-secret.txt"), "w") as f:
        f.write("outside")
    server, port = start_server(scene)
    browser = None
    try:
        base = f"http://127.0.0.1:{port}"
        # Requests the page never makes: 4xx, and the server stays up.
        check(status_of(port, "GET", "/api/frame/abc.png") == 400, "a malformed frame number gets 400")
        check(status_of(port, "GET", "/api/frame/999999.png") == 404, "a frame past the end gets 404")
        check(status_of(port, "GET", "/api/inspect/-1") == 400, "a negative inspect frame gets 400")
        check(status_of(port, "GET", "/files/../" + os.path.basename(folder) + "-secret.txt") == 400,
              "a path escaping the scene's folder gets 400")
        check(status_of(port, "GET", "/files/%2e%2e/x") == 400, "an encoded .. gets 400")
        check(status_of(port, "GET", "/files/sub") == 404, "a folder is not listed (404)")
        check(status_of(port, "GET", "/files/scene.yaml") == 200, "a file under the scene's folder is served")
        check(status_of(port, "GET", "/etc/passwd") == 404, "any other path gets 404")
        # 403 too: a method that may change state needs the page's token first (RequestGuard).
        check(status_of(port, "DELETE", "/api/scene") in (403, 404, 405), "an unknown method gets 4xx")
        # Bytes that are no HTTP request get 400 (not silence), and the server goes on.
        for junk in (b"\x00\x01GARBAGE\r\n\r\n", b"GET / HTTP/1.1\r\nNo colon here\r\n\r\n"):
            garbage = raw_request(port, junk)
            check(garbage.startswith(b"HTTP/1.1 400"), f"an unparsable request gets 400 ({garbage!r})")
        check(server.poll() is None and status_of(port, "GET", "/api/scene") == 200, "the server survived them")

        browser = Browser()
        browser.get(base + "/")
        browser.wait("return window.kinetic && window.kinetic.drawn && window.kinetic.inspect;", 20)
        errors = [e for e in browser.logs() if e.get("level") == "SEVERE"]
        check(not errors, f"the page loads with no console errors {errors}")

        # Forward (incremental simulation), back (restarted), forward again.
        for n in (40, 12, 55):
            scrub_to(browser, n)
            ok, detail = same_pixels(browser, scene, n, folder)
            check(ok, f"frame {n} on the canvas equals `kinetic render --frame {n}` ({detail})")
        frame_text = browser.script("return document.getElementById('frameOut').textContent + ' ' + "
                                    "document.getElementById('timeOut').textContent;")
        check(frame_text == "frame 55 / 59 1.833 s", f"frame and time read-outs ({frame_text})")

        # Step with the arrow keys.
        browser.send_keys("body", "\ue012\ue012")  # two ArrowLeft
        browser.wait("return window.kinetic.drawn && window.kinetic.drawn.frame === 53;", 10)
        check(True, "two ← keys step back to frame 53")

        # Play from frame 0 at 1× runs at the scene's fps (30): after about half a second
        # the page shows a frame near 15; pause stops it.
        scrub_to(browser, 0)
        browser.click("#play")
        t0 = time.time()
        browser.wait("return window.kinetic.frame >= 10;", 5)
        browser.click("#play")
        elapsed, shown_frame = time.time() - t0, browser.script("return window.kinetic.frame;")
        time.sleep(0.3)
        still = browser.script("return window.kinetic.frame;")
        check(still == shown_frame and shown_frame <= 30 * elapsed + 3,
              f"play advances at the scene's fps and pause stops it (frame {shown_frame} after {elapsed:.2f} s)")
        scrub_to(browser, 55)
        browser.send_keys("body", "\ue012\ue012")  # two ArrowLeft
        browser.wait("return window.kinetic.drawn && window.kinetic.drawn.frame === 53;", 10)

        # Choosing a layer shows inspect's entry for it at the current frame.
        browser.click('#layers li[data-layer="box"]')
        shown = browser.wait("const t = document.getElementById('inspect').textContent;"
                             "return window.kinetic.inspect.frame === 53 && t ? t : null;", 10)
        expected = json.loads(subprocess.run([KINETIC, "inspect", scene, "--frame", "53"], capture_output=True,
                                             check=True, text=True).stdout)["layers"]["box"]
        check(json.loads(shown) == expected, "choosing a layer shows `kinetic inspect`'s JSON of it")

        # An edit on disk: the page shows it within 2 s, at the same frame.
        generation = browser.script("return window.kinetic.state.generation;")
        edit(scene, '"#F4F1EA"', '"#DDEEFF"')
        t0 = time.time()
        browser.wait("const d = window.kinetic.drawn; return d && d.generation > arguments[0] && d.frame === 53;",
                     2.0, generation)
        elapsed = time.time() - t0
        ok, detail = same_pixels(browser, scene, 53, folder)
        check(ok and elapsed < 2.0, f"an edit shows within 2 s ({elapsed:.2f} s) at the same frame, as rendered ({detail})")

        # An asset is watched too: a new badge.png shows within 2 s.
        generation = browser.script("return window.kinetic.state.generation;")
        subprocess.run(["convert", "-size", "16x16", "xc:#7A3DB8", os.path.join(folder, "badge.swp.png")], check=True)
        os.replace(os.path.join(folder, "badge.swp.png"), os.path.join(folder, "badge.png"))
        t0 = time.time()
        browser.wait("const d = window.kinetic.drawn; return d && d.generation > arguments[0] && d.frame === 53;",
                     2.0, generation)
        elapsed = time.time() - t0
        ok, detail = same_pixels(browser, scene, 53, folder)
        check(ok, f"a changed image asset shows within 2 s ({elapsed:.2f} s), as rendered ({detail})")

        # A typo: every problem `kinetic validate` prints, with FILE:LINE:COL; the last good frame stays.
        generation = browser.script("return window.kinetic.state.generation;")
        before = canvas_png(browser)
        edit(scene, "cornerRadius: 6", "cornerRadus: 6")
        edit(scene, "fontSize: 13", "fontSize: big")
        validate = subprocess.run([KINETIC, "validate", scene], capture_output=True, text=True)
        expected_problems = [line for line in validate.stderr.splitlines() if re.match(r".+:\d+:\d+: ", line)]
        shown = browser.wait("const items = Array.from(document.querySelectorAll('#problems li')).map(li => li.textContent);"
                             "return items.length >= arguments[0] ? items : null;", 3.0, len(expected_problems))
        check(len(expected_problems) == 2 and shown == expected_problems,
              f"a typo shows every FILE:LINE:COL problem ({shown})")
        check(canvas_png(browser) == before and browser.script("return window.kinetic.state.generation;") == generation,
              "the last good frame stays while the scene has errors")
        edit(scene, "cornerRadus: 6", "cornerRadius: 6")
        edit(scene, "fontSize: big", "fontSize: 13")
        browser.wait("return document.querySelectorAll('#problems li').length === 0 && "
                     "window.kinetic.drawn.generation > arguments[0];", 3.0, generation)
        check(True, "fixing the typo clears the problems and draws the scene again")

        # The physics overlay is rendered as `render --debug`.
        browser.click("#debug")
        browser.wait("return window.kinetic.drawn.debug;", 10)
        debug_png = os.path.join(folder, "debug.png")
        subprocess.run([KINETIC, "render", scene, "-o", debug_png, "--frame", "53", "--debug", "--quiet"], check=True)
        with open(debug_png, "rb") as f:
            check(rgba(canvas_png(browser))[2] == rgba(f.read())[2], "the debug overlay equals `render --debug`")
        browser.click("#debug")

        # Export writes the scene's GIF next to it, and the other formats when chosen.
        def export(fmt):
            browser.script("const s = document.getElementById('exportFormat'); s.value = arguments[0];"
                            "document.getElementById('exportOut').textContent = '';", fmt)
            browser.click("#export")
            return browser.wait("const t = document.getElementById('exportOut').textContent;"
                                "return t && t !== 'exporting…' ? t : null;", 60)
        offered = browser.script("return [...document.getElementById('exportFormat').options].map(o => o.value);")
        check(offered == ["gif", "apng", "webp", "mp4", "webm", "mov"], f"the export menu offers every format ({offered})")
        message = export("gif")
        gif = os.path.join(folder, "scene.gif")
        frames = subprocess.run(["identify", gif], capture_output=True, text=True).stdout.count("GIF ")
        check(message.startswith("wrote " + gif) and frames == 60, f"export writes scene.gif with 60 frames ({message})")
        message = export("mp4")
        mp4 = os.path.join(folder, "scene.mp4")
        probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                "stream=codec_name,nb_read_frames", "-of", "csv=p=0", mp4],
                               capture_output=True, text=True).stdout.strip()
        check(message.startswith("wrote " + mp4) and probe == "h264,60", f"export writes scene.mp4, H.264, 60 frames ({message}; {probe})")
        rendered = os.path.join(folder, "rendered.mp4")
        subprocess.run([KINETIC, "render", scene, "-o", rendered, "--quiet"], check=True)
        with open(mp4, "rb") as a, open(rendered, "rb") as b:
            check(a.read() == b.read(), "the exported MP4 is byte-identical to `render -o scene.mp4`")

        cross_site(browser, port, folder)
        browser.get(base + "/")  # back to the preview's own page for the soak
        browser.wait("return window.kinetic && window.kinetic.drawn && window.kinetic.state;", 20)

        soak = float(os.environ.get("PREVIEW_SOAK_SECONDS", "0"))
        if soak > 0:
            soak_run(browser, server, scene, soak)

        errors = [e for e in browser.logs() if e.get("level") == "SEVERE" and "/api/" not in e.get("message", "")]
        check(not errors, f"no console errors during the test {errors}")
        check(server.poll() is None, "the server is still running")
    finally:
        if browser:
            browser.quit()
        server.terminate()
        server.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)
        try:
            os.remove(os.path.join(folder, "..", os.path.basename(folder) + "-secret.txt"))
        except OSError:
            pass
    if os.environ.get("PREVIEW_SCREENSHOT"):
        take_screenshot(os.environ["PREVIEW_SCREENSHOT"])
    print(f"browser test: {len(failures)} failure(s) in {time.time() - started:.1f} s")
    return 1 if failures else 0


ATTACKER_PAGE = """<!doctype html><meta charset="utf-8"><script>
window.result = {};
const target = "http://127.0.0.1:PORT";
fetch(target + "/api/export?format=webp", {method: "POST", mode: "no-cors"})
  .then(() => { window.result.post = "sent"; }, e => { window.result.post = "error " + e; });
const ws = new WebSocket("ws://127.0.0.1:PORT/ws");
ws.onopen = () => { window.result.ws = "open"; };
ws.onerror = ws.onclose = () => { if (!window.result.ws) window.result.ws = "refused"; };
</script>"""


def cross_site(browser, port, folder):
    """A page of another site, in the same browser: its POST reaches the preview but writes
    nothing (Origin, no token), its WebSocket is not upgraded; a name rebound to 127.0.0.1
    (DNS rebinding) gets 403 for the page itself."""
    site = tempfile.mkdtemp(prefix="kinetic-attacker-")
    with open(os.path.join(site, "index.html"), "w") as f:
        f.write(ATTACKER_PAGE.replace("PORT", str(port)))
    other = free_port()
    attacker = subprocess.Popen([sys.executable, "-m", "http.server", str(other), "--bind", "127.0.0.1", "--directory", site],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 10
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", other), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        browser.get(f"http://127.0.0.1:{other}/index.html")
        result = browser.wait("const r = window.result; return r && r.post && r.ws ? r : null;", 20)
        time.sleep(1)  # an export, were it accepted, would have written by now
        check(result["ws"] == "refused", f"another site's page cannot open the preview's WebSocket ({result})")
        check(not os.path.exists(os.path.join(folder, "scene.webp")),
              "another site's page cannot make the preview export (no scene.webp)")
        browser.logs()  # the attacker page's refused requests are its console errors, not the preview's
    finally:
        attacker.terminate()
        attacker.wait(timeout=10)
        shutil.rmtree(site, ignore_errors=True)
    rebinding = Browser(extra_args=["--host-resolver-rules=MAP rebound.test 127.0.0.1"])
    try:
        rebinding.get(f"http://rebound.test:{port}/")
        text = rebinding.script("return document.body ? document.body.innerText : '';")
        check("Host header" in text and "kinetic-token" not in rebinding.script("return document.documentElement.outerHTML;"),
              f"a name rebound to 127.0.0.1 gets 403, not the page or its token ({text[:80]!r})")
    finally:
        rebinding.quit()


def take_screenshot(path):
    """The page on a gallery scene: physics overlay on, a layer chosen (docs/preview.png)."""
    scene = os.environ.get("PREVIEW_SCREENSHOT_SCENE", os.path.join(HERE, "..", "..", "scenes", "collision-boundaries.yaml"))
    server, port = start_server(scene)
    browser = Browser(1400, 860)
    try:
        browser.get(f"http://127.0.0.1:{port}/")
        browser.wait("return window.kinetic && window.kinetic.drawn && window.kinetic.inspect;", 20)
        scrub_to(browser, 62)
        browser.click("#debug")
        browser.wait("return window.kinetic.drawn.debug;", 20)
        browser.click('#layers li[data-layer="box"]')
        browser.wait("return document.getElementById('inspect').textContent;", 10)
        with open(path, "wb") as f:
            f.write(browser.screenshot())
        print(f"wrote {path}")
    finally:
        browser.quit()
        server.terminate()
        server.wait(timeout=10)


def soak_run(browser, server, scene, seconds):
    """Scrubs at random, toggles the debug overlay and edits the scene for `seconds`,
    sampling the server's resident memory."""
    rng = random.Random(16)
    # Bigger frames (about 13 kB of PNG each at scale 4), so the plain and debug frames of
    # one generation (about 1.6 MB) overflow the 1 MB cache and the LRU evicts.
    current = browser.script("return window.kinetic.state.generation;")
    edit(scene, "scale: 1", "scale: 4")
    browser.wait("return window.kinetic.state.generation > arguments[0];", 3.0, current)
    baseline = rss_mb(server.pid)
    port = int(browser.script("return location.port;"))
    cache_peak = 0
    peak, samples, edits, frames = baseline, [], 0, 0
    colors = ["#F4F1EA", "#DDEEFF", "#FFEEDD", "#EEFFEE"]
    current = browser.script("return window.kinetic.state.generation;")
    end = time.time() + seconds
    while time.time() < end:
        action = rng.random()
        if action < 0.02:
            with open(scene) as f:
                text = f.read()
            old = next(c for c in colors if f'"{c}"' in text)
            edit(scene, f'"{old}"', f'"{rng.choice([c for c in colors if c != old])}"')
            edits += 1
            browser.wait("return window.kinetic.state.generation > arguments[0];", 3.0, current)
            current = browser.script("return window.kinetic.state.generation;")
        elif action < 0.06:
            browser.click("#debug")
        else:
            n = rng.randrange(60)
            browser.script("const s = document.getElementById('scrub'); s.value = arguments[0];"
                           "s.dispatchEvent(new Event('input'));", n)
            browser.wait("const d = window.kinetic.drawn; return d && d.frame === arguments[0] && "
                         "d.generation === window.kinetic.state.generation;", 10, n)
            frames += 1
        if frames % 20 == 0:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/api/scene")
            state = json.loads(connection.getresponse().read())
            connection.close()
            cache_peak = max(cache_peak, state["cacheBytes"])
        rss = rss_mb(server.pid)
        peak = max(peak, rss)
        samples.append(rss)
    bound = baseline + CACHE_MB + RSS_MARGIN_MB
    print(f"soak: {seconds:.0f} s, {frames} scrubs, {edits} edits; RSS {baseline:.1f} MB at start, "
          f"{samples[-1]:.1f} MB at end, {peak:.1f} MB peak (cache bound {CACHE_MB} MB, {cache_peak} bytes used at most)")
    check(0 < cache_peak <= CACHE_MB << 20, f"the frame cache stays within its bound ({cache_peak} bytes at most)")
    check(peak <= bound, f"the server's memory stays within start + cache + {RSS_MARGIN_MB} MB ({peak:.1f} ≤ {bound:.1f})")


if __name__ == "__main__":
    sys.exit(main())
