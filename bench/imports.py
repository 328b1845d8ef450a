"""Players import benchmark: ``python -m bench.imports`` (``make bench-import``).

Measures what a row of a file of players costs, against a reference measured in the same run
on the same database: **a bare ORM insert of a player row** (``Player.objects.create`` — one
INSERT, nothing else: no account, no money, no audit entry). Also measured, for the record, the
way the import went before (issue 27): registering the rows one by one through
``player_register`` (a transaction, an account, an issue in the ledger and two audit entries
a player, about 25 statements).

Steps: a fresh database ``brag_bench_import`` (created and migrated like ``bench.audit``'s); a
file of ``--rows`` players (default 2,000, the most a file may have) with a starting-money
column, a phone column and a few bad rows; then, each on its own new event:

- the reference: ``--rows`` bare inserts in one transaction;
- one by one: ``--one-by-one`` rows (default 200) through ``player_register``;
- the import's two services: the preview (``players_import_preview``: read, check against the
  event's players, store) and the confirmation (``players_import_confirm``);
- the organiser's two requests through Django's test client, as the page sends them (the file
  uploaded and its 2,000-row preview page drawn; the confirmation), each timed whole.

Then the results exchange file (issue 43): a file of ``--people`` people (default 30,000, one
day's results, each person with a uid, compact JSON as another installation might write it,
about 3.6 MB) imported as a past event through the console's request (the upload, read, checked
and imported), timed whole, against the same reference: ms a person against the bare insert's
ms a row; target: the request well under gunicorn's 30 s timeout, at most 10 s.

The ledger audit must pass on every event after it. Printed: ms per row of each, the ratio of
the confirmation's cost a row to the bare insert's, and the two requests' times against the
target (each well inside gunicorn's 30 s timeout: at most 10 s). Figures also go to
``bench-results/import.json``. The database is dropped at the end (unless ``--keep-db``). The
exit code is 0 whether the targets pass or fail."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path
from typing import Any

from .api import Postgres, machine, say
from .common import bench_database, pg_arguments, print_result, write_figures
from .standings import migrate, setup_django

RESULTS = Path("bench-results") / "import.json"
BENCH_DB = "brag_bench_import"
HOST = "127.0.0.1"
REQUEST_TARGET_S = 10.0  # each of the two requests of a 2,000-row file
RESULTS_TARGET_S = 10.0  # the import of a 30,000-person results file


def messy_file(rows: int, who: str = "Player") -> bytes:
    """``rows`` players as a spreadsheet exports them: a header in words, a phone column, a few
    rows refused (bad money, a missing name, a name twice). Named ``who`` and a number: each
    file's people new (the people of another step's names would be asked about as returning)."""
    lines = ["Name,Starting Money,Phone"]
    for i in range(rows):
        if i % 400 == 7:
            lines.append(f"{who} {i:05d},abc,")
        elif i % 400 == 9:
            lines.append(",1000,")
        elif i % 400 == 11:
            lines.append(f"{who.lower()} {i - 1:05d},1000,")
        else:
            lines.append(f"{who} {i:05d},{1000 + i % 7 * 50},0123 456 789")
    return ("\r\n".join(lines) + "\r\n").encode("utf-8")


def new_event(name: str) -> Any:
    from brag_event.events.services import event_create_flash

    return event_create_flash(name=name, starting_money=1000, by=None)


def audited(event: Any) -> None:
    from brag_event.ledger.audit import ledger_audit

    report = ledger_audit(event=event)
    if not report.ok:
        print("\n".join(report.lines()))
        raise SystemExit(f"bench.imports: the ledger audit fails on {event}")


def timed(step: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    result = step()
    return time.perf_counter() - t, result


def bare_inserts(rows: int) -> float:
    from django.db import transaction

    from brag_event.players.models import Player

    event = new_event("Bench: bare inserts")

    def step() -> None:
        with transaction.atomic():
            for i in range(rows):
                Player.objects.create(event=event, name=f"Player {i:05d}")

    return timed(step)[0]


def one_by_one(rows: int) -> float:
    from brag_event.players.services import player_register

    event = new_event("Bench: one by one")

    def step() -> None:
        for i in range(rows):
            player_register(event=event, name=f"Player {i:05d}", starting_money=1000, by=None)

    seconds = timed(step)[0]
    audited(event)
    return seconds


def services(data: bytes) -> dict[str, Any]:
    from brag_event.players.imports import players_import_confirm, players_import_preview

    event = new_event("Bench: services")
    preview_s, batch = timed(lambda: players_import_preview(event=event, data=data, by=None))
    confirm_s, players = timed(lambda: players_import_confirm(batch=batch, by=None))
    audited(event)
    return {"preview_s": preview_s, "confirm_s": confirm_s, "registered": len(players)}


def pages(data: bytes) -> dict[str, Any]:
    from django.contrib.auth.models import Group, User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from brag_event.players.models import ImportBatch

    event = new_event("Bench: pages")
    user = User.objects.create_user("bench-organiser", password="x")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("players.csv", data, content_type="text/csv")

    def preview() -> Any:
        answer = client.post(
            f"/organiser/events/{event.pk}/players/", {"form": "import", "csv": upload}
        )
        assert answer.status_code == 302, answer.status_code
        page = client.get(answer["Location"])
        assert page.status_code == 200 and b"Check before importing" in page.content
        return answer["Location"]

    preview_s, where = timed(preview)
    confirm_s, answer = timed(lambda: client.post(where, {"form": "confirm"}))
    assert answer.status_code == 302, answer.status_code
    batch = ImportBatch.objects.get(event=event)
    audited(event)
    return {
        "preview_request_s": preview_s,
        "confirm_request_s": confirm_s,
        "registered": batch.players.count(),
    }


def results_file(people: int) -> bytes:
    """A results exchange document of ``people`` people over one day, compact."""
    import json
    import uuid

    rules = {
        "ante": 1,
        "min_bet": 2,
        "max_bet": 20,
        "max_raise": 20,
        "house_fee": 0,
        "table_min": 10,
        "table_max": 500,
    }
    document = {
        "format": "brag-results/1",
        "event": {"uid": str(uuid.uuid4()), "name": "Bench: a past event", "currency": "MB"},
        "people": [
            {"number": 1001 + i, "uid": str(uuid.uuid4()), "name": f"Player {i:05d}"}
            for i in range(people)
        ],
        "days": [
            {
                "number": 1,
                "date": "2026-05-02",
                "closed_at": "2026-05-02T22:00:00+00:00",
                "rules": rules,
                "results": [
                    {"rank": i + 1, "number": 1001 + i, "money": 10 * (people - i)}
                    for i in range(people)
                ],
            }
        ],
    }
    return json.dumps(document, separators=(",", ":")).encode()


def results_import(data: bytes) -> dict[str, Any]:
    from django.contrib.auth.models import Group, User
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from brag_event.events.models import Event

    user = User.objects.create_user("bench-importer", password="x")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(user)
    upload = SimpleUploadedFile("results.json", data, content_type="application/json")
    seconds, answer = timed(lambda: client.post("/organiser/events/import/", {"file": upload}))
    assert answer.status_code == 302, (answer.status_code, answer.content[:2000])
    event = Event.objects.get(name="Bench: a past event")
    audited(event)
    return {"results_request_s": seconds, "results_players": event.players.count()}


def main(argv: list[str] | None = None) -> int:
    doc = __doc__ or ""
    parser = argparse.ArgumentParser(prog="python -m bench.imports", description=doc[:60])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--one-by-one", type=int, default=200)
    parser.add_argument("--people", type=int, default=30_000, help="people of the results file")
    parser.add_argument("--keep-db", action="store_true", help=f"keep {BENCH_DB} afterwards")
    pg_arguments(parser, HOST)
    parser.add_argument("--json", type=Path, default=RESULTS, help="where to write the figures")
    args = parser.parse_args(argv)

    pg = Postgres(args.pg_host, args.pg_port, args.pg_user)
    url = pg.url(BENCH_DB)
    with bench_database(pg, BENCH_DB, keep=args.keep_db):
        say(f"bench.imports: creating {BENCH_DB} and migrating …")
        pg.recreate(BENCH_DB)
        migrate(
            {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "brag_event.settings"}
        )
        setup_django(url)
        say(f"bench.imports: {args.rows:,} bare inserts (the reference) …")
        bare_s = bare_inserts(args.rows)
        say(f"bench.imports: {args.one_by_one:,} players registered one by one …")
        single_s = one_by_one(args.one_by_one)
        say(f"bench.imports: a {args.rows:,}-row file through the services …")
        served = services(messy_file(args.rows, "Served"))
        say("bench.imports: the same file through the organiser's two requests …")
        paged = pages(messy_file(args.rows, "Paged"))
        say(f"bench.imports: a results file of {args.people:,} people through the console …")
        exchange = results_file(args.people)
        imported = results_import(exchange)
        from django.db import connection

        connection.close()
        pg_info = pg.info()

    info = machine()
    rows = args.rows
    bare_ms = bare_s / rows * 1000
    single_ms = single_s / args.one_by_one * 1000
    registered = served["registered"]
    confirm_ms = served["confirm_s"] / registered * 1000
    preview_ms = served["preview_s"] / rows * 1000
    print("Brag Event players import benchmark")
    print(
        f"  {info['cpu']}, {info['cpu_count']} CPUs; Python {info['python']}, Django "
        f"{info['django']}, PostgreSQL {pg_info['server_version']}; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(f"  a file of {rows:,} rows, {registered:,} registered ({rows - registered} refused)")
    print()
    width = 46

    def show(label: str, value: str) -> None:
        print(f"  {label:<{width}}{value}")

    show("reference: bare ORM insert of a player row", f"{bare_ms:7.3f} ms/row")
    show(
        "registering one by one (player_register)",
        f"{single_ms:7.3f} ms/row  {single_ms / bare_ms:6.1f}× the reference",
    )
    show("preview (read, check, store)", f"{preview_ms:7.3f} ms/row  {preview_ms / bare_ms:6.1f}×")
    show(
        "confirmation (register, issue, audit log)",
        f"{confirm_ms:7.3f} ms/row  {confirm_ms / bare_ms:6.1f}× the reference",
    )
    show("the upload and its preview page (request)", f"{paged['preview_request_s']:7.2f} s")
    show("the confirmation (request)", f"{paged['confirm_request_s']:7.2f} s")
    people = imported["results_players"]
    results_s = imported["results_request_s"]
    results_ms = results_s / people * 1000
    print()
    print(f"  a results file of {people:,} people, {len(exchange) / 1e6:.1f} MB")
    show(
        "results file import (request), a person",
        f"{results_ms:7.3f} ms     {results_ms / bare_ms:6.1f}× the reference",
    )
    show("results file import (request), whole", f"{results_s:7.2f} s")
    verdicts = {
        "preview request ≤ 10 s": paged["preview_request_s"] <= REQUEST_TARGET_S,
        "confirmation request ≤ 10 s": paged["confirm_request_s"] <= REQUEST_TARGET_S,
        f"results file of {people:,} people ≤ 10 s": results_s <= RESULTS_TARGET_S,
    }
    print()
    print_result(verdicts)
    return write_figures(
        args.json,
        {
            "machine": info,
            "postgresql": pg_info,
            "rows": rows,
            "registered": registered,
            "bare_insert_ms_per_row": bare_ms,
            "one_by_one_ms_per_row": single_ms,
            "preview_ms_per_row": preview_ms,
            "confirm_ms_per_row": confirm_ms,
            "confirm_over_bare_insert": confirm_ms / bare_ms,
            "one_by_one_over_bare_insert": single_ms / bare_ms,
            **paged,
            "results_people": people,
            "results_file_bytes": len(exchange),
            "results_request_s": results_s,
            "results_ms_per_person": results_ms,
            "results_over_bare_insert": results_ms / bare_ms,
            "verdicts": verdicts,
        },
    )


if __name__ == "__main__":
    raise SystemExit(main())
