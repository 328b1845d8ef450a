"""What the offline tablet loads: Pyodide pinned by its integrity and installed by `make
install`, never fetched at run time; the engine zipped from the project's own source."""

from __future__ import annotations

import io
import json
import re
import zipfile
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles.views import serve
from django.core.files.storage import FileSystemStorage
from django.test import RequestFactory

from brag_event.tablet import vendor
from brag_event.tablet.offline import ENGINE, MODULES, SHELL, engine_zip, offline_version
from brag_event.tablet.staticfiles import TabletStaticStorage

ROOT = Path(__file__).resolve().parents[2]


def test_pyodide_is_pinned_by_version_integrity_and_file_hashes() -> None:
    pin = vendor.lock()
    assert pin["name"] == "pyodide" and re.fullmatch(r"\d+\.\d+\.\d+", pin["version"])
    assert pin["resolved"] == (f"https://registry.npmjs.org/pyodide/-/pyodide-{pin['version']}.tgz")
    assert re.fullmatch(r"sha512-[A-Za-z0-9+/]{86}==", pin["integrity"])
    assert set(pin["files"]) >= {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"}
    assert all(re.fullmatch(r"[0-9a-f]{64}", h) for h in pin["files"].values())


def test_make_install_and_make_run_install_pyodide_and_git_ignores_it() -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert "-m brag_event.tablet.vendor" in makefile
    assert re.search(r"^install: .*\bvendor\b", makefile, re.M)
    assert re.search(r"^install-runtime: .*\bvendor\b", makefile, re.M)
    assert "static/vendor/pyodide/" in (ROOT / ".gitignore").read_text().splitlines()
    assert "brag_event.tablet.vendor" in (ROOT / "deploy" / "Dockerfile").read_text()


def test_a_tampered_file_is_not_installed(tmp_path: Path, monkeypatch: Any) -> None:
    pin = vendor.lock() | {"target": str(tmp_path / "pyodide")}
    monkeypatch.setattr(vendor, "ROOT", Path("/"))
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.mjs").write_text("tampered")
    assert not vendor.installed(pin)
    bad = pin | {"files": {"pyodide.mjs": "0" * 64}}
    with pytest.raises(vendor.VendorError, match="sha256"):
        vendor.install(bad)  # from the cached tarball (make install fetched it)


def test_the_installed_files_match_their_pins() -> None:
    assert vendor.installed(), "run `make install` (or `make vendor`)"


def test_the_engine_zip_is_the_engine_source_named_by_its_hash(client: Any) -> None:
    data, version = engine_zip()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "brag_event/__init__.py" in names
    for path in ENGINE.glob("*.py"):
        assert zipfile.ZipFile(io.BytesIO(data)).read(f"brag_event/engine/{path.name}") == (
            path.read_bytes()
        )
    assert engine_zip() == (data, version)  # the same source, the same name
    answer = client.get(f"/tablet/engine/{version}.zip")
    assert answer.status_code == 200 and answer.content == data
    assert "immutable" in answer["Cache-Control"]
    assert client.get("/tablet/engine/0123456789abcdef.zip").status_code == 404


# Closing a served file ends a request: Django's request_finished then looks at the database
# connections (close_old_connections), which a test without database access may not do once an
# earlier test left a connection open (on SQLite, after the live-server tests).
@pytest.mark.django_db
def test_pyodide_is_served_as_javascript_and_webassembly(rf: Any) -> None:
    """What the development server and the browser tests serve (staticfiles' own view); a
    module script served as anything but JavaScript is refused by the browser."""
    for name, kind in (
        ("pyodide.mjs", "text/javascript"),
        ("pyodide.asm.wasm", "application/wasm"),
    ):
        path = f"vendor/pyodide/{name}"
        answer = serve(rf.get(f"/static/{path}"), path, insecure=True)
        assert answer.status_code == 200, name
        assert answer["Content-Type"].startswith(kind), name
        answer.close()


# Rendering the page reaches the database: a database test, as the worker test above.
@pytest.mark.django_db
def test_the_table_page_names_the_engine_it_runs(client: Any) -> None:
    _data, version = engine_zip()
    page = client.get("/tablet/tables/1/").content.decode()
    assert f"/tablet/engine/{version}.zip" in page
    assert "vendor/pyodide/" in page
    assert json.dumps("https://") not in page  # nothing from the internet


def sw_config(client: Any) -> tuple[Any, dict[str, Any]]:
    answer = client.get("/tablet/sw.js")
    text = answer.content.decode()
    found = re.search(r"^var CONFIG = (\{.*?^\});$", text, re.M | re.S)
    assert found, "the worker names its configuration"
    return answer, json.loads(found.group(1))


# Closing a served file ends a request: Django's request_finished then looks at the database
# connections (close_old_connections), which a test without database access may not do once an
# earlier test left a connection open (on SQLite, after the live-server tests).
@pytest.mark.django_db
def test_the_service_worker_keeps_the_shell_pyodide_and_the_engine_by_version(client: Any) -> None:
    answer, config = sw_config(client)
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    # Checked again at most once a day, and its scope is the tablet's pages.
    assert answer["Cache-Control"] == "max-age=86400"
    assert answer["Service-Worker-Allowed"] == "/tablet/"
    _data, version = engine_zip()
    pin = vendor.lock()
    assert f"/tablet/engine/{version}.zip" in config["runtime_files"]
    assert {f"/static/vendor/pyodide/{name}" for name in pin["files"]} <= set(
        config["runtime_files"]
    )
    assert "/static/tablet/offline/store.js" in config["shell_files"]
    assert "/static/tablet/offline/engine-worker.js" in config["shell_files"]
    assert "/static/tablet/main.js" in config["shell_files"]
    assert config["runtime"].startswith(f"brag-runtime-{pin['version']}-")
    assert config["runtime_reuse"] == f"brag-runtime-{pin['version']}-"
    assert re.fullmatch(r"brag-shell-[0-9a-f]{16}", config["shell"])
    # Every file it keeps is served (a missing one would stop the worker's install).
    for url in config["shell_files"]:
        path = url.removeprefix("/static/")
        served = serve(RequestFactory().get(url), path, insecure=True)
        assert served.status_code == 200, url
        served.close()
    assert client.get(config["runtime_files"][-1]).status_code == 200


def test_a_new_engine_or_changed_file_brings_new_cache_names() -> None:
    shell = {"tablet/tablet.js": b"one", "tablet/tablet.css": b"two"}
    base = offline_version(shell, "sha512-a", "0011223344556677")
    assert offline_version(dict(shell), "sha512-a", "0011223344556677") == base
    changed = offline_version(shell | {"tablet/tablet.js": b"one!"}, "sha512-a", "0011223344556677")
    assert changed[0] != base[0] and changed[1] == base[1]  # the shell's cache only
    engine = offline_version(shell, "sha512-a", "8899aabbccddeeff")
    assert engine[0] == base[0] and engine[1] != base[1]  # the runtime's cache only
    assert offline_version(shell, "sha512-b", "0011223344556677")[1] != base[1]


@pytest.mark.django_db
def test_the_table_page_loads_the_store_and_registers_the_worker(client: Any) -> None:
    page = client.get("/tablet/tables/1/").content.decode()
    assert "tablet/offline/store.js" in page
    assert 'id="engine-status"' in page and 'id="sw-status"' in page
    assert 'type="module" src="/static/tablet/main.js"' in page
    script = (ROOT / "static" / "tablet" / "offline-glue.js").read_text()
    assert 'register("/tablet/sw.js", { scope: "/tablet/", updateViaCache: "all" })' in script


IMPORT = re.compile(r"""^(?:import|export)\b[^;]*?\bfrom\s*"\./([\w.-]+\.js)";""", re.M | re.S)


def test_the_worker_keeps_every_module_of_the_tablet_and_each_import_is_one_of_them() -> None:
    # A module the worker does not keep would stop a start-up with no network (the import fails).
    folder = ROOT / "static" / "tablet"
    on_disk = {f"tablet/{path.name}" for path in folder.glob("*.js")} - {"tablet/floor.js"}
    assert set(MODULES) == on_disk
    assert set(MODULES) <= set(SHELL)
    for name in MODULES:
        text = (ROOT / "static" / name).read_text()
        for imported in IMPORT.findall(text):
            assert f"tablet/{imported}" in MODULES, (name, imported)
    imported_by_main = set(IMPORT.findall((folder / "main.js").read_text()))
    assert imported_by_main >= {"login.js", "tables.js", "table.js"}


def test_in_production_the_modules_import_one_another_by_their_hashed_names(tmp_path: Path) -> None:
    # A hashed main.js importing plain names would mix two releases (nginx keeps a plain name
    # for an hour) and miss the worker's copies (hashed); and an import cycle cannot be hashed.
    source = FileSystemStorage(location=ROOT / "static")
    storage = TabletStaticStorage(location=tmp_path, base_url="/static/")
    for name in MODULES:
        with source.open(name) as handle:
            storage.save(name, handle)
    done = list(storage.post_process({name: (source, name) for name in MODULES}))
    problems = [processed for _name, _hashed, processed in done if isinstance(processed, Exception)]
    assert not problems
    hashed = {name: storage.stored_name(name) for name in MODULES}
    assert all(re.fullmatch(r"tablet/[\w-]+\.[0-9a-f]{12}\.js", h) for h in hashed.values())
    for name in MODULES:
        text = storage.open(hashed[name]).read().decode()
        for imported in IMPORT.findall(text):
            assert f"tablet/{imported}" in hashed.values(), (name, imported)
    main = storage.open(hashed["tablet/main.js"]).read().decode()
    assert f'from "./{hashed["tablet/table.js"].removeprefix("tablet/")}";' in main
