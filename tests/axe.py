"""axe-core (vendored, tests/vendor/axe-core, integrity pinned) run in a Playwright page: the
WCAG 2 A and AA rules, every violation listed in words when there is one."""

from __future__ import annotations

import base64
import hashlib
from functools import cache
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_INTEGRITY = (
    "sha512-5j5ln5gG165b1AiZBDsIcaUGLFRCsBs/Gj7fXq9Qv1w6cQSnJGMp"
    "O0rRt3xmGg1OQOhQ3sid6dbs5wqME6mvFw=="
)
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]


@cache
def axe_source() -> str:
    """The vendored axe-core, refused if it is not the pinned file."""
    data = AXE.read_bytes()
    found = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    assert found == AXE_INTEGRITY, (
        f"tests/vendor/axe-core/axe.min.js is not axe-core 4.14.1 ({found})"
    )
    return data.decode()


def violations(page: Any) -> list[dict[str, Any]]:
    """axe-core's WCAG 2 A/AA violations on the page as it is now."""
    if not page.evaluate("typeof window.axe === 'object'"):
        # From the page's own origin (Playwright answers the request), not an inline script:
        # the Content-Security-Policy refuses inline scripts.
        url = page.evaluate("location.origin") + "/__tests__/axe.min.js"
        page.route(
            url, lambda route: route.fulfill(body=axe_source(), content_type="text/javascript")
        )
        page.add_script_tag(url=url)
    result: dict[str, Any] = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", WCAG_TAGS
    )
    return list(result["violations"])


def assert_no_violations(page: Any) -> None:
    found = violations(page)
    said = [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(n["target"][0] if n["target"] else "?" for n in v["nodes"][:5])
        for v in found
    ]
    assert not found, "axe-core: " + "\n".join(said)
