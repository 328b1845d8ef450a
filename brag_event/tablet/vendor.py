"""Install the tablet's pinned Pyodide into ``static/vendor/pyodide/`` (``make install``).

``static/vendor/pyodide.lock.json`` pins the npm package (version, tarball, the registry's
sha512 integrity) and the sha256 of every file taken from it. The tarball is fetched once from
the npm registry into the user's cache (``~/.cache/brag-event/npm/``), checked against its
integrity, and only the listed files are unpacked; files already in place with the right hashes
are left alone, so running it again costs a few hashes. Nothing is ever loaded from the internet
at run time: the tablet's pages load these files from ``static/``.

Standard library only: ``python3 -m brag_event.tablet.vendor`` runs before any venv exists."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import sys
import tarfile
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "static" / "vendor" / "pyodide.lock.json"


class VendorError(Exception):
    """The package could not be installed exactly as pinned."""


def lock() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LOCK.read_text())
    return data


def target_dir(pin: dict[str, Any] | None = None) -> Path:
    return ROOT / (pin or lock())["target"]


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "brag-event" / "npm"


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def integrity_of(data: bytes) -> str:
    """npm's ``integrity`` string (Subresource Integrity, sha512) of a tarball."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def installed(pin: dict[str, Any] | None = None) -> bool:
    """Whether every pinned file is in place with its pinned hash."""
    pin = pin or lock()
    where = target_dir(pin)
    return all(
        (where / name).is_file() and _sha256(where / name) == digest
        for name, digest in pin["files"].items()
    )


def _tarball(pin: dict[str, Any]) -> bytes:
    cached = _cache_dir() / f"{pin['name']}-{pin['version']}.tgz"
    if cached.is_file():
        data = cached.read_bytes()
        if integrity_of(data) == pin["integrity"]:
            return data
    url = pin["resolved"]  # https on the npm registry only, and checked by its integrity
    if not url.startswith("https://registry.npmjs.org/"):
        raise VendorError(f"{url} is not on the npm registry")
    with urllib.request.urlopen(url, timeout=120) as answer:  # nosec B310
        data = answer.read()
    if integrity_of(data) != pin["integrity"]:
        raise VendorError(f"{url} does not match its pinned integrity {pin['integrity']}")
    cached.parent.mkdir(parents=True, exist_ok=True)
    part = cached.with_suffix(f".part{os.getpid()}")
    part.write_bytes(data)
    part.replace(cached)
    return data


def install(pin: dict[str, Any] | None = None) -> Path:
    """Put the pinned files in place (fetching the tarball if needed); returns the folder."""
    pin = pin or lock()
    where = target_dir(pin)
    if installed(pin):
        return where
    data = _tarball(pin)
    where.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        for name, digest in pin["files"].items():
            member = archive.extractfile(f"package/{name}")
            if member is None:
                raise VendorError(f"{name} is not in {pin['name']} {pin['version']}")
            content = member.read()
            if hashlib.sha256(content).hexdigest() != digest:
                raise VendorError(f"{name} does not match its pinned sha256")
            part = where / f".{name}.part"
            part.write_bytes(content)
            part.replace(where / name)
    (where / "VERSION").write_text(f"{pin['name']} {pin['version']} {pin['integrity']}\n")
    return where


def main() -> int:
    pin = lock()
    try:
        where = install(pin)
    except (OSError, VendorError) as err:
        print(f"{pin['name']} {pin['version']}: {err}", file=sys.stderr)
        return 1
    print(f"{pin['name']} {pin['version']} in {where.relative_to(ROOT)} (integrity checked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
