"""Headless Chromium for the browser tests, driven by Playwright against the live test server.

Chromium comes from the system (Debian's ``chromium``, installed by ``.ci/run``). Without it the
browser tests are skipped locally, and fail under CI, where they must run. The session-scoped
``chromium`` fixture (tests/conftest.py) launches it here, once per pytest process; the
tablets' ``browser`` (tests/tablet/conftest.py) is the same one."""

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
    """Chromium, headless, closed when the block ends; skipped without it (failed under CI)."""
    path = chromium_path()
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Chromium is missing: .ci/run installs Debian's chromium package")
        pytest.skip("no Chromium here (install Debian's chromium to run the browser tests)")
    from playwright.sync_api import expect, sync_playwright

    # A loaded 2-core CI machine can take seconds to answer: wait up to 15 s for the page.
    expect.set_options(timeout=15_000)
    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield launched
        launched.close()


def shot(page: Any, name: str, *, folder: Path = SHOTS) -> None:
    """A full-page screenshot, ``name``.png in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
