"""DEBUG is off unless asked for: a debug page shows settings and code to whoever causes an error.
``make run`` leaves it off too unless asked (``make run DEBUG=1``); its development server still
serves the static files (runserver --insecure), and prints sign-in addresses on its RUN_ADDR."""

from __future__ import annotations

import io
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from brag_event.demo.services import _print_credentials
from tests.processes import python_code

ROOT = Path(__file__).resolve().parents[2]


def debug_with(**env_changes: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_DEBUG"}
    env.update(DJANGO_SETTINGS_MODULE="brag_event.settings", **env_changes)
    done = python_code("from django.conf import settings; print(settings.DEBUG)", env, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_debug_is_off_when_nobody_asks() -> None:
    assert debug_with() == "False"
    assert debug_with(DJANGO_DEBUG="") == "False"


@pytest.mark.parametrize(("value", "debug"), [("true", "True"), ("1", "True"), ("false", "False")])
def test_debug_follows_what_is_asked(value: str, debug: str) -> None:
    assert debug_with(DJANGO_DEBUG=value) == debug


def make_run(*args: str) -> list[str]:
    """The commands ``make run`` would run (make -n: nothing is run), with ``args``."""
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", "run", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return [line for line in done.stdout.splitlines() if "manage.py" in line or "load_demo" in line]


def test_make_run_leaves_debug_off_unless_asked() -> None:
    (*_, serve) = make_run()
    assert serve.startswith("DJANGO_DEBUG=false ")
    assert serve.endswith("manage.py runserver --insecure 127.0.0.1:8000")
    for asked in ("DEBUG=1", "DEBUG=true"):
        assert make_run(asked)[-1].startswith("DJANGO_DEBUG=true ")
    assert make_run("DEBUG=0")[-1].startswith("DJANGO_DEBUG=false ")


def test_make_run_prints_its_own_address() -> None:
    commands = "\n".join(make_run("RUN_ADDR=0.0.0.0:8123"))
    assert "c('load_demo', addr='0.0.0.0:8123')" in commands
    assert commands.endswith("runserver --insecure 0.0.0.0:8123")


@pytest.mark.parametrize(
    ("addr", "url"),
    [
        ("127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("0.0.0.0:8123", "http://127.0.0.1:8123"),
        ("8001", "http://127.0.0.1:8001"),
        ("[::1]:8002", "http://[::1]:8002"),
        ("192.168.1.20:9000", "http://192.168.1.20:9000"),
    ],
)
def test_the_demo_prints_sign_in_addresses_on_the_servers_address(addr: str, url: str) -> None:
    out = io.StringIO()
    _print_credentials(lambda line: out.write(line + "\n"), kept=set(), addr=addr)
    assert f"sign in at {url}/organiser/ (the console) or {url}/admin/" in out.getvalue()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:  # nosec B310 - our own server
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, err.read().decode()


@pytest.mark.slow
def test_the_development_server_without_debug_serves_static_files_and_our_404(
    tmp_path: Path,
) -> None:
    """runserver as `make run` starts it (DEBUG off, --insecure): the stylesheet is served, and
    a page not found is our page, not Django's debug page."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_DEBUG", "DATABASE_URL")}
    env.update(
        DJANGO_SETTINGS_MODULE="brag_event.settings",
        DJANGO_DEBUG="false",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
    )
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--insecure", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, css = get(f"http://127.0.0.1:{port}/static/core/brag.css")
                break
            except (ConnectionError, urllib.error.URLError):
                assert time.monotonic() < deadline, "runserver did not start in 60 s"
                time.sleep(0.3)
        assert status == 200 and ".topbar" in css
        status, page = get(f"http://127.0.0.1:{port}/no/such/page/")
        assert status == 404
        assert "We can't find that page" in page and "core/brag.css" in page
        assert "DEBUG = True" not in page
    finally:
        server.terminate()
        server.wait(timeout=30)
