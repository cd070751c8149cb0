import Foundation

/// The player page `kinetic preview` serves: one self-contained HTML file (no external
/// scripts or styles, so it works offline and needs no static-file route).
///
/// The frame canvas shows the server's PNG exactly (no scaling in the canvas itself;
/// "fit" scales it with CSS), so reading the canvas back gives `render --frame N`'s
/// pixels. Layer outlines go on a second canvas above it.
enum PreviewPage {
    /// The page with the session's token in it (only this page can read it; see
    /// ``RequestGuard``).
    static func html(token: String) -> String {
        template.replacingOccurrences(of: "KINETIC_SESSION_TOKEN", with: token)
    }

    static let template = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="kinetic-token" content="KINETIC_SESSION_TOKEN">
<title>kinetic preview</title>
<link rel="icon" href="data:,">
<style>
  body { font: 13px system-ui, sans-serif; margin: 0; display: flex; height: 100vh; color: #222; }
  #main { flex: 1; display: flex; flex-direction: column; min-width: 0; }
  #side { width: 300px; border-left: 1px solid #ccc; display: flex; flex-direction: column; overflow: hidden; }
  header { padding: 6px 10px; border-bottom: 1px solid #ddd; display: flex; gap: 12px; align-items: center; }
  #file { font-weight: 600; }
  #stage { flex: 1; overflow: auto; background: repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px; position: relative; }
  #holder { position: relative; display: inline-block; vertical-align: top; margin: 10px; }
  #holder canvas { display: block; }
  #overlay { position: absolute; left: 0; top: 0; pointer-events: none; }
  #overlay { width: 100%; height: 100%; }
  #controls { padding: 6px 10px; border-top: 1px solid #ddd; display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
  #scrub { flex: 1; min-width: 120px; }
  .readout { font-variant-numeric: tabular-nums; min-width: 6.5em; }
  #problems { margin: 0; padding: 6px 10px 6px 28px; background: #fde8e8; color: #900; font-family: monospace; white-space: pre-wrap; }
  #problems:empty { display: none; }
  #layers { list-style: none; margin: 0; padding: 0; overflow: auto; max-height: 40%; border-bottom: 1px solid #ddd; }
  #layers li { padding: 2px 10px; cursor: pointer; font-family: monospace; }
  #layers li.selected { background: #2a6df4; color: #fff; }
  #inspect { flex: 1; margin: 0; padding: 6px 10px; overflow: auto; font-size: 11px; }
  h2 { font-size: 12px; margin: 6px 10px; }
</style>
</head>
<body>
<div id="main">
  <header>
    <span id="file"></span>
    <span id="status"></span>
    <label><input type="checkbox" id="fit" checked> fit</label>
    <select id="exportFormat" title="the format the export writes next to the scene"><option value="gif">GIF</option></select>
    <button id="export">Export</button>
    <span id="exportOut"></span>
  </header>
  <ul id="problems"></ul>
  <div id="stage"><div id="holder"><canvas id="frame" width="1" height="1"></canvas><canvas id="overlay" width="1" height="1"></canvas></div></div>
  <div id="controls">
    <button id="play" title="play/pause (space)">▶</button>
    <button id="prev" title="previous frame (←)">◀︎|</button>
    <button id="next" title="next frame (→)">|▶︎</button>
    <input type="range" id="scrub" min="0" max="0" value="0">
    <span class="readout" id="frameOut"></span>
    <span class="readout" id="timeOut"></span>
    <label><input type="checkbox" id="loop" checked> loop</label>
    <label>speed <select id="speed"><option value="1">1×</option><option value="0.25">0.25×</option></select></label>
    <label><input type="checkbox" id="debug"> physics debug</label>
    <label><input type="checkbox" id="bounds"> layer bounds</label>
  </div>
</div>
<div id="side">
  <h2>Layers</h2>
  <ul id="layers"></ul>
  <h2 id="inspectTitle">inspect</h2>
  <pre id="inspect"></pre>
</div>
<script>
"use strict";
const $ = id => document.getElementById(id);
// What tests read: the scene state, the frame on the canvas and its generation.
const kinetic = window.kinetic = { state: null, frame: 0, drawn: null, inspect: null, layer: null };
let playing = false, playStart = 0, playFrom = 0;
let frameBusy = false, framePending = null, inspectBusy = false, inspectPending = null;

function fps() { return kinetic.state && kinetic.state.fps || 30; }
function frameCount() { return kinetic.state && kinetic.state.frameCount || 1; }

function applyState(state) {
  const old = kinetic.state;
  kinetic.state = state;
  $("file").textContent = state.file;
  const list = $("problems");
  list.replaceChildren(...state.problems.map(p => { const li = document.createElement("li"); li.textContent = p; return li; }));
  $("status").textContent = state.problems.length ? state.problems.length + " problem(s): showing the last good render" : "";
  if (state.frameCount === undefined) return;
  const formats = $("exportFormat"), chosen = formats.value;
  if ([...formats.options].map(o => o.value).join() !== state.exportFormats.join()) {
    formats.replaceChildren(...state.exportFormats.map(f => {
      const o = document.createElement("option"); o.value = f; o.textContent = f.toUpperCase(); return o;
    }));
    if (state.exportFormats.includes(chosen)) formats.value = chosen;
  }
  $("scrub").max = state.frameCount - 1;
  if (!old || old.generation !== state.generation) {
    // Keep the time when the scene changes.
    const time = old && old.fps ? kinetic.frame / old.fps : kinetic.frame / state.fps;
    show(Math.min(Math.round(time * state.fps), state.frameCount - 1));
  }
}

function show(n) {
  n = Math.max(0, Math.min(frameCount() - 1, n | 0));
  kinetic.frame = n;
  $("scrub").value = n;
  $("frameOut").textContent = "frame " + n + " / " + (frameCount() - 1);
  $("timeOut").textContent = (n / fps()).toFixed(3) + " s";
  requestFrame();
  if (kinetic.layer !== null || $("bounds").checked || !kinetic.inspect) requestInspect();
}

// At most one frame request in flight; the newest wanted frame goes next.
function requestFrame() {
  const want = { frame: kinetic.frame, generation: kinetic.state.generation, debug: $("debug").checked };
  if (frameBusy) { framePending = want; return; }
  frameBusy = true;
  fetch("/api/frame/" + want.frame + ".png?g=" + want.generation + (want.debug ? "&debug=1" : ""))
    .then(r => r.ok ? r.blob() : r.json().then(e => { throw new Error(e.error); }))
    .then(blob => createImageBitmap(blob, { colorSpaceConversion: "none", premultiplyAlpha: "none" }))
    .then(bitmap => {
      const c = $("frame"), o = $("overlay");
      if (c.width !== bitmap.width || c.height !== bitmap.height) {
        c.width = o.width = bitmap.width; c.height = o.height = bitmap.height;
        layout();
      }
      const g = c.getContext("2d");
      g.clearRect(0, 0, c.width, c.height);
      g.drawImage(bitmap, 0, 0);
      bitmap.close();
      kinetic.drawn = want;
      if (!kinetic.state.problems.length) $("status").textContent = "";
      drawOverlay();
    })
    .catch(e => { $("status").textContent = "frame " + want.frame + ": " + e.message; })
    .finally(() => {
      frameBusy = false;
      if (framePending) { framePending = null; requestFrame(); }
    });
}

function requestInspect() {
  if (!kinetic.state || kinetic.state.frameCount === undefined) return;
  const want = { frame: kinetic.frame, generation: kinetic.state.generation };
  if (inspectBusy) { inspectPending = want; return; }
  inspectBusy = true;
  fetch("/api/inspect/" + want.frame + "?g=" + want.generation)
    .then(r => r.ok ? r.json() : r.json().then(e => { throw new Error(e.error); }))
    .then(report => { report.generation = want.generation; kinetic.inspect = report; listLayers(); showLayer(); drawOverlay(); })
    .catch(e => { $("inspect").textContent = e.message; })
    .finally(() => {
      inspectBusy = false;
      if (inspectPending) { inspectPending = null; requestInspect(); }
    });
}

function listLayers() {
  const names = Object.keys(kinetic.inspect.layers);
  const ul = $("layers");
  const current = Array.from(ul.children).map(li => li.dataset.layer).join("\n");
  if (current === names.join("\n")) {
    for (const li of ul.children) li.classList.toggle("selected", li.dataset.layer === kinetic.layer);
    return;
  }
  ul.replaceChildren(...names.map(name => {
    const li = document.createElement("li");
    li.textContent = name; li.dataset.layer = name;
    li.classList.toggle("selected", name === kinetic.layer);
    li.onclick = () => { kinetic.layer = kinetic.layer === name ? null : name; listLayers(); requestInspect(); };
    return li;
  }));
}

function showLayer() {
  const entry = kinetic.layer !== null && kinetic.inspect ? kinetic.inspect.layers[kinetic.layer] : undefined;
  $("inspectTitle").textContent = entry ? kinetic.layer + " at frame " + kinetic.inspect.frame : "inspect (choose a layer)";
  $("inspect").textContent = entry ? JSON.stringify(entry, null, 2) : "";
}

// Outlines: every layer's projected corners (bounds toggle), the chosen layer's in blue.
function drawOverlay() {
  const o = $("overlay"), g = o.getContext("2d");
  g.clearRect(0, 0, o.width, o.height);
  const report = kinetic.inspect, s = kinetic.state && kinetic.state.scale || 1;
  if (!report || report.frame !== kinetic.frame) return;
  const outline = (entry, color, width) => {
    const pts = (entry.corners || []).filter(p => p);
    if (pts.length < 2) return;
    g.strokeStyle = color; g.lineWidth = width;
    g.beginPath();
    pts.forEach((p, i) => i ? g.lineTo(p[0] * s, p[1] * s) : g.moveTo(p[0] * s, p[1] * s));
    g.closePath(); g.stroke();
  };
  if ($("bounds").checked) for (const entry of Object.values(report.layers)) outline(entry, "rgba(255,0,128,0.8)", 1);
  if (kinetic.layer !== null && report.layers[kinetic.layer]) outline(report.layers[kinetic.layer], "#2a6df4", 3);
}

// "fit" scales the canvas with CSS to the space there is (its pixels stay the PNG's).
function layout() {
  const c = $("frame"), stage = $("stage");
  let k = 1;
  if ($("fit").checked) k = Math.max(0.05, Math.min((stage.clientWidth - 24) / c.width, (stage.clientHeight - 24) / c.height));
  c.style.width = (c.width * k) + "px";
  c.style.height = (c.height * k) + "px";
}
window.addEventListener("resize", layout);

function setPlaying(on) {
  playing = on;
  $("play").textContent = on ? "❚❚" : "▶";
  if (on) {
    if (kinetic.frame >= frameCount() - 1) show(0);
    playStart = performance.now(); playFrom = kinetic.frame;
    requestAnimationFrame(tick);
  }
}

function tick(now) {
  if (!playing) return;
  const speed = parseFloat($("speed").value);
  let n = playFrom + Math.floor((now - playStart) / 1000 * fps() * speed);
  if (n >= frameCount()) {
    if ($("loop").checked) { playStart = now; playFrom = 0; n = 0; }
    else { show(frameCount() - 1); setPlaying(false); return; }
  }
  if (n !== kinetic.frame) show(n);
  requestAnimationFrame(tick);
}

function step(d) { setPlaying(false); show(kinetic.frame + d); }

$("play").onclick = () => setPlaying(!playing);
$("prev").onclick = () => step(-1);
$("next").onclick = () => step(1);
$("scrub").oninput = () => { setPlaying(false); show(parseInt($("scrub").value, 10)); };
$("speed").onchange = () => { if (playing) setPlaying(true); };
$("debug").onchange = () => requestFrame();
$("bounds").onchange = () => { drawOverlay(); requestInspect(); };
$("fit").onchange = layout;
$("export").onclick = () => {
  $("exportOut").textContent = "exporting…";
  fetch("/api/export?format=" + encodeURIComponent($("exportFormat").value), { method: "POST", headers: { "X-Kinetic-Token": document.querySelector('meta[name="kinetic-token"]').content } })
    .then(r => r.json())
    .then(j => { $("exportOut").textContent = j.message || j.error; });
};
document.addEventListener("keydown", e => {
  if (e.target.tagName === "SELECT") return;
  if (e.key === "ArrowLeft") { step(-1); e.preventDefault(); }
  else if (e.key === "ArrowRight") { step(1); e.preventDefault(); }
  else if (e.key === " ") { setPlaying(!playing); e.preventDefault(); }
});

// Live updates: the server sends the state each time the scene reloads.
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
  ws.onmessage = m => applyState(JSON.parse(m.data));
  ws.onopen = () => fetch("/api/scene").then(r => r.json()).then(applyState);
  ws.onclose = () => setTimeout(connect, 1000);
}
fetch("/api/scene").then(r => r.json()).then(state => { applyState(state); connect(); });
</script>
</body>
</html>
"""#
}
