"""Standings benchmark: ``python -m bench.standings`` (``make bench-standings``).

Measures how fast the standings are served on a big event: 300 players and 100,000 settled
hands on PostgreSQL. Printed, from one run:

* p50 / p95 latency of the public standings page ``/standings/<id>/`` and of the API
  ``/api/v1/events/<id>/standings/``, each requested in-process through Django's test
  ``Client`` (the whole Django stack, middleware and templates included, without a socket):
  a warm-up, then ``--requests`` (≥ 200) timed requests each;
* beside them, in the same run and on the same database, the p50 / p95 of a plain
  ``SELECT count(*) FROM hands_hand`` (the yardstick: one sequential scan of the hands), and
  the ratio of each p95 to the yardstick's p95;
* PASS / FAIL against the target: p95 under 100 ms for the page and for the API.

Steps: a fresh database ``brag_bench_standings`` (created like ``bench.api``'s, migrated with
``manage.py migrate``); an event with its days, tables, players and buy-ins made through the
services, and its hands seeded by ``bench.ledger_seed`` (shared with ``bench.audit``): a cycle of
six hands played through the services at every table, then copied in bulk SQL — each copy with
its actions, its pot and its ledger transfers, so the whole event passes the ledger audit — and
each player's ``Standing`` (hands played and won) computed from those rows. The standings read
the maintained ``Standing`` rows and the cached balances and stacks, never the ledger. The
database is dropped at the end (unless ``--keep-db``). The figures are also written as JSON to
``bench-results/standings.json``. The exit code is 0 whether the target passes or fails.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .api import Postgres, machine, say, summary
from .common import bench_database, django_on, pg_arguments, print_result, write_figures

ROOT = Path(__file__).resolve().parent.parent
RESULTS = Path("bench-results") / "standings.json"
BENCH_DB = "brag_bench_standings"
HOST = "127.0.0.1"
P95_TARGET_MS = 100.0
SEATS = 6


def line(label: str, value: str) -> str:
    return f"  {label:<44}{value}"


def migrate(env: dict[str, str]) -> None:
    cmd = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.stderr.write(done.stdout[-4000:] + done.stderr[-4000:])
        raise SystemExit(f"bench.standings: migrate failed (exit {done.returncode})")


def setup_django(url: str) -> None:
    secret = os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(40)
    django_on(url, DJANGO_SECRET_KEY=secret)


# --------------------------------------------------------------------------------------------
# Seeding


def seed(players: int, hands: int) -> dict[str, Any]:
    """The event and its hands, ledger and all (``bench.ledger_seed``, shared with
    ``bench.audit``)."""
    from .ledger_seed import seed_event

    return seed_event("Standings bench", players, hands)


# --------------------------------------------------------------------------------------------
# Measuring


def timed(call: Callable[[], None], *, warmup: int, n: int) -> list[float]:
    for _ in range(warmup):
        call()
    out: list[float] = []
    for _ in range(n):
        t = time.perf_counter()
        call()
        out.append((time.perf_counter() - t) * 1000)
    return out


def measure(event_id: int, *, warmup: int, n: int) -> dict[str, Any]:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    page_url = f"/standings/{event_id}/"
    api_url = f"/api/v1/events/{event_id}/standings/"
    sizes: dict[str, int] = {}
    queries: dict[str, int] = {}

    def getter(name: str, url: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(url)
            if response.status_code != 200:
                raise SystemExit(f"bench.standings: {url} answered {response.status_code}")
            sizes[name] = len(response.content)

        return get

    def count() -> None:
        with connection.cursor() as cur:
            cur.execute("SELECT count(*) FROM hands_hand")
            cur.fetchone()

    for name, url in (("page", page_url), ("api", api_url)):
        with CaptureQueriesContext(connection) as captured:
            getter(name, url)()
        queries[name] = len(captured.captured_queries)
    out: dict[str, Any] = {}
    for name, call in (
        ("page", getter("page", page_url)),
        ("api", getter("api", api_url)),
        ("count", count),
    ):
        say(f"bench.standings: {name}: {warmup} warm-up + {n} timed …")
        out[name] = summary(timed(call, warmup=warmup, n=n))
    out["bytes"] = sizes
    out["queries"] = queries
    return out


# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.standings", description=doc[:60])
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=300, help="timed requests each (≥ 200)")
    parser.add_argument("--warmup", type=int, default=30, help="untimed requests first")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {BENCH_DB} afterwards")
    pg_arguments(parser, HOST)
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the figures")
    args = parser.parse_args(argv)
    args.requests = max(200, args.requests)

    pg = Postgres(args.pg_host, args.pg_port, args.pg_user)
    url = pg.url(BENCH_DB)
    with bench_database(pg, BENCH_DB, keep=args.keep_db):
        say(f"bench.standings: creating {BENCH_DB} and migrating …")
        t = time.perf_counter()
        pg.recreate(BENCH_DB)
        migrate(
            {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "brag_event.settings"}
        )
        migrate_s = time.perf_counter() - t
        setup_django(url)
        say(f"bench.standings: seeding {args.players} players and {args.hands:,} hands …")
        seeded = seed(args.players, args.hands)
        say(
            f"bench.standings: seeded in {seeded['services_seconds']:.1f} s (services) + "
            f"{seeded['bulk_sql_seconds']:.1f} s (bulk SQL)"
        )
        figures = measure(seeded["event"], warmup=args.warmup, n=args.requests)
        from django.conf import settings
        from django.db import connection

        conf = {
            "conn_max_age": settings.DATABASES["default"].get("CONN_MAX_AGE"),
            "debug": settings.DEBUG,
        }
        connection.close()
        pg_info = pg.info()

    info = machine()
    base = figures["count"]["p95"]
    verdicts = {k: figures[k]["p95"] < P95_TARGET_MS for k in ("page", "api")}

    def row(name: str, label: str) -> str:
        f = figures[name]
        ratio = f"   {f['p95'] / base:5.1f}× count(*)" if name != "count" else ""
        return line(
            label,
            f"{f['p50']:7.2f} / {f['p95']:7.2f} ms   (mean {f['mean']:.2f}, max {f['max']:.1f})"
            + ratio,
        )

    print("Brag Event standings benchmark")
    print(
        f"  {info['cpu']}, {info['cpu_count']} CPUs; Python {info['python']}, Django "
        f"{info['django']}, DRF {info['djangorestframework']}, PostgreSQL "
        f"{pg_info['server_version']} (shared_buffers {pg_info['shared_buffers']})"
    )
    print(
        f"  DEBUG {conf['debug']}, CONN_MAX_AGE {conf['conn_max_age']}; in-process test Client, "
        f"one request at a time; load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"  data: {seeded['players']} players at {seeded['tables']} tables, "
        f"{seeded['hands']:,} settled hands (seeded in "
        f"{seeded['services_seconds'] + seeded['bulk_sql_seconds']:.1f} s)"
    )
    print()
    print(f"Latency p50 / p95 over {args.requests} requests each, after {args.warmup} warm-up:")
    print(
        row(
            "page",
            f"standings page ({figures['bytes']['page'] // 1024} KiB, "
            f"{figures['queries']['page']} queries)",
        )
    )
    print(
        row(
            "api",
            f"standings API ({figures['bytes']['api'] // 1024} KiB, "
            f"{figures['queries']['api']} queries)",
        )
    )
    print(row("count", "SELECT count(*) FROM hands_hand"))
    print()
    for name, label in (("page", "page"), ("api", "API")):
        ok = verdicts[name]
        print(
            line(
                f"{label} p95",
                f"{figures[name]['p95']:.2f} ms   target < {P95_TARGET_MS:g} ms   "
                + ("PASS" if ok else "FAIL"),
            )
        )
    print_result(verdicts)

    results = {
        "machine": info,
        "postgres": pg_info,
        "django": conf,
        "migrate_seconds": migrate_s,
        "seeded": seeded,
        "requests": args.requests,
        "warmup": args.warmup,
        "latency_ms": {k: figures[k] for k in ("page", "api", "count")},
        "response_bytes": figures["bytes"],
        "queries_per_request": figures["queries"],
        "p95_ratio_to_count": {k: figures[k]["p95"] / base for k in ("page", "api")},
        "targets": {
            "p95_target_ms": P95_TARGET_MS,
            "page_pass": verdicts["page"],
            "api_pass": verdicts["api"],
        },
    }
    return write_figures(args.json, results)


if __name__ == "__main__":
    sys.exit(main())
