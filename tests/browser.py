"""Browser tests in real headless Chromium (Playwright driving the Debian `chromium` executable): the fixtures
``browser``, ``page`` and ``shot``, registered once for the whole suite by tests/conftest.py.

Once, because a session fixture defined (or imported) in two conftest files is two fixtures: the second would
start a second Playwright in the same thread while the first still runs, and every later browser test errors.
Where Chromium is missing the tests are skipped with the reason, except under CI (env CI set), where a missing
browser is a failure: CI must run them.
"""

import os
import shutil
from pathlib import Path

import pytest

# Playwright's sync API runs an event loop in this thread; the test body's ORM calls are still
# plain synchronous code, so Django's async-safety guard must not refuse them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("WIMS_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[1] / "docs" / "screenshots"


def _unavailable(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run under CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed (pip install -e '.[test]')")
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        _unavailable(f"no Chromium at {CHROMIUM} (apt-get install chromium, or set WIMS_CHROMIUM)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.dialogs = []  # any alert() would mean injected script ran
    page.on("dialog", lambda dialog: (page.dialogs.append(dialog.message), dialog.dismiss()))
    page.console_errors = []
    page.on("console", lambda msg: msg.type == "error" and page.console_errors.append(msg.text))
    yield page
    context.close()


@pytest.fixture
def shot():
    """shot(page, "inbox"): saves docs/screenshots/inbox.png when WIMS_SCREENSHOTS=1 (else nothing)."""

    def take(page, name: str, full_page: bool = False) -> None:
        if os.environ.get("WIMS_SCREENSHOTS"):
            SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)

    return take
