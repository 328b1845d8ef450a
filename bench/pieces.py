"""What the action path costs, against earlier versions of it and against the TPC-B reference
endpoint: ``make bench-pieces``.

Issue 19 keeps a special piece of the action path (hand-written statements, the driver's own
cursor, psycopg's C ``timestamptz`` loader, the pipeline, writes held back for the COMMIT, the
negotiation and serializer shortcuts) only where it saves at least 10 % of an action's CPU, and
wants an action within 2.5× the cost of the TPC-B reference endpoint (``bench.reference_urls``).
The pieces that did not make the bar were removed; a removed piece is measured by running the
code from before its removal — a git revision — beside today's, on the same hands. By default:
the path before issue 19 (every piece) and the path on the ORM (the hand-written statements'
measured variant, reverted after it measured four times the instructions); a run of the three
takes about an hour of a loaded 2-core machine (callgrind runs Python some 50 times slower):

* a fresh PostgreSQL database (``BRAG_BENCH_DB_URL``, default the local server's
  ``brag_bench_pieces``), migrated and seeded like ``make bench-api`` (a table of six players
  per version measured), and a pgbench database beside it (``pgbench -i -s 1``);
* for each version (this working tree, and each ``--against`` revision, extracted with
  ``git archive``), one process under valgrind's callgrind that imports that version's
  ``brag_event`` and enters, at its own table, the hands of the same seeded dealer
  (``bench.api_tablet.Dealer``) through Django's whole request stack (``django.test.Client``:
  middleware, DRF, the services); every version is dealt the same hands;
* the instructions each entry (an action or shown cards) costs the process, read around the
  entries only (hand starts left out) — instruction counts do not depend on what else the
  machine is doing — and, in the same process, what one request to the TPC-B reference endpoint
  costs (the same middleware and settings, pgbench's transaction through Django's connection):
  the action ÷ TPC-B ratio;
* each other version's cost against this tree's: what this tree's code saves against it
  ((other − this) ÷ other: negative when the other version was cheaper, i.e. what the code
  it had and this tree lacks saved is the opposite).

The PostgreSQL server's own work is not counted (it is a separate process), on either side of
the ratio. Writes ``bench-results/pieces.json``."""

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
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.common import django_on

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench-results" / "pieces.json"
DEFAULT_DB = "postgres://postgres:postgres@127.0.0.1:5432/brag_bench_pieces"
PLAYERS = 6
TPCB_WARMUP = 10  # requests before counting (psycopg prepares a statement after 5 runs)
RATIO_TARGET = 2.5  # issue 19: an action within 2.5× the TPC-B reference endpoint

# The versions measured by default against this tree (``--against`` replaces them): the
# action path before issue 19's simplification (every piece), and the same path on the ORM
# (what the hand-written statements are measured against; issue 19's branch, then reverted).
DEFAULT_AGAINST = {
    "ffedcaa8747af458b89fc358218c005908651f75": "every special piece (before issue 19)",
    "d12c43e12c2f6483872cf0efd9a9e145f236b128": "the action path on the ORM",
}


def _recreate(url: str) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _pgbench_init(url: str) -> None:
    """pgbench's tables at scale 1 in the database ``url`` names."""
    from urllib.parse import urlsplit

    _recreate(url)
    parts = urlsplit(url)
    env = {
        **os.environ,
        "PGHOST": parts.hostname or "127.0.0.1",
        "PGPORT": str(parts.port or 5432),
        "PGUSER": parts.username or "postgres",
    }
    pgbench = shutil.which("pgbench") or str(
        Path(os.environ.get("BRAG_PG_BIN", "/usr/lib/postgresql/15/bin")) / "pgbench"
    )
    subprocess.run(
        [pgbench, "-i", "-q", "-s", "1", parts.path.lstrip("/")],
        env=env,
        check=True,
        capture_output=True,
    )


