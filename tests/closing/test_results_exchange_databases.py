"""The results exchange file round-tripped between two databases: an event played and closed
through the services in the test database is exported, the file is imported by
``manage.py results_import`` into a second, fresh database (another installation, whose own
people hold the same membership numbers: both number from 1001), exported there again by
``manage.py results_export``, and the two files say the same but for the numbers given there.
There the past event passes the ledger audit, shows on its people's pages and counts in a
series; the same file again, and a tampered one, are refused in words, changing nothing. The
file written there comes back here finding every person by who they are (issue 43).

The second database is made next to the test database — another PostgreSQL database on the
same server, or another SQLite file — and dropped at the end."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import dj_database_url
import psycopg
import pytest
from psycopg import sql

from brag_event.closing.exchange.document import event_results_document
from brag_event.closing.exchange.services import event_import_results
from brag_event.players.models import Person
from tests.exchange_world import finished_event

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _server(params: dict[str, Any]) -> psycopg.Connection[Any]:
    return psycopg.connect(
        dbname="postgres",
        user=params["USER"],
        password=params["PASSWORD"] or None,
        host=params["HOST"] or "127.0.0.1",
        port=params["PORT"] or 5432,
        autocommit=True,
    )


@pytest.fixture
def other_database(tmp_path: Path) -> Iterator[str]:
    """The URL of a second, empty database."""
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url.startswith(("postgres://", "postgresql://")):
        yield f"sqlite:///{tmp_path / 'other.sqlite3'}"
        return
    params: dict[str, Any] = dict(dj_database_url.parse(url))
    name = f"{(params['NAME'] or 'brag')[:30]}_exchange_{secrets.token_hex(4)}"
    with _server(params) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        auth = params["USER"] + (f":{params['PASSWORD']}" if params["PASSWORD"] else "")
        yield f"postgres://{auth}@{params['HOST'] or '127.0.0.1'}:{params['PORT'] or 5432}/{name}"
    finally:
        with _server(params) as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )


def run(args: list[str], url: str, *, ok: bool = True) -> subprocess.CompletedProcess[str]:
    drop = {"DJANGO_ALLOW_ASYNC_UNSAFE", "CELERY_BROKER_URL", "DJANGO_SETTINGS_MODULE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env.update(DATABASE_URL=url, DJANGO_SETTINGS_MODULE="brag_event.settings", PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    if ok:
        assert done.returncode == 0, f"{args} exited {done.returncode}:\n{done.stdout}{done.stderr}"
    return done


# Run in the other database: its own people, numbered there as the file's first three are here.
REGISTER = textwrap.dedent(
    """
    import sys
    import django

    django.setup()
    from brag_event.players.people import person_create

    for i, number in enumerate(sys.argv[1:]):
        person_create(name=f"Local {i + 1}", number=int(number), club="Bath Brag")
    print("registered")
    """
)

# Run in the other database: the past event on Bill's page, and in a series.
LOOK = textwrap.dedent(
    """
    import json
    import sys
    import django

    django.setup()
    from brag_event.events.models import Event
    from brag_event.players.models import Person
    from brag_event.standings.selectors import person_history
    from brag_event.series.selectors import series_standings
    from brag_event.series.services import series_create, series_event_add

    event = Event.objects.get(uid=sys.argv[2])
    bill = Person.objects.get(uid=sys.argv[1])
    series = series_create(name="Season", points=[10, 6, 4, 3, 2], by=None)
    series_event_add(series=series, event=event, by=None)
    print(json.dumps({
        "history": [
            {"event": h["event_name"], "rank": h["rank"], "money": h["money"],
             "days": [d["rank"] for d in h["days"]]}
            for h in person_history(bill)
        ],
        "club": bill.club,
        "series": [[r.name, r.points] for r in series_standings(series).rows],
        "imported": event.imported_at is not None,
    }))
    """
)


def numbered_back(document: dict[str, Any], back: dict[int, int]) -> dict[str, Any]:
    """``document`` with the membership numbers ``back`` maps changed, in the export's order."""
    out = json.loads(json.dumps(document))

    def to(number: int) -> int:
        return back.get(number, number)

    for p in out["people"]:
        p["number"] = to(p["number"])
    out["people"].sort(key=lambda p: p["number"])
    for d in out["days"]:
        for r in d["results"]:
            r["number"] = to(r["number"])
        for f in d["field"]:
            f["number"] = to(f["number"])
        d["field"].sort(key=lambda f: f["number"])
    for r in out["rulings"]:
        for p in r["penalties"]:
            p["number"] = to(p["number"])
        r["penalties"].sort(key=lambda p: (p["number"], p["kind"]))
    return out


