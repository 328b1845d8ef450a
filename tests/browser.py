"""Headless Chromium for the browser tests, driven by Playwright against the live test server.

Chromium comes from the system (Debian's ``chromium``, installed by ``.ci/run``). Without it the
browser tests are skipped locally, and fail under CI, where they must run. The session-scoped
``chromium`` fixture (tests/conftest.py) launches it here, once per pytest process; the
tablets' ``browser`` (tests/tablet/conftest.py) is the same one.

Every page of that Chromium reports what the Content-Security-Policy refused (``Watched``):
each browser test fails on any refusal (``csp_violations`` in tests/conftest.py). A page's own
refusals are seen (its ``securitypolicyviolation`` events, and Chromium's console errors about
the policy); a Web Worker's are not visible from outside it — the tablet's engine worker shows
them by failing to boot, which its tests check. (``page.wait_for_function`` takes a function,
``"() => …"``: an expression there is evaluated in the page with ``eval``, which the policy
refuses.)"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "test-results" / "screenshots"  # what the tests saw, for a person to look at
DOCS_SHOTS = ROOT / "docs" / "screenshots"  # the README's

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
# synchronous and safe (Django refuses them by default when a loop is running).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def chromium_path() -> str | None:
    for name in (os.environ.get("BRAG_CHROMIUM", ""), "chromium", "chromium-browser"):
        if name and (found := shutil.which(name)):
            return found
    return None


@contextlib.contextmanager
def launched_chromium() -> Iterator[Any]:
    """Chromium, headless (``Watched``), closed when the block ends; skipped without it (failed
    under CI)."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("no Chromium here (install Debian's chromium to run the browser tests)")
    from playwright.sync_api import expect, sync_playwright

    # A loaded 2-core CI machine can take seconds to answer: wait up to 15 s for the page.
    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        # No GPU (none here): Chromium composites in software rather than emulating a GPU with
        # SwiftShader, 7 % less CPU over the tablet's and the phone's browser tests.
        launched = pw.chromium.launch(executable_path=path, args=["--no-sandbox", "--disable-gpu"])
        yield Watched(launched)
        launched.close()


# Run in every page before its own scripts (Playwright injects it, past the page's policy).
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", function (e) {
  window.__bragCspViolation({
    directive: e.effectiveDirective, blocked: e.blockedURI, page: document.location.href,
    source: e.sourceFile + ":" + e.lineNumber, sample: e.sample,
  });
}, true);
"""


class Watched:
    """The run's Chromium, every context of which reports what the page's
    Content-Security-Policy refused into ``refused`` (one line each, in words)."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self.refused: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)

    def _watch(self, context: Any) -> Any:
        def violation(found: dict[str, Any]) -> None:
            self.refused.append(
                f"{found['directive']} refused {found['blocked'] or 'an inline script or style'}"
                f" on {found['page']} (at {found['source']}; {found['sample']!r})"
            )

        def console(message: Any) -> None:
            if message.type == "error" and "Content Security Policy" in message.text:
                where = message.page.url if message.page else "a page"
                self.refused.append(f"console of {where}: {message.text}")

        context.expose_function("__bragCspViolation", violation)
        context.add_init_script(script=CSP_LISTENER)
        context.on("console", console)
        return context

    def new_context(self, **options: Any) -> Any:
        return self._watch(self._browser.new_context(**options))

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        self._watch(page.context)
        return page

    def take_refused(self) -> list[str]:
        found, self.refused = self.refused, []
        return found


def shots_asked(folder: Path) -> bool:
    """Whether a person asked for the screenshots of ``folder``: ``BRAG_DOCS_SHOTS=1`` for the
    README's (``docs/screenshots/``), ``BRAG_SHOTS=1`` (or ``BRAG_DOCS_SHOTS=1``) for what the
    tests saw (``test-results/screenshots/``). A plain run takes none: they are for people to
    look at, cost Chromium a third of a second of CPU each (about 200 a run), and a run that
    wrote the README's would leave the checkout changed."""
    docs = bool(os.environ.get("BRAG_DOCS_SHOTS"))
    if folder == DOCS_SHOTS:
        return docs
    return docs or bool(os.environ.get("BRAG_SHOTS"))


def shot(page: Any, name: str, *, folder: Path = SHOTS, full_page: bool = True) -> None:
    """A screenshot (the whole page unless ``full_page=False``: the window as it is), ``name``.png
    in ``folder``, when asked for (``shots_asked``)."""
    if shots_asked(folder):
        folder.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(folder / f"{name}.png"), full_page=full_page)


def capture(page: Any, name: str, *, folder: Path = DOCS_SHOTS) -> bytes:
    """A full-page screenshot's PNG for a test to read (a QR code on it, say), always taken;
    also written as ``name``.png in ``folder`` when asked for (``shots_asked``)."""
    if shots_asked(folder):
        folder.mkdir(parents=True, exist_ok=True)
        return bytes(page.screenshot(path=str(folder / f"{name}.png"), full_page=True))
    return bytes(page.screenshot(full_page=True))
