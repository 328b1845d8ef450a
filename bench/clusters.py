"""PostgreSQL clusters of their own for the benchmarks and the production tests: a private
cluster (``PrivatePostgres``: initdb in a temporary directory, its own port), and a primary with
its hot standby made by the deploy's own scripts (``deploy/standby-init.sh``,
``deploy/sync-guard.sh``) — used by ``bench.event --standby`` and by the standby drills
(``tests/production/test_standby.py``). Here, not in tests/, because bench/ imports nothing of
tests/; the tests import it.

A primary has the settings of ``deploy/postgres/primary.conf`` (the WAL archive in a temporary
directory); the deploy's scripts run as the server's user, as in production. Also the bit of
``/proc`` a kill needs: a process's children."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
PG_BIN = Path(os.environ.get("BRAG_PG_BIN", "/usr/lib/postgresql/15/bin"))
DB_NAME = "brag"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def tail(path: Path, lines: int = 60) -> str:
    if not path.exists():
        return f"({path.name}: no log)"
    text = path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:]
    return f"--- {path.name} (last {len(text)} lines)\n" + "\n".join(text)


def children(pid: int) -> set[int]:
    out: set[int] = set()
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            raw = Path(f"/proc/{entry.name}/stat").read_text()
            if int(raw[raw.rindex(")") + 2 :].split()[1]) == pid:
                out.add(int(entry.name))
    return out


class PrivatePostgres:
    """A cluster of its own: initdb in ``root/pg``, trust auth, loopback only, no fsync. As root
    (CI) every server command runs as the ``postgres`` user."""

    def __init__(self, root: Path) -> None:
        self.dir = root / "pg"
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"
        self.port = free_port()
        self.user: str | None = "postgres" if os.geteuid() == 0 else None

    def _run(self, *args: str, timeout: float = 90) -> str:
        done = subprocess.run(
            [str(PG_BIN / args[0]), *args[1:]],
            user=self.user,
            cwd="/",
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
            start_new_session=True,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{args[0]} failed ({done.returncode}):\n{done.stdout}{done.stderr}\n"
                + tail(self.log)
            )
        return done.stdout

    def init(self) -> None:
        self.dir.mkdir(mode=0o700)
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self._run(
            "initdb", "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8",
            "--locale=C", "--no-sync",
        )  # fmt: skip
        settings = {
            "listen_addresses": f"'{HOST}'",
            "port": str(self.port),
            "unix_socket_directories": f"'{self.dir}'",
            "fsync": "off",
            "synchronous_commit": "off",
            "full_page_writes": "off",
            "max_connections": "50",
            "shared_buffers": "32MB",
            "logging_collector": "off",
            "log_min_messages": "warning",
        }
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write("\n# production run\n")
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())

    def pg_ctl(self, *args: str) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w", "-t", "60", *args)

    def start(self) -> None:
        self.pg_ctl("start")
        with self.connect("postgres") as conn:
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')

    def restart(self) -> None:
        """A fast restart: every connection is cut, in-flight transactions are rolled back."""
        self.pg_ctl("-m", "fast", "restart")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.pg_ctl("-m", "immediate", "stop")
        pidfile = self.data / "postmaster.pid"
        if pidfile.exists():  # pg_ctl could not stop it: the postmaster's pid is the first line
            with contextlib.suppress(ValueError, OSError):
                os.kill(int(pidfile.read_text().split()[0]), signal.SIGKILL)

    @property
    def url(self) -> str:
        return f"postgres://postgres@{HOST}:{self.port}/{DB_NAME}"

    def connect(self, dbname: str = DB_NAME, autocommit: bool = True) -> psycopg.Connection[Any]:
        return psycopg.connect(
            host=HOST, port=self.port, user="postgres", dbname=dbname, autocommit=autocommit
        )


DEPLOY = ROOT / "deploy"
STANDBY_NAME = "brag_standby"


class Cluster(PrivatePostgres):
    """A private cluster in ``root/name`` (its own port and socket directory)."""

    def __init__(self, root: Path, name: str) -> None:
        super().__init__(root)
        self.name = name
        self.dir = root / name
        self.data = self.dir / "data"
        self.log = self.dir / "postgres.log"

    def server(self) -> str:
        """libpq's connection string for the server, no database named."""
        return f"host={HOST} port={self.port} user=postgres"

    def conninfo(self, dbname: str = "postgres") -> str:
        return f"{self.server()} dbname={dbname}"

    def script(self, name: str, *args: str, env: dict[str, str] | None = None) -> str:
        """``deploy/<name>`` as the server's user (root runs it as ``postgres``); its stdout."""
        done = subprocess.run(
            [str(DEPLOY / name), *args],
            user=self.user,
            cwd="/",
            env={**os.environ, "PG_BIN": str(PG_BIN), **(env or {})},
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{name} failed ({done.returncode}):\n{done.stdout}{done.stderr}\n{tail(self.log)}"
            )
        return done.stdout

    def configure(self, settings: dict[str, str]) -> None:
        with (self.data / "postgresql.auto.conf").open("a", encoding="utf-8") as conf:
            conf.writelines(f"{k} = {v}\n" for k, v in settings.items())

    def sql(self, query: str, *params: Any) -> Any:
        with self.connect() as conn:
            cur = conn.execute(query, params or None)
            row = cur.fetchone() if cur.description else None
        return row[0] if row else None

    def postmaster(self) -> int:
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def kill_machine(self) -> None:
        """The machine goes away: SIGKILL to the postmaster, then to every process it started."""
        pid = self.postmaster()
        backends = children(pid)
        os.kill(pid, signal.SIGKILL)
        for child in backends:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)


