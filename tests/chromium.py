"""Headless Chromium driven over the DevTools protocol, for tests that need a page laid out at a
given screen size (a phone's 390 px: --window-size stops at 500) and JavaScript run in it.

The protocol travels on a pipe (--remote-debugging-pipe: Chromium reads commands on its fd 3 and
writes answers on its fd 4, each a JSON text ended by a NUL byte), so no port is opened and no
WebSocket library is needed. tools/screenshots.py takes the README's pictures with it."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--remote-debugging-pipe"]  # fmt: skip
TRAMPOLINE = (
    "import os, sys; os.dup2(int(sys.argv[1]), 3); os.dup2(int(sys.argv[2]), 4); os.execv(sys.argv[3], sys.argv[3:])"
)
TIMEOUT = 60  # seconds Chromium may take to answer a command (a page loads in well under one)


class Chromium:
    """One headless Chromium; `tab` opens a page emulating a screen of the given size."""

    def __init__(self, profile: Path, executable: str | None = None) -> None:
        executable = executable or shutil.which("chromium")
        if executable is None:
            raise FileNotFoundError("chromium")
        to_chromium, commands = os.pipe()
        answers, from_chromium = os.pipe()
        # Chromium wants the pipe's ends as its fd 3 and 4: a small Python puts them there and becomes
        # Chromium (Popen's preexec_fn could too, but is not safe beside the threads of a test run)
        command = [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"]
        self.process = subprocess.Popen(
            [sys.executable, "-c", TRAMPOLINE, str(to_chromium), str(from_chromium), *command],
            pass_fds=(to_chromium, from_chromium),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_chromium)
        os.close(from_chromium)
        self._commands = os.fdopen(commands, "wb")
        self._answers = os.fdopen(answers, "rb", buffering=0)
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        self._last_id = 0

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError, EOFError, RuntimeError):
            self.send("Browser.close")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._commands.close()
        self._answers.close()

    def _receive(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if not select.select([self._answers], [], [], TIMEOUT)[0]:
                raise TimeoutError(f"Chromium said nothing for {TIMEOUT} s")
            chunk = self._answers.read(1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        answer: dict[str, Any] = json.loads(message)
        return answer

    def send(self, method: str, session: str | None = None, **params: Any) -> dict[str, Any]:
        """Run one DevTools command (in the page of `session`, or in the browser) and return its result."""
        self._last_id += 1
        command: dict[str, Any] = {"id": self._last_id, "method": method, "params": params}
        if session is not None:
            command["sessionId"] = session
        self._commands.write(json.dumps(command).encode() + b"\0")
        self._commands.flush()
        while True:
            answer = self._receive()
            if answer.get("id") == self._last_id:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer["result"]
                return result
            self._events.append(answer)

    def wait_for(self, event: str, session: str) -> dict[str, Any]:
        while True:
            for i, seen in enumerate(self._events):
                if seen.get("method") == event and seen.get("sessionId") == session:
                    return self._events.pop(i)
            self._events.append(self._receive())

    def tab(self, width: int, height: int, *, mobile: bool, scale: float = 1) -> Tab:
        """A page of `width` × `height` CSS pixels; `mobile` as a phone's browser (it obeys the
        page's viewport tag and zooms out to show a page wider than the screen)."""
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        session = self.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.send("Emulation.setDeviceMetricsOverride", session, width=width, height=height,
                  deviceScaleFactor=scale, mobile=mobile)  # fmt: skip
        self.send("Page.enable", session)
        return Tab(self, session)


class Tab:
    def __init__(self, browser: Chromium, session: str) -> None:
        self.browser = browser
        self.session = session

    def open(self, url: str) -> None:
        """Load `url` and wait for its load event (every picture in it loaded)."""
        self.browser.send("Page.navigate", self.session, url=url)
        self.browser.wait_for("Page.loadEventFired", self.session)

    def press(self, key: str, code: int) -> None:
        """One key pressed and released, as the keyboard sends it (`Tab` 9, `Enter` 13, `ArrowDown` 40)."""
        text = {"Enter": "\r"}.get(key, "")
        for kind in ("keyDown", "keyUp"):
            self.browser.send("Input.dispatchKeyEvent", self.session, type=kind, key=key, code=key,
                              windowsVirtualKeyCode=code, text=text if kind == "keyDown" else "")  # fmt: skip

    def listen_network(self) -> None:
        """Keep every request the page makes from now on (`requests`)."""
        self.browser.send("Network.enable", self.session)

    def requests(self) -> list[str]:
        """The address of every request the page made since `listen_network`, in order."""
        seen = [e for e in self.browser._events if e.get("sessionId") == self.session]
        return [e["params"]["request"]["url"] for e in seen if e.get("method") == "Network.requestWillBeSent"]

    def evaluate(self, expression: str) -> Any:
        """The value of a JavaScript expression in the page (a promise is awaited)."""
        answer = self.browser.send("Runtime.evaluate", self.session, expression=expression,
                                   returnByValue=True, awaitPromise=True)  # fmt: skip
        if "exceptionDetails" in answer:
            raise RuntimeError(answer["exceptionDetails"])
        return answer["result"].get("value")

    def screenshot(self, path: Path, *, height: int | None = None) -> None:
        """A PNG of the page from its top: `height` CSS pixels of it, or the whole page."""
        size = self.browser.send("Page.getLayoutMetrics", self.session)["cssContentSize"]
        clip = {"x": 0, "y": 0, "width": size["width"], "height": height or size["height"], "scale": 1}
        data = self.browser.send("Page.captureScreenshot", self.session, format="png",
                                 captureBeyondViewport=True, clip=clip)["data"]  # fmt: skip
        path.write_bytes(base64.b64decode(data))
