"""Debian's chromium, headless, driven by selenium through chromium-driver: the real browser of
the table view's tests and ``companion bench view``. Nothing is downloaded: selenium is told
where chromedriver and chromium are (Selenium Manager would otherwise fetch a browser)."""

from __future__ import annotations

import os
import shutil
import tempfile
from typing import Any

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars")


def missing() -> str | None:
    """Why the browser cannot run here, or None when it can."""
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        return "chromium and chromium-driver are not installed (./run setup installs them as root)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e .[dev])"
    return None


class Browser:
    """One headless chromium with a fresh profile, removed on close."""

    def __init__(self, width: int = 1920, height: int = 1080) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="companion-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_argument(f"--window-size={width},{height}")
        service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver",
                          log_output=os.devnull)
        self.driver: Any = webdriver.Chrome(options=options, service=service)
        self.size(width, height)

    def size(self, width: int, height: int) -> None:
        """The page's own size (a TV's 1920 by 1080, a phone's 430 by 900), not the window's."""
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})

    def open(self, url: str) -> None:
        self.driver.get(url)

    def wait_for(self, script: str, timeout: float = 10.0) -> Any:
        """Wait until the JavaScript expression ``script`` is truthy; return its value."""
        from selenium.webdriver.support.ui import WebDriverWait

        return WebDriverWait(self.driver, timeout, poll_frequency=0.02).until(
            lambda d: d.execute_script(f"return ({script});"))

    def text(self) -> str:
        return str(self.driver.execute_script("return document.body.innerText;"))

    def screenshot(self, path: str) -> None:
        self.driver.save_screenshot(path)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