def counts(url: str) -> str:
    code = (
        "import django; django.setup(); "
        "from brag_event.events.models import Event; from brag_event.players.models import "
        "Person, Player, StandingSnapshot; "
        "print([m.objects.count() for m in (Event, Person, Player, StandingSnapshot)])"
    )
    return run(["-c", code], url).stdout.strip()


def test_the_results_file_round_trips_between_two_databases(
    django_capture_on_commit_callbacks: Any, other_database: str, tmp_path: Path
) -> None:
    event = finished_event(django_capture_on_commit_callbacks)
    document = event_results_document(event)
    sent = tmp_path / "flash-2025.json"
    sent.write_text(json.dumps(document, indent=2), encoding="utf-8")
    bill = Person.objects.get(name="Bill")
    taken = [p["number"] for p in document["people"][:3]]

    other = other_database
    run(["manage.py", "migrate", "--noinput"], other)
    assert "registered" in run(["-c", REGISTER, *map(str, taken)], other).stdout

    done = run(["manage.py", "results_import", str(sent)], other)
    assert (
        "FLASH 2025 imported as a past event: 3 days, 5 players (0 already registered here, "
        "5 new). 3 new people had a membership number that is someone else's here, so each has "
        "a new one: " in done.stdout
    )

    back = tmp_path / "back.json"
    run(["manage.py", "results_export", str(event.uid), "--file", str(back)], other)
    returned = json.loads(back.read_text(encoding="utf-8"))
    assert returned["source"]["imported_from"].startswith("Brag Event")
    for kept in (document, returned):
        kept.pop("exported_at")
        kept.pop("source")
    # The same results and people, each under the number given there to those whose own was
    # a local person's: the uids say who is who.
    there = {p["uid"]: p["number"] for p in returned["people"]}
    here = {p["uid"]: p["number"] for p in document["people"]}
    assert there.keys() == here.keys()
    moved = {here[u]: there[u] for u in here if here[u] != there[u]}
    assert sorted(moved) == sorted(taken) and not set(moved.values()) & set(here.values())
    assert numbered_back(returned, {v: k for k, v in moved.items()}) == document

    # There it is a past event of its own: audited, on Bill's page, counted in a series.
    assert "PASS" in run(["manage.py", "audit_ledger"], other).stdout
    seen = json.loads(run(["-c", LOOK, str(bill.uid), str(event.uid)], other).stdout)
    assert seen["imported"] and seen["club"] == bill.club
    bill_no = bill.number
    bills = next(r for r in document["days"][2]["results"] if r["number"] == bill_no)
    assert seen["history"] == [
        {
            "event": "FLASH 2025",
            "rank": bills["rank"],
            "money": bills["money"],
            "days": [
                next(r["rank"] for r in d["results"] if r["number"] == bill_no)
                for d in document["days"]
            ],
        }
    ]
    assert seen["series"][0] == ["Bill", 10]

    # The same file again, and a tampered one: refused in words, nothing changed.
    before = counts(other)
    again = run(["manage.py", "results_import", str(sent)], other, ok=False)
    assert again.returncode == 1
    assert "FLASH 2025 was imported here already, on " in again.stderr
    assert "(exchange_event_here)" in again.stderr
    tampered = json.loads(sent.read_text(encoding="utf-8"))
    tampered["event"].update(uid="5f0b6a0e-0000-4000-8000-000000000001", name="FLASH 2026")
    tampered["days"][1]["results"][0]["number"] = 1043
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered), encoding="utf-8")
    refused = run(["manage.py", "results_import", str(bad)], other, ok=False)
    assert refused.returncode == 1
    assert (
        "Day 2's results name membership number 1043, who is not among the event's people."
        in refused.stderr
    )
    assert counts(other) == before

    # The file written there comes back here as another event (its copy under another name):
    # every person is found by who they are, though three carry the numbers given there.
    there_file = json.loads(back.read_text(encoding="utf-8"))
    there_file["event"].update(uid="5f0b6a0e-0000-4000-8000-000000000002", name="FLASH 2025 B")
    people_before = Person.objects.count()
    made = event_import_results(document=there_file, by=None)
    assert made.people_new == [] and made.renumbered == {}
    assert Person.objects.count() == people_before
    assert {p.person.uid for p in made.event.players.select_related("person")} == {
        p.person.uid for p in event.players.select_related("person")
    }
