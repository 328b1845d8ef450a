"""A backup restores: data built through the services in a database of its own is dumped with
``deploy/backup.sh``, restored with ``deploy/restore.sh`` into another fresh database, and
there the migrations are complete, the ledger audit passes and the rows are all back.

Needs PostgreSQL (``DATABASE_URL=postgres://…``) and its client tools: skipped locally without
them, a failure under CI. Both databases are made here, next to the test database, and dropped
at the end."""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import dj_database_url
import psycopg
import pytest
from psycopg import sql

from brag_event.hands.models import Hand, HandAction
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player

ROOT = Path(__file__).resolve().parents[2]
BACKUP = ROOT / "deploy" / "backup.sh"
RESTORE = ROOT / "deploy" / "restore.sh"
COUNTED = {
    "players": Player._meta.db_table,
    "hands": Hand._meta.db_table,
    "hand actions": HandAction._meta.db_table,
    "transfers": Transfer._meta.db_table,
}

# Run in a subprocess with DATABASE_URL naming the source database: an event, five players (one
# not seated), five hands played through the services and a sixth left in play.
SEED = textwrap.dedent(
    """
    import random

    import django

    django.setup()

    from brag_event.hands.selectors import hand_state
    from brag_event.players.services import player_register
    from tests.factories import act, start, world

    rng = random.Random(2026)
    w = world(4, money=1000, buy_in=200)
    player_register(event=w.event, name="Gina", starting_money=500, by=None)
    for number in range(6):
        hand = start(w)
        state = hand_state(hand)
        for step in range(60):
            if state.is_settled or (number == 5 and step == 3):
                break
            legal = [
                a for a in state.legal_actions()
                if a.allowed and a.action in ("look", "bet", "fold")
            ]
            bets = [a for a in legal if a.action in ("look", "bet")]
            if bets and step < 8:
                choice = rng.choice(bets)
            else:
                choice = next(a for a in legal if a.action == "fold")
            action = {"seat": choice.seat, "action": choice.action}
            if choice.action == "bet":
                action["amount"] = choice.min_amount
            hand, state = act(hand, **action)
        assert state.is_settled or number == 5
    print("seeded")
    """
)


def require(ok: bool, why: str) -> None:
    if not ok:
        if os.environ.get("CI"):
            pytest.fail(why + " (CI must run the restore test)")
        pytest.skip(why)


@dataclass
class Server:
    """Where the test's databases live: the server of DATABASE_URL."""

    params: dict[str, Any]

    def url(self, name: str) -> str:
        p = self.params
        auth = p["USER"] + (f":{p['PASSWORD']}" if p["PASSWORD"] else "")
        return f"postgres://{auth}@{p['HOST'] or '127.0.0.1'}:{p['PORT'] or 5432}/{name}"

    def connect(self, name: str = "postgres") -> psycopg.Connection[Any]:
        p = self.params
        return psycopg.connect(
            dbname=name,
            user=p["USER"],
            password=p["PASSWORD"] or None,
            host=p["HOST"] or "127.0.0.1",
            port=p["PORT"] or 5432,
            autocommit=True,
        )

    def create(self, name: str) -> None:
        with self.connect() as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))

    def drop(self, name: str) -> None:
        with self.connect() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )

    def counts(self, name: str) -> dict[str, int]:
        with self.connect(name) as conn:
            return {
                what: conn.execute(
                    sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(table))
                ).fetchone()[0]  # type: ignore[index]
                for what, table in COUNTED.items()
            }


@pytest.fixture(scope="module")
def server() -> Server:
    url = os.environ.get("DATABASE_URL", "")
    require(url.startswith(("postgres://", "postgresql://")), "needs DATABASE_URL=postgres://…")
    for tool in ("pg_dump", "pg_restore", "psql"):
        require(shutil.which(tool) is not None, f"{tool} is not installed")
    params = dj_database_url.parse(url)
    return Server(dict(params))


def env_for(server: Server, name: str) -> dict[str, str]:
    """The development settings on the given database, tasks run eagerly (no broker)."""
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(
        DATABASE_URL=server.url(name),
        DJANGO_SETTINGS_MODULE="brag_event.settings",
        PYTHON=sys.executable,
        PYTHONPATH=str(ROOT),
    )
    return env


def run(cmd: list[str], env: dict[str, str], timeout: float = 300) -> str:
    done = subprocess.run(
        cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    assert done.returncode == 0, f"{cmd} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def databases(server: Server) -> Iterator[tuple[str, str]]:
    base = (server.params["NAME"] or "brag")[:30]
    tag = secrets.token_hex(4)
    source, target = f"{base}_restore_{tag}_src", f"{base}_restore_{tag}_dst"
    server.create(source)
    try:
        server.create(target)
        yield source, target
    finally:
        server.drop(source)
        server.drop(target)


@pytest.mark.slow
def test_a_backup_restores_into_a_fresh_database_and_passes_the_audit(
    server: Server, databases: tuple[str, str], tmp_path: Path
) -> None:
    source, target = databases
    env = env_for(server, source)
    run([sys.executable, "manage.py", "migrate", "--noinput"], env)
    assert "seeded" in run([sys.executable, "-c", SEED], env)
    before = server.counts(source)
    assert all(before.values()), before

    # Older backups beyond BRAG_BACKUP_KEEP go; the new one is printed and kept.
    backups = tmp_path / "backups"
    backups.mkdir()
    for stamp in ("20200101T000000Z", "20200102T000000Z", "20200103T000000Z"):
        (backups / f"brag-event-{stamp}.dump").write_bytes(b"old")
    path = Path(run(["bash", str(BACKUP), str(backups)], {**env, "BRAG_BACKUP_KEEP": "2"}).strip())
    assert path.parent == backups and path.name.startswith("brag-event-") and path.stat().st_size
    assert sorted(p.name for p in backups.iterdir()) == [
        "brag-event-20200103T000000Z.dump",
        path.name,
    ]

    out = run(["bash", str(RESTORE), str(path), server.url(target)], env)
    assert "PASS" in out and "FAIL" not in out, out
    assert server.counts(target) == before

    # The restored database audits on its own too, and a second restore into it is refused.
    run([sys.executable, "manage.py", "audit_ledger"], env_for(server, target))
    again = subprocess.run(
        ["bash", str(RESTORE), str(path), server.url(target)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert again.returncode != 0 and "not empty" in again.stderr
    assert server.counts(target) == before


def test_backup_refuses_a_database_that_is_not_postgresql(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": "sqlite:///tmp/x.db", "BRAG_ENV_FILE": "/nonexistent"}
    done = subprocess.run(
        ["bash", str(BACKUP), str(tmp_path)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode != 0 and "postgres://" in done.stderr
    assert list(tmp_path.iterdir()) == []
