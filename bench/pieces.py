"""What each special piece of the action path saves: ``make bench-pieces``.

Issue 19 asks that a special piece of the action path (the driver's own cursor, psycopg's C
``timestamptz`` loader, the pipeline that sends a batch in one round trip, the writes held back
to go out with the COMMIT, the negotiation shortcut) stay only where it saves at least 10 % of
an action's CPU, measured one by one. This benchmark measures exactly that, in one process:

* a fresh PostgreSQL database (``BRAG_BENCH_DB_URL``, default the local server's
  ``brag_bench_pieces``), migrated and seeded like ``make bench-api`` (one table, six players);
* a dealer (``bench.api_tablet.Dealer``: random legal hands) entering actions through Django's
  whole request stack in process (``django.test.Client`` — middleware, DRF, the services);
* rounds in which each variant — everything on, then each piece switched off alone — enters the
  same number of actions; the variants are interleaved round by round, so a machine that is
  busy with something else slows them all alike;
* the CPU time of this process per action (``time.process_time``: the web process's CPU, which
  is what the pieces change; PostgreSQL's own work is the same for every variant), the median
  over the rounds, and each piece's saving: (CPU without it − CPU with it) ÷ CPU without it.

Pieces are switched off by patching the one function that decides each of them — the code the
server runs is not changed, and has no switch of its own.

The hand-written statements themselves (``hands/statements.py``) cannot be switched off like
this: there is no ORM version of the action path to compare with. Writes
``bench-results/pieces.json``."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

from bench.common import django_on

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results" / "pieces.json"
TABLES = 6  # one per variant below
DEFAULT_DB = "postgres://postgres:postgres@127.0.0.1:5432/brag_bench_pieces"


def _recreate(url: str) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


@contextmanager
def _patched(obj: Any, name: str, value: Any) -> Iterator[None]:
    old = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, old)


def variants() -> dict[str, Callable[[], Any]]:
    """Each variant: a context in which one piece is off (``all on``: none is)."""
    from django.db import connection
    from rest_framework.negotiation import DefaultContentNegotiation

    from brag_event.api.negotiation import JsonNegotiation
    from brag_event.core import sql

    @contextmanager
    def no_deferral() -> Iterator[Callable[[], None]]:
        # at_commit runs its statements at once when no owned transaction collects them.
        yield lambda: None

    return {
        "all on": nullcontext,
        "Django's cursor wrapper": lambda: _patched(
            sql, "_cursor", lambda reads=False: connection.cursor()
        ),
        "Django's timestamptz loader": lambda: _patched(
            sql, "_driver_timestamptz_is_djangos", lambda: False
        ),
        "no pipeline": lambda: _patched(sql, "_pipelined", lambda: False),
        "writes not held for the COMMIT": lambda: _patched(sql, "writes_at_commit", no_deferral),
        "DRF's negotiation": lambda: _patched(
            JsonNegotiation, "select_renderer", DefaultContentNegotiation.select_renderer
        ),
    }


class InProcessTablet:
    """A dealer entering hands through ``django.test.Client``."""

    def __init__(self, table: dict[str, Any], ante: int, buy_in: int, seed: int) -> None:
        from django.test import Client

        from bench.api_tablet import Dealer

        self.dealer = Dealer(seats=6, ante=ante, seed=seed)
        self.table_id = table["id"]
        self.buy_in = buy_in
        self.client = Client(HTTP_AUTHORIZATION=f"Token {table['token']}")
        self.hand: dict[str, Any] | None = None

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        response = self.client.post(
            "/api/v1" + path,
            data=json.dumps(body),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        return response.status_code, json.loads(response.content)

    def between_hands(self) -> None:
        """Start the next hand (re-buying players who ran out, by leaving and buying in)."""
        last = self.hand
        if last is not None and self.dealer.needs_rebuy(last):
            table = json.loads(self.client.get(f"/api/v1/tables/{self.table_id}/").content)
            for seat in table["seats"]:
                if seat["stack"] < self.dealer.ante:
                    self.post(f"/seats/{seat['id']}/leave/", {})
                    self.post(
                        f"/tables/{self.table_id}/seats/",
                        {
                            "seat": seat["number"],
                            "player": seat["player"]["id"],
                            "amount": self.buy_in,
                        },
                    )
        status, data = self.post(f"/tables/{self.table_id}/hands/", {})
        if status != 201:
            raise SystemExit(f"bench.pieces: starting a hand answered {status}: {data}")
        self.dealer.deal()
        self.hand = data

    def play_hand(self, counter: Callable[[], int]) -> tuple[int, int]:
        """Start a hand (not counted), then enter it to its end: the instructions its entries
        took (``counter`` read before and after) and how many entries there were."""
        self.between_hands()
        before = counter()
        entries = 0
        assert self.hand is not None
        while self.hand["status"] == "in_progress":
            _, path, body = self.dealer.next_entry(self.hand)
            status, data = self.post(path, body)
            if status != 201:
                raise SystemExit(f"bench.pieces: an action answered {status}: {data}")
            self.hand = data["hand"]
            entries += 1
        return counter() - before, entries


def instructions() -> int:
    """The instructions this process has run so far, as callgrind counts them."""
    out = subprocess.run(
        ["callgrind_control", "-e", "Ir", str(os.getpid())],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    # One line per thread ("Th 1  104,482,042"): the process's count is their sum.
    return sum(
        int(line.split()[-1].replace(",", ""))
        for line in out.splitlines()
        if line.strip().startswith("Th ")
    )


def measure(seeded: dict[str, Any], hands: int, warmup: int) -> dict[str, Any]:
    """Under callgrind: each variant at a table of its own, all dealt the same hands."""
    pieces = variants()
    tablets = {
        name: InProcessTablet(table, seeded["ante"], seeded["table_max"], seed=19)
        for name, table in zip(pieces, seeded["tables"], strict=True)
    }
    totals = {name: [0, 0] for name in pieces}
    for h in range(warmup + hands):
        for name, off in pieces.items():
            with off():
                ir, entries = tablets[name].play_hand(instructions)
            if h >= warmup:
                totals[name][0] += ir
                totals[name][1] += entries
    counts = {name: entries for name, (_, entries) in totals.items()}
    if len(set(counts.values())) != 1:
        raise SystemExit(f"bench.pieces: the tables played different hands: {counts}")
    return {name: ir / entries for name, (ir, entries) in totals.items()} | {
        "entries": next(iter(counts.values()))
    }


def setup(url: str, tables: int) -> dict[str, Any]:
    _recreate(url)
    django_on(url)
    from django.core.management import call_command

    from bench.api_seed import seed

    call_command("migrate", verbosity=0)
    return seed(tables, 6)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pieces")
    parser.add_argument("--hands", type=int, default=10, help="measured hands per variant")
    parser.add_argument("--warmup", type=int, default=2, help="hands per variant not counted")
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the seed, in the process measured
    args = parser.parse_args(argv)
    url = os.environ.get("BRAG_BENCH_DB_URL", DEFAULT_DB)

    if args.child:
        seeded = json.loads(Path(args.child).read_text())
        django_on(url)
        result = measure(seeded, args.hands, args.warmup)
        Path(args.child).with_suffix(".out").write_text(json.dumps(result))
        return 0

    if not shutil.which("valgrind"):
        raise SystemExit("bench.pieces: valgrind is needed (apt-get install valgrind)")
    seeded = setup(url, TABLES)
    with tempfile.TemporaryDirectory() as tmp:
        seed_file = Path(tmp) / "seed.json"
        seed_file.write_text(json.dumps(seeded))
        print(f"measuring under callgrind: {args.warmup} + {args.hands} hands per variant …")
        t0 = time.monotonic()
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                sys.executable,
                "-m",
                "bench.pieces",
                "--child",
                str(seed_file),
                f"--hands={args.hands}",
                f"--warmup={args.warmup}",
            ],
            cwd=ROOT,
            check=True,
            stderr=subprocess.DEVNULL,
        )
        result = json.loads(seed_file.with_suffix(".out").read_text())
    entries = result.pop("entries")
    base = result["all on"]
    print(
        f"instructions per entry (action or shown cards) of the web process, {entries} entries "
        f"per variant, the same hands at every table ({time.monotonic() - t0:.0f} s):"
    )
    out: dict[str, Any] = {"entries": entries, "hands": args.hands, "pieces": {}}
    for name, per in result.items():
        saving = (per - base) / per if name != "all on" else 0.0
        verdict = "" if name == "all on" else ("keep" if saving >= 0.10 else "below 10 %")
        print(
            f"  {name:32} {per / 1e6:8.2f} M"
            + (f"  saving {saving:6.1%}  {verdict}" if name != "all on" else "")
        )
        out["pieces"][name] = {"instructions": round(per), "saving": round(saving, 4)}
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