class InProcessTablet:
    """A dealer entering hands through ``django.test.Client``."""

    def __init__(self, table: dict[str, Any], ante: int, buy_in: int, seed: int) -> None:
        from django.test import Client

        from bench.api_tablet import Dealer

        self.dealer = Dealer(seats=PLAYERS, ante=ante, seed=seed)
        self.table_id = table["id"]
        self.buy_in = buy_in
        self.client = Client(HTTP_AUTHORIZATION=f"Token {table['token']}")
        self.hand: dict[str, Any] | None = None
        self.answer = b""  # the last action's answer

    def post(self, path: str, body: Any) -> tuple[int, Any]:
        response = self.client.post(
            "/api/v1" + path,
            data=json.dumps(body),
            content_type="application/json",
            HTTP_ACCEPT="application/json",
            HTTP_IDEMPOTENCY_KEY=uuid.uuid4().hex,
        )
        self.answer = response.content
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

    def play_hand(self, counter: Callable[[], int]) -> tuple[int, int, bytes]:
        """Start a hand (not counted), then enter it to its end: the instructions its entries
        took (``counter`` read before and after), how many entries there were, and the last
        action's answer."""
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
        spent = counter() - before
        return spent, entries, self.answer


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


def measure(seeded: dict[str, Any], table: int, hands: int, warmup: int, tpcb: int) -> dict:
    """Under callgrind, in the version of ``brag_event`` imported: the hands at ``table``, then
    ``tpcb`` requests to the TPC-B reference endpoint answering the last action's answer."""
    from django.test import Client

    from bench import reference_urls

    tablet = InProcessTablet(seeded["tables"][table], seeded["ante"], seeded["table_max"], 19)
    spent = entries = 0
    answers: list[bytes] = []
    for h in range(warmup + hands):
        ir, n, answer = tablet.play_hand(instructions)
        answers.append(answer)
        if h >= warmup:
            spent, entries = spent + ir, entries + n
    # The reference answers an action's answer (the median-sized one), as in ``make bench-api``.
    reference_urls.ANSWER = json.loads(sorted(answers, key=len)[len(answers) // 2])
    client = Client()
    reference = 0
    for i in range(TPCB_WARMUP + tpcb):
        before = instructions()
        response = client.post("/reference/tpcb/", data=b"{}", content_type="application/json")
        if response.status_code != 200:
            raise SystemExit(f"bench.pieces: the TPC-B endpoint answered {response.status_code}")
        if i >= TPCB_WARMUP:
            reference += instructions() - before
    return {"entries": entries, "per_entry": spent / entries, "tpcb": reference / tpcb}


def _child_env(url: str, pgbench_url: str, answer: Path) -> None:
    os.environ.update(
        DATABASE_URL=url,
        DJANGO_SETTINGS_MODULE="bench.pieces_settings",
        DJANGO_DEBUG="false",
        DJANGO_ALLOWED_HOSTS="testserver",
        BENCH_PGBENCH_DB=pgbench_url.rpartition("/")[2],
        BENCH_PGBENCH_SCALE="1",
        BENCH_REFERENCE_ANSWER=str(answer),  # replaced by an action's answer once there is one
    )


def setup(url: str, pgbench_url: str, tables: int) -> dict[str, Any]:
    _recreate(url)
    _pgbench_init(pgbench_url)
    django_on(url)
    from django.core.management import call_command

    from bench.api_seed import seed

    call_command("migrate", verbosity=0)
    return seed(tables, PLAYERS)


def _extract(rev: str, into: Path) -> Path:
    """The revision's ``brag_event`` and templates, in a directory of their own."""
    into.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "brag_event", "templates"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.pieces")
    parser.add_argument("--hands", type=int, default=3, help="measured hands per version")
    parser.add_argument("--warmup", type=int, default=1, help="hands per version not counted")
    parser.add_argument("--tpcb", type=int, default=20, help="TPC-B requests counted")
    parser.add_argument(
        "--against",
        action="append",
        metavar="REV",
        help="a git revision to measure beside this tree (repeatable; default: "
        + ", ".join(rev[:8] for rev in DEFAULT_AGAINST)
        + ")",
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)  # the seed, in the process measured
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # the brag_event to import there
    parser.add_argument("--table", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    url = os.environ.get("BRAG_BENCH_DB_URL", DEFAULT_DB)
    pgbench_url = url + "_pgbench"

    if args.child:
        if args.tree and Path(args.tree).resolve() != ROOT:
            # That version's brag_event (bench, already imported, stays this tree's).
            sys.path.insert(0, args.tree)
        seed_file = Path(args.child)
        _child_env(url, pgbench_url, seed_file.with_suffix(".answer"))
        import django

        django.setup()
        import brag_event

        assert Path(brag_event.__file__).resolve().is_relative_to(Path(args.tree).resolve())
        result = measure(
            json.loads(seed_file.read_text()), args.table, args.hands, args.warmup, args.tpcb
        )
        seed_file.with_suffix(f".{args.table}.out").write_text(json.dumps(result))
        return 0

    if not shutil.which("valgrind"):
        raise SystemExit("bench.pieces: valgrind is needed (apt-get install valgrind)")
    against = (
        {rev: "" for rev in args.against} if args.against is not None else dict(DEFAULT_AGAINST)
    )
    versions = [("this tree", "", ROOT)]
    seeded = setup(url, pgbench_url, 1 + len(against))
    t0 = time.monotonic()
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for i, (rev, label) in enumerate(against.items(), start=1):
            sha = (
                subprocess.run(
                    ["git", "-C", str(ROOT), "rev-parse", rev], check=True, capture_output=True
                )
                .stdout.decode()
                .strip()
            )
            versions.append((sha[:8], label, _extract(sha, Path(tmp) / f"v{i}")))
        seed_file = Path(tmp) / "seed.json"
        seed_file.write_text(json.dumps(seeded))
        seed_file.with_suffix(".answer").write_text("{}")
        # One process per version, side by side (instruction counts do not depend on how
        # many run at once).
        print(
            f"{', '.join(name for name, _, _ in versions)}: {args.warmup} + {args.hands} hands "
            "each under callgrind …",
            flush=True,
        )
        children = [
            subprocess.Popen(
                [
                    "valgrind",
                    "--tool=callgrind",
                    "--callgrind-out-file=/dev/null",
                    sys.executable,
                    "-m",
                    "bench.pieces",
                    f"--child={seed_file}",
                    f"--tree={tree}",
                    f"--table={table}",
                    f"--hands={args.hands}",
                    f"--warmup={args.warmup}",
                    f"--tpcb={args.tpcb}",
                ],
                cwd=ROOT,
                stderr=subprocess.DEVNULL,
            )
            for table, (_name, _label, tree) in enumerate(versions)
        ]
        if [child.wait() for child in children] != [0] * len(children):
            raise SystemExit("bench.pieces: a measured process failed")
        for table, (name, _label, _tree) in enumerate(versions):
            results[name] = json.loads(seed_file.with_suffix(f".{table}.out").read_text())
    counts = {name: r["entries"] for name, r in results.items()}
    if len(set(counts.values())) != 1:
        raise SystemExit(f"bench.pieces: the tables played different hands: {counts}")
    entries = counts["this tree"]
    now = results["this tree"]["per_entry"]
    print(
        f"instructions per entry (an action or shown cards) and per TPC-B reference request, "
        f"{entries} entries per version, the same hands at every table "
        f"({time.monotonic() - t0:.0f} s):"
    )
    out: dict[str, Any] = {"entries": entries, "hands": args.hands, "versions": {}}
    for name, label, _tree in versions:
        r = results[name]
        ratio = r["per_entry"] / r["tpcb"]
        saved = (r["per_entry"] - now) / r["per_entry"] if name != "this tree" else None
        print(
            f"  {name:10} {r['per_entry'] / 1e6:6.2f} M per entry, TPC-B {r['tpcb'] / 1e6:5.2f} M,"
            f" ratio {ratio:4.2f}×"
            + (f" (target ≤ {RATIO_TARGET}×)" if saved is None else "")
            + ("" if saved is None else f"; this tree saves {saved:6.1%} against it")
            + (f"  [{label}]" if label else "")
        )
        out["versions"][name] = {
            "label": label,
            "instructions_per_entry": round(r["per_entry"]),
            "tpcb_instructions": round(r["tpcb"]),
            "ratio_to_tpcb": round(ratio, 3),
            "this_tree_saves": None if saved is None else round(saved, 4),
        }
    out["ratio_target"] = RATIO_TARGET
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(json.dumps(out, indent=2) + "\n")
    print(f"written: {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