def owned_dir(cluster: Cluster, path: Path) -> Path:
    """A directory the server's user may write into (the test's root belongs to root in CI)."""
    path.mkdir(mode=0o700)
    if cluster.user is not None:
        shutil.chown(path, cluster.user, cluster.user)
    return path


def template(root: Path, migrate_and_seed: Callable[[str], dict[str, Any]]) -> tuple[Path, Any]:
    """A cluster migrated and seeded once (``migrate_and_seed(url)``), stopped: each drill
    starts from a copy of its data directory instead of migrating again."""
    cluster = Cluster(root, "template")
    cluster.init()
    cluster.start()
    try:
        seeded = migrate_and_seed(cluster.url)
    finally:
        cluster.pg_ctl("-m", "fast", "stop")
    return cluster.data, seeded


def primary_with_archive(root: Path, data: Path) -> tuple[Cluster, Path]:
    """The primary, from a copy of the template's ``data``, started and archiving into
    ``root/archive``; it waits for no standby until ``sync_guard`` finds one streaming."""
    primary = Cluster(root, "primary")
    archive = owned_dir(primary, root / "archive")
    owned_dir(primary, primary.dir)
    subprocess.run(["cp", "-a", str(data), str(primary.data)], check=True, timeout=120)
    primary.configure(
        {
            "port": str(primary.port),
            "unix_socket_directories": f"'{primary.dir}'",
            # deploy/postgres/primary.conf's, the archive in the test's directory.
            "wal_level": "replica",
            "max_wal_senders": "10",
            "max_replication_slots": "10",
            "hot_standby": "on",
            "wal_log_hints": "on",
            "synchronous_commit": "on",
            # Set by deploy/sync-guard.sh once the standby streams (as in production).
            "synchronous_standby_names": "''",
            "archive_mode": "on",
            "archive_command": f"'BRAG_WAL_ARCHIVE={archive} {DEPLOY}/archive-wal.sh %p %f'",
            "archive_timeout": "60",
        }
    )
    primary.pg_ctl("start")
    return primary, archive


def standby_of(primary: Cluster, root: Path) -> Cluster:
    """A hot standby of ``primary`` by ``deploy/standby-init.sh``, started and streaming."""
    standby = Cluster(root, "standby")
    owned_dir(standby, standby.dir)
    primary.script(
        "standby-init.sh", f"host={HOST} port={primary.port} user=postgres", str(standby.data)
    )
    # Its own port and socket (on one machine here): the rest is the primary's configuration.
    standby.configure({"port": str(standby.port), "unix_socket_directories": f"'{standby.dir}'"})
    standby.pg_ctl("start")
    return standby


def sync_guard(primary: Cluster) -> str:
    """One run of ``deploy/sync-guard.sh`` on the primary (the timer's, every 5 s)."""
    primary.script("sync-guard.sh", env={"BRAG_PG_CONNINFO": primary.conninfo()})
    return str(primary.sql("SHOW synchronous_standby_names"))


def streaming(primary: Cluster) -> bool:
    return bool(
        primary.sql(
            "SELECT count(*) FROM pg_stat_replication WHERE application_name = %s "
            "AND state = 'streaming'",
            STANDBY_NAME,
        )
    )
