"""The private nginx of ``bench.nginx`` (as deploy/ configures it) and gunicorn processes, each
as one web machine runs it, for the tests of what nginx answers and of two web nodes."""

from __future__ import annotations

import os
import re
import signal
import socket
import ssl
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from bench.nginx import Nginx, nginx_binary
from brag_event.core.accesslog import links_masked
from tests.processes import ROOT, gunicorn, stop

__all__ = ["Nginx", "Web", "call", "nginx_binary"]

GUNICORN_CONF = ROOT / "deploy" / "gunicorn.conf.py"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


_UNVERIFIED = ssl.create_default_context()
_UNVERIFIED.check_hostname = False
_UNVERIFIED.verify_mode = ssl.CERT_NONE  # the test's own throw-away certificate


def call(
    url: str, *, headers: dict[str, str] | None = None, data: bytes | None = None
) -> tuple[int, Any, bytes]:
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=30, context=_UNVERIFIED) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


class Web:
    """One gunicorn, as one web machine runs it (``deploy/gunicorn.conf.py``): its own
    environment, address, workers and access log."""

    def __init__(self, root: Path, env: dict[str, str], name: str = "web") -> None:
        self.port = free_port()
        self.access = root / f"{name}.access.log"
        self.log = root / f"{name}.log"
        # Its own runtime directory, as on its own machine: gunicorn's control socket
        # (gunicorn.ctl) would otherwise be one file for every gunicorn of this user.
        runtime = root / f"{name}-run"
        runtime.mkdir(mode=0o700, exist_ok=True)
        self.env = {**env, "XDG_RUNTIME_DIR": str(runtime)}
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, workers: int = 2) -> None:
        with self.log.open("wb") as out:
            self.proc = gunicorn(
                [
                    *("-c", str(GUNICORN_CONF)),
                    *("--workers", str(workers), "--bind", f"127.0.0.1:{self.port}"),
                    *("--access-logfile", str(self.access), "brag_event.wsgi:application"),
                ],
                self.env,
                out,
            )
        deadline = time.monotonic() + 90
        while True:
            try:
                status, _, _ = call(f"http://127.0.0.1:{self.port}/healthz")
                if status == 200:
                    return
            except OSError:
                pass
            assert time.monotonic() < deadline and self.proc.poll() is None, self.log.read_text()
            time.sleep(0.3)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            stop(self.proc)

    def kill(self) -> None:
        """SIGKILL the whole node (arbiter and workers), as a machine that goes away."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def requests(self, path: str) -> list[int]:
        """The statuses of the requests for ``path`` this node has answered so far (a player's
        page by its link's payload: the log masks the rest, brag_event/core/accesslog.py)."""
        if not self.access.exists():
            return []
        # gunicorn writes a request's line just after sending its answer: wait until the log
        # has been still for a moment (at most 5 s).
        deadline = time.monotonic() + 5
        size = -1
        while time.monotonic() < deadline and self.access.stat().st_size != size:
            size = self.access.stat().st_size
            time.sleep(0.3)
        found = []
        for line in self.access.read_text().splitlines():
            m = re.search(r'"[A-Z]+ (\S+) HTTP/[0-9.]+" (\d{3})', line)
            if m and m.group(1) == links_masked(path):
                found.append(int(m.group(2)))
        return found
