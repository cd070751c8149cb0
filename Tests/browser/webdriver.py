"""A minimal W3C WebDriver client over urllib (no dependency beyond the standard library),
enough to drive headless Chromium through chromedriver for the preview's browser test."""
import base64
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriverError(Exception):
    pass


class Browser:
    """One chromedriver process and one session of headless Chromium."""

    def __init__(self, width=1280, height=800, extra_args=()):
        driver = os.environ.get("CHROMEDRIVER", "chromedriver")
        self.port = free_port()
        self.process = subprocess.Popen([driver, f"--port={self.port}"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.base = f"http://127.0.0.1:{self.port}"
        deadline = time.time() + 20
        while True:
            try:
                if self._call("GET", "/status")["ready"]:
                    break
            except (OSError, WebDriverError):
                pass
            if time.time() > deadline:
                self.process.kill()
                raise WebDriverError("chromedriver did not start")
            time.sleep(0.1)
        options = {"args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                            f"--window-size={width},{height}", "--force-device-scale-factor=1", *extra_args]}
        binary = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        if os.path.exists(binary):
            options["binary"] = binary
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": options,
            "goog:loggingPrefs": {"browser": "ALL"}}}}
        try:
            self.session = self._call("POST", "/session", caps)["sessionId"]
        except Exception:
            self.process.kill()
            raise

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                reply = json.load(response)
        except urllib.error.HTTPError as e:
            raise WebDriverError(f"{method} {path}: {e.read().decode(errors='replace')}") from None
        return reply.get("value", reply)

    def command(self, method, path, body=None):
        return self._call(method, f"/session/{self.session}{path}", body)

    def get(self, url):
        self.command("POST", "/url", {"url": url})

    def script(self, source, *args):
        return self.command("POST", "/execute/sync", {"script": source, "args": list(args)})

    def wait(self, source, timeout=10.0, *args):
        """Runs `source` (a function body returning a value) until it returns something truthy."""
        deadline = time.time() + timeout
        while True:
            value = self.script(source, *args)
            if value:
                return value
            if time.time() > deadline:
                raise TimeoutError(f"timed out after {timeout} s waiting for: {source}")
            time.sleep(0.05)

    def find(self, css):
        element = self.command("POST", "/element", {"using": "css selector", "value": css})
        return next(iter(element.values()))

    def click(self, css):
        self.command("POST", f"/element/{self.find(css)}/click", {})

    def send_keys(self, css, text):
        self.command("POST", f"/element/{self.find(css)}/value", {"text": text})

    def logs(self):
        """Browser console entries since the last call (chromedriver's log endpoint)."""
        return self.command("POST", "/se/log", {"type": "browser"})

    def screenshot(self):
        return base64.b64decode(self.command("GET", "/screenshot"))

    def quit(self):
        try:
            self.command("DELETE", "")
        except Exception:
            pass
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
