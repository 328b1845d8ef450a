"""A primary and its hot standby for the standby drills (issue 46): each a private cluster
(``services.PrivatePostgres``) in a directory of its own, the primary with the settings of
``deploy/postgres/primary.conf`` (the WAL archive in a temporary directory), the standby made by
``deploy/standby-init.sh``. The deploy's scripts run as the server's user, as in production."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.production.services import HOST, PG_BIN, ROOT, PrivatePostgres, children, tail

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
