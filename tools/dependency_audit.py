"""``make security``'s dependency audit: pip-audit over uv.lock's pinned, hashed set, and a plain
account of what could not be audited.

pip-audit asks PyPI for each pinned release's advisories (``/pypi/NAME/VERSION/json``). Where
that answers nothing (this machine's route to PyPI serves no per-release pages: pip-audit skips
every package and still prints "No known vulnerabilities found"), a skipped package is looked up
on its project page (``/pypi/NAME/json``), whose advisories are those of the project's latest
release: they count only when the lock pins that release. Every other package is reported as
"not audited", never as free of known vulnerabilities.

Exit status: 1 when a vulnerability is known in a pinned release, or when nothing could be
audited at all; 2 with ``--strict`` when some packages could not be audited; else 0.
pip-audit's own JSON is the input, so the wording is tested on a recorded output
(tests/tools/test_dependency_audit.py)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

PROJECT_URL = "https://pypi.org/pypi/{name}/json"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", re.MULTILINE)


@dataclass(frozen=True)
class Finding:
    name: str
    version: str
    ids: tuple[str, ...]
    fixes: tuple[str, ...]


@dataclass
class Report:
    audited: list[str] = field(default_factory=list)
    vulnerable: list[Finding] = field(default_factory=list)
    # name (version) -> why it could not be audited
    not_audited: dict[str, str] = field(default_factory=dict)


def pins(requirements: str) -> dict[str, str]:
    """name -> pinned version, from a requirements file as `uv export` writes it."""
    return {canonicalize_name(n): v for n, v in PIN.findall(requirements)}


def _same(a: str, b: str) -> bool:
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def _finding(name: str, version: str, vulns: Iterable[dict[str, Any]]) -> Finding | None:
    vulns = [v for v in vulns if not v.get("withdrawn")]
    if not vulns:
        return None
    fixes = sorted({f for v in vulns for f in v.get("fix_versions", v.get("fixed_in")) or []})
    return Finding(name, version, tuple(str(v["id"]) for v in vulns), tuple(fixes))


def build_report(
    audit: dict[str, Any],
    pinned: dict[str, str],
    project_page: Callable[[str], dict[str, Any]],
) -> Report:
    """pip-audit's JSON (``-f json``) with each skipped package looked up on its project page
    (``project_page(name)``: PyPI's ``/pypi/NAME/json``, or raises OSError/ValueError)."""
    report = Report()
    skipped = []
    for dep in audit["dependencies"]:
        name = canonicalize_name(dep["name"])
        if "skip_reason" in dep:
            skipped.append(name)
            continue
        report.audited.append(name)
        found = _finding(name, dep["version"], dep.get("vulns", []))
        if found:
            report.vulnerable.append(found)

    def look_up(name: str) -> tuple[str, dict[str, Any] | Exception]:
        try:
            return name, project_page(name)
        except (OSError, ValueError) as exc:
            return name, exc

    with ThreadPoolExecutor(max_workers=8) as pool:
        pages = dict(pool.map(look_up, skipped))
    for name in skipped:
        version = pinned.get(name, "?")
        page = pages[name]
        label = f"{name} {version}"
        if isinstance(page, Exception):
            report.not_audited[label] = f"PyPI did not answer ({page})"
            continue
        latest = str(page["info"]["version"])
        if not _same(latest, version):
            report.not_audited[f"{label} (latest {latest})"] = (
                "PyPI's advisories reachable here cover only a project's latest release"
            )
            continue
        report.audited.append(name)
        found = _finding(name, version, page.get("vulnerabilities") or [])
        if found:
            report.vulnerable.append(found)
    return report


def render(report: Report) -> tuple[list[str], int]:
    """The lines to print and the exit status (without --strict)."""
    lines = []
    total = len(report.audited) + len(report.not_audited)
    for f in report.vulnerable:
        fix = f"fixed in {', '.join(f.fixes)}" if f.fixes else "no fixed release"
        lines.append(f"VULNERABLE: {f.name} {f.version}: {', '.join(f.ids)} ({fix})")
    clean = len(report.audited) - len(report.vulnerable)
    if report.audited:
        lines.append(
            f"audited: {len(report.audited)} of {total} packages; "
            f"{clean} with no known vulnerabilities, {len(report.vulnerable)} vulnerable"
        )
    if report.not_audited:
        names = ", ".join(sorted(report.not_audited))
        lines.append(f"not audited: {len(report.not_audited)} packages ({names})")
        reasons: dict[str, list[str]] = {}
        for label, why in sorted(report.not_audited.items()):
            reasons.setdefault(why, []).append(label)
        lines.extend(f"  {len(labels)}: {why}" for why, labels in reasons.items())
    if not report.audited:
        lines.append("nothing could be audited: the dependencies' vulnerabilities are unknown")
        return lines, 1
    return lines, 1 if report.vulnerable else 0


def _project_page(name: str) -> dict[str, Any]:
    with urllib.request.urlopen(PROJECT_URL.format(name=name), timeout=60) as response:  # nosec B310
        data: dict[str, Any] = json.load(response)
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("requirements", type=Path, help="uv export's requirements file (hashed)")
    parser.add_argument("--strict", action="store_true", help="exit 2 if any is not audited")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "audit.json"
        run = subprocess.run(  # nosec B603: our own interpreter, fixed arguments
            [
                sys.executable,
                "-m",
                "pip_audit",
                "--progress-spinner",
                "off",
                "--disable-pip",
                "--require-hashes",
                "-r",
                str(args.requirements),
                "-f",
                "json",
                "-o",
                str(out),
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        # pip-audit's own summary ("No known vulnerabilities found", even when it skipped every
        # package) is not shown: the report below says what was and was not audited.
        if not out.exists():
            print(
                run.stdout, run.stderr, f"pip-audit failed (exit {run.returncode})", file=sys.stderr
            )
            return 1
        audit = json.loads(out.read_text())
    report = build_report(audit, pins(args.requirements.read_text()), _project_page)
    lines, status = render(report)
    print("\n".join(lines))
    if status == 0 and args.strict and report.not_audited:
        return 2
    return status


if __name__ == "__main__":
    sys.exit(main())
