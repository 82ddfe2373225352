"""Browser tests: Debian's headless Chromium, driven by Playwright, against a live server.

Fixtures any browser test can use (the admin search page's tests reuse them):

- `browser`: one Chromium per test module, /usr/bin/chromium (Playwright's own download is
  not used; `playwright install` is never run);
- `login_page(user, password="pw")`: a fresh browser context logged in through the admin's
  login form; returns its Page, already on /admin/;
- `screenshot(page, name)`: a full-page PNG in artifacts/screenshots/<name>.png (git ignores
  artifacts/), returned as a Path.

Every context made from `browser` checks each page it loads in Japanese or Traditional Chinese
for English sentences and ASCII sentence ends (tests/browser/page_language.py); a test whose
pages had any fails at its end, listing them.

The live server runs in this process (pytest-django's `live_server`, so the database is
committed per test and flushed after). Celery publishes to an in-memory broker: work the
pages queue stays queued, and pending chunks stay pending, as with a stopped worker.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.page_language import PageLanguageFindings, page_language_check_attach, page_language_check_now
from tests.ingestion.conftest import celery_broker, fake_backend, no_backend  # noqa: F401 - fixtures

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
VIEWPORT = {"width": 1280, "height": 900}
# Generous for a loaded 2-core machine; a passing step takes milliseconds.
TIMEOUT_MS = 20_000


# What the pages of the running test reported (tests/browser/page_language.py).
PAGE_LANGUAGE = PageLanguageFindings()


def _checked_contexts(chromium) -> None:
    """Every context `chromium.new_context` makes checks its pages' language; closing one
    checks its open pages as they are last (a live part may have been swapped in)."""
    new_context = chromium.new_context

    def checked_new_context(*args, **kwargs):
        context = new_context(*args, **kwargs)
        page_language_check_attach(context, PAGE_LANGUAGE)
        close = context.close

        def checked_close(*close_args, **close_kwargs):
            for page in context.pages:
                page_language_check_now(page, PAGE_LANGUAGE)
            return close(*close_args, **close_kwargs)

        context.close = checked_close
        return context

    chromium.new_context = checked_new_context


@pytest.fixture(autouse=True)
def _page_language_checked() -> Iterator[None]:
    """Fails the test if a page it opened in ja or zh-hant had an English sentence or an ASCII
    sentence end. Set up before the test's other fixtures, so it checks after their contexts close."""
    PAGE_LANGUAGE.take()
    yield
    found = PAGE_LANGUAGE.take()
    if found:
        pytest.fail("English or ASCII sentence ends on ja / zh-hant pages:\n"
                    + "\n".join(f"  {path}: {finding}" for path, finding in found), pytrace=False)


# Module scope, not session: Playwright's sync API keeps an event loop running in this
# thread while it is started, which breaks any later test that calls asyncio.run().
@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        pytest.skip("Browser tests need Debian's chromium (apt-get install chromium fonts-noto-cjk; .ci/run does).")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop running in this thread; Django refuses ORM
    # calls from a thread with a running loop unless told this is deliberate.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        _checked_contexts(chromium)
        try:
            yield chromium
        finally:
            chromium.close()
    if previous is None:
        os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _memory_broker() -> Iterator[str]:
    with celery_broker("memory://") as queue:
        yield queue


@pytest.fixture
def login_page(browser, live_server) -> Iterator[Callable[..., object]]:
    """Factory: a Page in its own context, logged in to the admin as `user`."""
    contexts = []

    def login(user, password: str = "pw", locale: str = "en-US"):
        context = browser.new_context(viewport=VIEWPORT, locale=locale, base_url=live_server.url)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        page.goto("/admin/login/?next=/admin/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", password)
        page.click("input[type=submit]")
        page.wait_for_url(re.compile(r"/admin/$"))
        return page

    yield login
    for context in contexts:
        context.close()


# The committed gallery (screenshots/ at the root), for the pages reviewers look at in each language.
GALLERY = Path(__file__).resolve().parents[2] / "screenshots"


@pytest.fixture
def shot() -> Callable[[object, str], Path]:
    """`shot(page, name)`: a full-page PNG in the committed gallery, screenshots/<name>.png."""
    GALLERY.mkdir(exist_ok=True)

    def take(page, name: str) -> Path:
        path = GALLERY / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def screenshot() -> Callable[[object, str], Path]:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
