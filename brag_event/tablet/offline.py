"""The engine the tablet runs in the browser: this project's own ``brag_event/engine`` package,
zipped from the source when first asked for (never a copy kept anywhere), named by the hash of
its content so that a tablet caches it for good and a release brings a new name."""

from __future__ import annotations

import hashlib
import io
import zipfile
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[1] / "engine"
# The package's top in the zip: an empty ``brag_event`` (the engine needs nothing else of it).
TOP = b'"""Only the rules engine of Brag Event, for the tablet\'s browser (Pyodide)."""\n'
_STAMP = (1980, 1, 1, 0, 0, 0)  # fixed times: the same source gives the same zip and name

_memo: dict[tuple[tuple[str, int, int], ...], tuple[bytes, str]] = {}


def _sources() -> list[Path]:
    return sorted(ENGINE.glob("*.py"))


def engine_zip() -> tuple[bytes, str]:
    """The zip of ``brag_event/engine`` (with an empty ``brag_event/__init__.py``) and its
    version: the first 16 hex digits of its sha256. Rebuilt when a source file changes."""
    files = _sources()
    key = tuple((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in files)
    found = _memo.get(key)
    if found is not None:
        return found
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("brag_event/__init__.py", _STAMP), TOP)
        for path in files:
            info = zipfile.ZipInfo(f"brag_event/engine/{path.name}", _STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    made = (data, hashlib.sha256(data).hexdigest()[:16])
    _memo.clear()
    _memo[key] = made
    return made


# What the service worker (/tablet/sw.js) keeps for a tablet that opens with no network: the
# tablet's pages' scripts, styles and icons (their static names, hashed in production), Pyodide's
# pinned files and the engine's zip. The table pages themselves are kept as they are visited.
# The tablet's own code: browser ES modules (no build step), main.js importing the rest; every
# one is listed (a module missing here would stop an offline start-up: tests/tablet/
# test_offline_assets.py checks the list against the folder and the imports).
MODULES = tuple(
    f"tablet/{name}.js"
    for name in (
        "main",
        "dom",
        "api",
        "login",
        "tables",
        "state",
        "table",
        "server",
        "queue",
        "render",
        "dialogs",
        "wake",
        "offline-glue",
        "shift",
    )
)
SHELL = (
    "tablet/tablet.css",
    *MODULES,
    "tablet/floor.css",
    "tablet/floor.js",
    "tablet/offline/store.js",
    "tablet/offline/engine-client.js",
    "tablet/offline/offline.js",
    "tablet/offline/engine-worker.js",
    "icons/favicon.svg",
    "icons/favicon-32.png",
    "icons/apple-touch-icon.png",
)


def offline_version(shell: dict[str, bytes], pyodide: str, engine: str) -> tuple[str, str]:
    """The two cache names' versions: the shell's (the hash of its files' content) and the
    runtime's (Pyodide's pinned integrity and the engine's hash). A release that changes a file
    brings a new shell cache; Pyodide's ten megabytes are fetched again only when Pyodide or the
    engine changed."""
    digest = hashlib.sha256()
    for name in sorted(shell):
        digest.update(name.encode() + b"\0" + hashlib.sha256(shell[name]).digest())
    return digest.hexdigest()[:16], runtime_version(pyodide, engine)


def runtime_version(pyodide: str, engine: str) -> str:
    """The runtime cache's version: the hash of Pyodide's pinned integrity and the engine's."""
    return hashlib.sha256(f"{pyodide}\0{engine}".encode()).hexdigest()[:16]


def runtime_cache(pin: dict[str, object], engine: str) -> str:
    """The name of the cache that keeps Pyodide's files and the engine's zip. The service worker
    (/tablet/sw.js) and the table page's engine worker both use it: whichever of them fetches a
    file first keeps it there, and the other reads it from there (each file fetched once)."""
    return f"brag-runtime-{pin['version']}-{runtime_version(str(pin['integrity']), engine)}"
