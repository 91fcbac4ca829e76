"""Browser tests of the auditors' pages: one server process for the session (``uvicorn`` on a free port, a new
SQLite database filled from ``versions/`` on start), Debian's Chromium driven by Playwright.

No browser is downloaded: Playwright starts ``/usr/bin/chromium`` (``.ci/run`` installs Debian's ``chromium``
when it is missing). Without that binary the browser tests are skipped with the reason; a browser that is
there and fails to start is an error, not a skip. Every request a page makes to another host is refused and
fails the test: the pages must work offline.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("VIGUEUR_CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = ROOT / "build" / "screenshots"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
START_SECONDS = 180  # the first start loads versions/ into the new database; 2 shared cores under load


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(base: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped (exit {process.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(f"{base}/readyz", timeout=5) as answer:  # noqa: S310 - our own server
                if answer.status == 200:
                    return
        except OSError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the server was not ready within {START_SECONDS} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``uvicorn api.http.app:app`` on a free port with its own new SQLite database; its base URL."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's package (apt-get install -y chromium), see .ci/run")
    folder = tmp_path_factory.mktemp("web-server")
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "VIGUEUR_VERSIONS_DIR")}
    env["VIGUEUR_DATABASE_URL"] = f"sqlite:///{folder / 'vigueur.db'}"
    env.pop("VIGUEUR_RECEIPTS_TOKEN", None)
    log = folder / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "api.http.app:app", "--host", "127.0.0.1", "--port", str(port)],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_ready(base, process, log)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def browser(server: str) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        yield chromium
        chromium.close()


class Offline:
    """Refuses every request to another origin than the server's, and remembers each one."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.refused: list[str] = []

    def __call__(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.base + "/") or url == self.base or url.startswith(("data:", "blob:", "about:")):
            route.continue_()
        else:
            self.refused.append(url)
            route.abort()


@pytest.fixture
def offline(server: str) -> Offline:
    return Offline(server)


@pytest.fixture
def page(browser: Any, server: str, offline: Offline) -> Iterator[Any]:
    """A desktop page whose requests outside the server are refused; the test fails if one was attempted."""
    context = browser.new_context(viewport=DESKTOP, base_url=server, locale="fr-FR")
    context.route("**/*", offline)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    context.close()
    assert offline.refused == [], f"requests left the machine: {offline.refused}"


@pytest.fixture
def phone(browser: Any, server: str, offline: Offline) -> Iterator[Any]:
    """A phone-sized page (390 × 844, touch), offline like ``page``."""
    context = browser.new_context(
        viewport=PHONE, base_url=server, locale="fr-FR", is_mobile=True, has_touch=True, device_scale_factor=2
    )
    context.route("**/*", offline)
    tab = context.new_page()
    tab.set_default_timeout(30_000)
    yield tab
    context.close()
    assert offline.refused == [], f"requests left the machine: {offline.refused}"


def shoot(tab: Any, name: str, *, full_page: bool = True) -> Path:
    """A screenshot into build/screenshots (git-ignored)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    if full_page:
        tab.screenshot(path=str(path), full_page=True)
    else:  # the visible top of the page, 1280 × 720 at most: the README's pictures
        size = tab.viewport_size or DESKTOP
        clip = {"x": 0, "y": 0, "width": size["width"], "height": min(size["height"], 720)}
        tab.screenshot(path=str(path), clip=clip)
    return path
