"""make security's wording (tools/dependency_audit.py), on pip-audit's JSON as recorded on this
machine (2026-11-28: every package skipped, "Dependency not found on PyPI") and on project pages
written here: no network."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tools.dependency_audit import build_report, pins, render

RECORDED = Path(__file__).parent / "recorded" / "pip-audit-all-skipped.json"
PINNED = pins(
    "certifi==2026.10.18 \\\n    --hash=sha256:00\n"
    "django==5.2.19 \\\n    --hash=sha256:01\n"
    "segno==1.6.6 \\\n    --hash=sha256:02\n"
    "weasyprint==68.1 ; python_version >= '3.11' \\\n    --hash=sha256:03\n"
)
ADVISORY = {"id": "PYSEC-2026-1", "fixed_in": ["1.6.7"], "withdrawn": None}


def _pages(**latest: str) -> Any:
    def page(name: str) -> dict[str, Any]:
        if name not in latest:
            raise OSError("unreachable")
        vulns = [ADVISORY] if name == "segno" and latest[name].endswith("!") else []
        return {"info": {"version": latest[name].rstrip("!")}, "vulnerabilities": vulns}

    return page


def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORDED.read_text())
    return data


def test_skipped_packages_are_never_reported_free_of_vulnerabilities() -> None:
    report = build_report(_recorded(), PINNED, _pages())
    lines, status = render(report)
    text = "\n".join(lines)
    assert "no known vulnerabilities" not in text.lower()
    assert "not audited: 4 packages (" in text
    assert "django 5.2.19" in text
    assert "nothing could be audited" in text
    assert status == 1


def test_a_pin_at_the_latest_release_is_audited_from_its_project_page() -> None:
    pages = _pages(certifi="2026.10.19.post1", django="6.1.3", segno="1.6.6", weasyprint="68.1")
    lines, status = render(build_report(_recorded(), PINNED, pages))
    assert lines[0] == "audited: 2 of 4 packages; 2 with no known vulnerabilities, 0 vulnerable"
    assert lines[1] == (
        "not audited: 2 packages (certifi 2026.10.18 (latest 2026.10.19.post1), "
        "django 5.2.19 (latest 6.1.3))"
    )
    assert "cover only a project's latest release" in lines[2]
    assert status == 0


def test_a_known_vulnerability_fails_the_audit() -> None:
    pages = _pages(certifi="2026.10.18", django="5.2.19", segno="1.6.6!", weasyprint="68.1")
    lines, status = render(build_report(_recorded(), PINNED, pages))
    assert lines[0] == "VULNERABLE: segno 1.6.6: PYSEC-2026-1 (fixed in 1.6.7)"
    assert lines[1] == "audited: 4 of 4 packages; 3 with no known vulnerabilities, 1 vulnerable"
    assert status == 1


def test_pip_audits_own_findings_are_reported() -> None:
    audit = {
        "dependencies": [
            {
                "name": "Django",
                "version": "5.2.19",
                "vulns": [{"id": "GHSA-x", "fix_versions": ["5.2.20"], "aliases": []}],
            },
        ],
        "fixes": [],
    }
    lines, status = render(build_report(audit, PINNED, _pages()))
    assert lines == [
        "VULNERABLE: django 5.2.19: GHSA-x (fixed in 5.2.20)",
        "audited: 1 of 1 packages; 0 with no known vulnerabilities, 1 vulnerable",
    ]
    assert status == 1
