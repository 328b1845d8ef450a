"""Private services for the production run: a PostgreSQL cluster, a Redis, a Celery worker (and
gunicorn through ``bench.api.Server``), each a subprocess in a process group of its own under a
temporary directory, so that the faults the run injects touch nothing else.

Also the bits of ``/proc`` the faults need: a process's children, and which process holds the
TCP connection with a given local port."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from bench.clusters import (  # noqa: F401 - the tests' names for them, kept here
    DB_NAME,
    HOST,
    PG_BIN,
    ROOT,
    PrivatePostgres,
    children,
    free_port,
    tail,
)
from bench.common import spawn_logged


def missing() -> str:
    """Why this machine cannot run the production run ('' when it can)."""
    for name in ("initdb", "pg_ctl", "postgres"):
        if not (PG_BIN / name).exists():
            return f"PostgreSQL server binaries not found in {PG_BIN}"
    if shutil.which("redis-server") is None:
        return "redis-server not found"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run PostgreSQL as"
    return ""


def kill_group(proc: subprocess.Popen[Any] | None, sig: int = signal.SIGTERM) -> None:
    """Signal a process group (the process was started with ``start_new_session``), wait for the
    leader, and SIGKILL whatever is left after 10 s."""
    if proc is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=5)
    for _ in range(50):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)


# --------------------------------------------------------------------------------------------
# PostgreSQL: bench.clusters.PrivatePostgres (the benchmarks use it too)


# --------------------------------------------------------------------------------------------
# Redis and Celery


class PrivateRedis:
    def __init__(self, root: Path) -> None:
        self.dir = root / "redis"
        self.log = self.dir / "redis.log"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start it (again, after ``stop``: same port, empty — nothing is saved to disk)."""
        self.dir.mkdir(exist_ok=True)
        self.proc = subprocess.Popen(
            ["redis-server", "--bind", HOST, "--port", str(self.port), "--save", "",
             "--appendonly", "no", "--dir", str(self.dir), "--logfile", str(self.log)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.ping():
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError("the private Redis did not start\n" + tail(self.log))

    def ping(self) -> bool:
        try:
            with socket.create_connection((HOST, self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def stop(self) -> None:
        kill_group(self.proc)


class CeleryWorker:
    """``celery worker -P solo``: one process, so a SIGKILL takes the task it runs with it."""

    def __init__(self, env: dict[str, str], log: Path, beat: Path | None = None) -> None:
        self.env = env
        self.log = log
        self.beat = beat  # Celery beat in the worker (``-B``), its schedule kept in this file
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60) -> None:
        offset = self.log.stat().st_size if self.log.exists() else 0
        self.proc = spawn_logged(
            [sys.executable, "-m", "celery", "-A", "brag_event.celery", "worker", "-P", "solo",
             "--without-heartbeat", "--without-mingle", "--without-gossip", "-l", "info",
             *(["-B", "-s", str(self.beat)] if self.beat else [])],
            self.log,
            cwd=ROOT,
            env=self.env,
        )  # fmt: skip
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self.log.open("rb") as f:
                f.seek(offset)
                if b" ready." in f.read():
                    return
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        raise RuntimeError("the Celery worker did not become ready\n" + tail(self.log))

    def kill(self) -> None:
        """SIGKILL, no warning: the task in hand is neither finished nor acknowledged."""
        assert self.proc is not None
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        kill_group(self.proc)


# --------------------------------------------------------------------------------------------
# /proc


def socket_inode(local_port: int, remote_port: int) -> int | None:
    """The inode of the established IPv4 TCP connection from ``local_port`` to
    ``remote_port`` on the loopback."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
        if (
            state == "01"
            and int(local.split(":")[1], 16) == local_port
            and int(remote.split(":")[1], 16) == remote_port
        ):
            return int(inode)
    return None


def holder(pids: set[int], inode: int) -> int | None:
    """Which of ``pids`` has the socket ``inode`` open."""
    wanted = f"socket:[{inode}]"
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == wanted:
                        return pid
    return None


@contextlib.contextmanager
def suppress_all() -> Iterator[None]:
    """For teardown: one failing clean-up step must not skip the others."""
    try:
        yield
    except Exception as err:  # pragma: no cover - reported, not raised
        print(f"teardown: {type(err).__name__}: {err}", file=sys.stderr)


def stop_everything(
    *, worker: Any, server: Any, redis: PrivateRedis, pg: PrivatePostgres, root: Path
) -> None:
    """Tear a private site down in order (worker, gunicorn, Redis, PostgreSQL, the files), each
    step whatever the others did."""
    if worker is not None:
        with suppress_all():
            worker.stop()
    if server is not None:
        with suppress_all():
            server.stop()
        with suppress_all():
            server.cleanup()
    with suppress_all():
        redis.stop()
    with suppress_all():
        pg.stop()
    shutil.rmtree(root, ignore_errors=True)
