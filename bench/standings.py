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
services; then the hands in bulk SQL (``INSERT … SELECT generate_series(…)``): valid rows (table,
number, dealer, the day's rules, the seats as dealt, status settled, a result whose single pot
goes by folds to one seat), their dealt players, and each player's ``Standing`` (hands played and
won) computed from those rows. **The hands' ledger transfers are not written**: the standings are
read from the maintained ``Standing`` rows and the cached balances and stacks, never from the
ledger, so a ledger of 100,000 hands would change nothing measured here (the players' money is
what their registrations and buy-ins left). The database is dropped at the end (unless
``--keep-db``). The figures are also written as JSON to ``bench-results/standings.json``. The
exit code is 0 whether the target passes or fails.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .api import Postgres, machine, percentile, say

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
    os.environ.update(
        {
            "DATABASE_URL": url,
            "DJANGO_SETTINGS_MODULE": "brag_event.settings",
            "DJANGO_DEBUG": "false",
            "DJANGO_ALLOWED_HOSTS": "testserver",
            "DJANGO_SECRET_KEY": os.environ.get("DJANGO_SECRET_KEY") or secrets.token_urlsafe(40),
        }
    )
    import django

    django.setup()


# --------------------------------------------------------------------------------------------
# Seeding


def seed(players: int, hands: int) -> dict[str, Any]:
    """The event, its players seated six to a table through the services, then ``hands``
    settled hands in bulk SQL spread evenly over the tables."""
    from django.db import connection, transaction

    from brag_event.events.services import day_open, event_create_flash
    from brag_event.hands.models import Hand
    from brag_event.players.models import Standing
    from brag_event.players.services import player_register
    from brag_event.tables.models import Seat
    from brag_event.tables.services import seat_buy_in, table_create

    t = time.perf_counter()
    event = event_create_flash(name="Standings bench", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    n_tables = math.ceil(players / SEATS)
    tables = [table_create(day=day, by=None) for _ in range(n_tables)]
    registered = [
        player_register(
            event=event,
            name=f"Player {i:03d}",
            starting_money=500 + (i * 379) % 1500,  # different money: ranks differ
            by=None,
        )
        for i in range(players)
    ]
    span = day.table_max - day.table_min
    for i, player in enumerate(registered):
        seat_buy_in(
            table=tables[i // SEATS],
            seat_number=i % SEATS + 1,
            player=player,
            amount=day.table_min + (i * 53) % (span + 1),
            by=None,
        )
    services_s = time.perf_counter() - t

    t = time.perf_counter()
    per_table = math.ceil(hands / n_tables)
    rules = json.dumps(day.rules().to_dict())
    docs: list[tuple[int, int, str, str]] = []
    for table in tables:
        seats = list(
            Seat.objects.filter(table=table, left_at__isnull=True)
            .select_related("player")
            .order_by("number")
        )
        seats_doc = [
            {
                "seat": s.number,
                "player": s.player.name,
                "player_id": s.player_id,
                "seat_id": s.pk,
                "stack": s.stack,
                "sitting_out": False,
                "dealt": True,
            }
            for s in seats
        ]
        numbers = [s.number for s in seats]
        pot = day.ante * len(seats)
        for winner in numbers:
            result = {
                "settled": True,
                "pots": [
                    {
                        "index": 0,
                        "amount": pot,
                        "contenders": [winner],
                        "winners": [winner],
                        "shares": {str(winner): pot},
                        "rake": 0,
                        "how": "folds",
                        "explanation": f"Everyone else folded: seat {winner} takes the pot.",
                    }
                ],
                "stacks": {
                    str(s.number): s.stack - day.ante + (pot if s.number == winner else 0)
                    for s in seats
                },
                "house": 0,
                "carried": {"pot": 0, "seat": None},
                "next_dealer": winner % len(seats) + 1,
                "shuffle": False,
                "shown": {},
            }
            docs.append((table.pk, winner, json.dumps(seats_doc), json.dumps(result)))
    hand_t = Hand._meta.db_table
    dealt_t = Hand.dealt_players.through._meta.db_table
    standing_t = Standing._meta.db_table
    with transaction.atomic(), connection.cursor() as cur:
        cur.execute(
            "CREATE TEMP TABLE bench_docs (table_id bigint, winner int, seats jsonb, "
            "result jsonb) ON COMMIT DROP"
        )
        cur.executemany("INSERT INTO bench_docs VALUES (%s, %s, %s::jsonb, %s::jsonb)", docs)
        # Hand g of a table: dealer seat g mod 6 + 1, won by the seat after the dealer … in
        # turn; 20 s apart, the last one just now.
        cur.execute(
            f"INSERT INTO {hand_t} (table_id, number, dealer_seat, rules, seats, carried_pot, "
            "carried_seat, shuffle_before, accounts, status, next_seq, result, started_by_id, "
            "started_at, settled_at) "
            "SELECT d.table_id, g, (g - 1) %% 6 + 1, %s::jsonb, d.seats, 0, NULL, false, "
            "'{}'::jsonb, 'settled', 6, d.result, NULL, "
            "now() - make_interval(secs => (%s - g) * 20 + 15), "
            "now() - make_interval(secs => (%s - g) * 20) "
            "FROM generate_series(1, %s) AS g "
            "JOIN bench_docs d ON d.winner = g %% 6 + 1 "
            "ORDER BY g, d.table_id",
            [rules, per_table, per_table, per_table],
        )
        inserted = cur.rowcount
        cur.execute(
            f"INSERT INTO {dealt_t} (hand_id, player_id) "
            "SELECT h.id, (e->>'player_id')::bigint FROM "
            f"{hand_t} h CROSS JOIN LATERAL jsonb_array_elements(h.seats) e "
            "WHERE (e->>'dealt')::boolean"
        )
        # The standings as the services would have kept them, from the hands themselves.
        cur.execute(
            f"UPDATE {standing_t} s SET hands_played = c.played, hands_won = c.won FROM ("
            "SELECT (e->>'player_id')::bigint AS player_id, count(*) AS played, "
            "count(*) FILTER (WHERE h.result->'pots'->0->'shares' ? (e->>'seat')) AS won "
            f"FROM {hand_t} h CROSS JOIN LATERAL jsonb_array_elements(h.seats) e "
            "GROUP BY 1) c WHERE s.player_id = c.player_id AND s.day_id = %s",
            [day.pk],
        )
    with connection.cursor() as cur:
        cur.execute("VACUUM ANALYZE")
    sql_s = time.perf_counter() - t
    return {
        "event": event.pk,
        "players": players,
        "tables": n_tables,
        "hands": inserted,
        "services_seconds": services_s,
        "bulk_sql_seconds": sql_s,
    }


# --------------------------------------------------------------------------------------------
# Measuring


def summary(values_ms: list[float]) -> dict[str, float]:
    values = sorted(values_ms)
    return {
        "count": len(values),
        "mean": sum(values) / len(values) if values else math.nan,
        "p50": percentile(values, 0.50),
        "p95": percentile(values, 0.95),
        "p99": percentile(values, 0.99),
        "max": values[-1] if values else math.nan,
    }


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
    parser.add_argument("--pg-host", default=os.environ.get("PGHOST", HOST))
    parser.add_argument("--pg-port", type=int, default=int(os.environ.get("PGPORT", "5432")))
    parser.add_argument("--pg-user", default=os.environ.get("PGUSER", "postgres"))
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the figures")
    args = parser.parse_args(argv)
    args.requests = max(200, args.requests)

    pg = Postgres(args.pg_host, args.pg_port, args.pg_user)
    url = pg.url(BENCH_DB)
    try:
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
    finally:
        if not args.keep_db:
            with contextlib.suppress(Exception):
                from django.db import connections

                connections.close_all()
            with contextlib.suppress(Exception):
                pg.drop(BENCH_DB)

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
    failed = [n for n, ok in verdicts.items() if not ok]
    print("Result: " + ("all targets met" if not failed else "FAIL: " + ", ".join(failed)))

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
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    print(f"Figures written to {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
