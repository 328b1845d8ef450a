"""The results exchange file (brag-results/1, docs/results-exchange.md): exported strictly (it
fits its JSON Schema and carries no contact details), read leniently, imported as a past event
that shows on its people's pages and counts in a series, refused in words with nothing
changed. The round trip between two databases is ``test_results_exchange_databases.py``."""

from __future__ import annotations

import copy
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import TestCase

from brag_event.audit.models import AuditEntry
from brag_event.closing.exchange.document import (
    FORMAT,
    event_results_document,
    schema,
    schema_problems,
)
from brag_event.closing.exchange.reader import REFUSALS
from brag_event.closing.exchange.services import document_from_file, event_import_results
from brag_event.events.hall import announcement_post
from brag_event.events.models import Day, Event
from brag_event.events.services import event_set_starting_money
from brag_event.floor.models import Penalty, Ruling
from brag_event.ledger.audit import ledger_audit
from brag_event.organiser.results import event_results
from brag_event.players.models import Person, Player, Qualification, StandingSnapshot
from brag_event.players.people import person_update
from brag_event.players.services import player_register
from brag_event.series.selectors import series_standings
from brag_event.series.services import series_create, series_event_add
from brag_event.standings.selectors import person_history, standings
from tests.exchange_world import CONTACT, finished_event, minimal_document, renamed
from tests.factories import refused, world
from tests.once import built_once

pytestmark = pytest.mark.django_db

ROOT = Path(settings.BASE_DIR)


@pytest.fixture(scope="module")
def built_event(django_db_setup: None, django_db_blocker: Any) -> Iterator[int]:
    """``finished_event()`` once for the module (``tests.once.built_once``): about a second and
    a three-day event less per test."""
    yield from built_once(
        django_db_blocker, lambda: finished_event(TestCase.captureOnCommitCallbacks).pk
    )


@pytest.fixture
def event(built_event: int, db: Any) -> Event:
    return Event.objects.get(pk=built_event)


@pytest.fixture
def document(event: Event) -> dict[str, Any]:
    return event_results_document(event)


def copy_of(document: dict[str, Any], name: str = "FLASH 2024") -> dict[str, Any]:
    return renamed(document, name, str(uuid.uuid4()))


def unchanged() -> tuple[int, ...]:
    """Everything an import could write."""
    return (
        Event.objects.count(),
        Day.objects.count(),
        Person.objects.count(),
        Player.objects.count(),
        StandingSnapshot.objects.count(),
        Qualification.objects.count(),
        Ruling.objects.count(),
        Penalty.objects.count(),
        AuditEntry.objects.count(),
    )


def without_moment(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    out.pop("exported_at")
    out.pop("source")
    return out


# ------------------------------------------------------------------ the export


def test_the_export_fits_the_schema_and_says_the_whole_event(
    event: Event, document: dict[str, Any]
) -> None:
    assert schema_problems(document) == []
    assert document["format"] == FORMAT
    assert document["event"]["uid"] == str(event.uid) and document["event"]["name"] == "FLASH 2025"
    people = {p["number"]: p for p in document["people"]}
    numbers = {p.person.number: p for p in Player.objects.filter(event=event)}
    assert set(people) == set(numbers)
    andy = next(p for p in document["people"] if p["name"] == "Andy")
    assert andy["club"] == "Leeds Club"
    # Never a contact detail, anywhere in the file.
    text = json.dumps(document)
    assert CONTACT not in text and "07700" not in text and "email" not in text
    days = document["days"]
    assert [d["number"] for d in days] == [1, 2, 3]
    for d, day in zip(days, event.days.order_by("number"), strict=True):
        assert d["root"]["value"] == day.record_root and len(d["root"]["value"]) == 64
        assert d["rules"]["ante"] == day.ante and d["rules"]["table_min"] == day.table_min
    one = {r["number"]: r for r in days[0]["results"]}
    by_name = {p["name"]: p["number"] for p in document["people"]}
    assert days[0]["results"][0]["number"] == by_name["Bill"]  # Bill won the hand
    assert one[by_name["Dan"]]["disqualified"] and one[by_name["Dan"]]["rank"] is None
    assert days[0]["results"][-1]["number"] == by_name["Dan"]  # the disqualified last
    assert not one[by_name["Poor"]]["qualified"] and one[by_name["Andy"]]["qualified"]
    assert days[0]["root"]["hands"] == 1
    # Day 2's field: the qualifiers of day 1, and Poor, let back in.
    field = {f["number"]: f["reason"] for f in days[1]["field"]}
    assert set(field) == {by_name[n] for n in ("Andy", "Bill", "Chris", "Poor")}
    assert "a sponsor's place" in field[by_name["Poor"]]
    kinds = [(r["what_happened"], [p["kind"] for p in r["penalties"]]) for r in document["rulings"]]
    assert kinds == [("talked about a live hand", ["warning"]), ("abuse", ["disqualified"])]
    assert document["rulings"][0]["penalties"][0]["day"] == 1


def test_an_event_still_in_play_is_not_exported() -> None:
    w = world(3)
    err = refused("exchange_not_finished", lambda: event_results_document(w.event))
    assert err.message == (
        "FLASH's day 1 has not closed yet: an event's results file is written once its last "
        "day has closed."
    )


def test_the_schema_in_the_docs_is_the_one_the_export_is_checked_against() -> None:
    published = json.loads((ROOT / "docs" / "results-exchange.schema.json").read_text("utf-8"))
    assert published == schema(), "docs/results-exchange.schema.json is out of date: make schema"


def test_every_refusal_is_in_the_docs() -> None:
    doc = (ROOT / "docs" / "results-exchange.md").read_text(encoding="utf-8")
    for code in [*REFUSALS, "exchange_not_finished", "event_imported"]:
        assert f"`{code}`" in doc, code


# ------------------------------------------------------------------ importing


def test_an_imported_event_is_a_past_event_with_the_same_results(
    document: dict[str, Any], event: Event
) -> None:
    other = copy_of(document)
    made = event_import_results(document=other, by=None, file_name="flash-2024.json")
    past = made.event
    assert past.imported and past.name == "FLASH 2024" and str(past.uid) == other["event"]["uid"]
    assert set(past.days.values_list("status", flat=True)) == {Day.Status.CLOSED}
    # Everyone is registered here already (the same numbers, the same names): kept.
    assert made.people_new == [] and len(made.people_known) == 5
    assert Person.objects.count() == 5
    # What it exports is what it was given (but for when and where it was written).
    again = event_results_document(past)
    assert without_moment(again) == without_moment(other)
    assert again["source"]["imported_from"].startswith("Brag Event")
    # Its final results read as the original's.
    original, imported = event_results(event), event_results(past)
    assert [(r["name"], r["rank"], r["total"]) for r in imported.rows] == [
        (r["name"], r["rank"], r["total"]) for r in original.rows
    ]
    assert [r.value for r in imported.roots] == [r.value for r in original.roots]
    assert [p["what"] for p in imported.penalties] == [p["what"] for p in original.penalties]
    # Its standings are its last day's results (no money moved here).
    rows = standings(past)
    assert [(r["name"], r["total"], r["rank"]) for r in rows] == [
        (r["name"], r["total"], r["rank"]) for r in standings(event)
    ]
    # The audit has nothing to recompute: it passes, saying the roots are imported.
    report = ledger_audit(event=past)
    assert report.ok, report.lines()
    assert "3 closed days' roots imported as published" in "\n".join(report.lines())
    entry = AuditEntry.objects.get(verb="event.import")
    assert entry.event_id == past.pk and entry.data["file"] == "flash-2024.json"


def test_the_past_event_shows_on_its_peoples_pages_and_counts_in_a_series(
    document: dict[str, Any], event: Event
) -> None:
    other = copy_of(document)
    newcomer = {"number": 7001, "name": "Zoe Newcomer", "club": "Bristol Brag"}
    other["people"].append(newcomer)
    other["days"][2]["results"].insert(
        0, {"rank": 1, "number": 7001, "money": 5000, "change": 4000, "qualified": False}
    )
    for row in other["days"][2]["results"][1:]:
        row["rank"] = row["rank"] + 1 if row["rank"] else None
    made = event_import_results(document=other, by=None)
    assert made.people_new == [7001]
    zoe = Person.objects.get(number=7001)
    assert zoe.name == "Zoe Newcomer" and zoe.club == "Bristol Brag" and zoe.email == ""
    (history,) = person_history(zoe)
    assert history["event_name"] == "FLASH 2024" and history["money"] == 5000
    assert history["rank"] == 1 and [d["rank"] for d in history["days"]] == [None, None, 1]
    bill = Person.objects.get(name="Bill")
    events = {h["event_name"]: h for h in person_history(bill)}
    assert set(events) == {"FLASH 2025", "FLASH 2024"}
    assert events["FLASH 2024"]["rank"] == events["FLASH 2025"]["rank"] + 1
    series = series_create(name="Winter", points=[10, 6, 4, 3, 2, 1], by=None)
    series_event_add(series=series, event=event, by=None)
    series_event_add(series=series, event=made.event, by=None)
    table = series_standings(series)
    assert all(c.final for c in table.columns)
    points = {r.name: r.points for r in table.rows}
    assert points["Zoe Newcomer"] == 10  # first in FLASH 2024 only
    assert points["Bill"] == 10 + 6  # first in FLASH 2025, second in FLASH 2024


def test_a_past_event_takes_no_registration_money_or_announcement(
    document: dict[str, Any],
) -> None:
    past = event_import_results(document=copy_of(document), by=None).event
    player = past.players.first()
    assert player is not None
    for call in (
        lambda: player_register(event=past, name="Late Larry", starting_money=10, by=None),
        lambda: event_set_starting_money(event=past, amount=10, by=None),
        lambda: announcement_post(event=past, text="hello", by=None),
    ):
        err = refused("event_imported", call)
        assert "FLASH 2024 was imported from a results file: it is a past event" in err.message


def test_a_minimal_document_is_read_leniently() -> None:
    """Unknown fields are ignored; missing optional ones take their defaults."""
    minimal = {
        "format": FORMAT,
        "written_by": "a club's spreadsheet",  # unknown: ignored
        "event": {"name": "Club night", "colour": "green"},
        "people": [{"number": "4001", "name": "  Ann   Lee "}, {"number": 4002, "name": "Bo"}],
        "days": [
            {
                "number": 1,
                "rules": {
                    "ante": 1,
                    "min_bet": 2,
                    "max_bet": 20,
                    "max_raise": 20,
                    "house_fee": 0,
                    "table_min": 10,
                    "table_max": 500,
                },
                "results": [
                    {"rank": 1, "number": 4002, "money": 300},
                    {"rank": 2, "number": 4001, "money": 100.0},
                ],
            }
        ],
    }
    made = event_import_results(document=copy.deepcopy(minimal), by=None)
    past = made.event
    assert past.currency == "MB" and past.time_zone == settings.TIME_ZONE
    day = past.days.get()
    assert day.seats == 6 and day.record_root == "" and day.status == Day.Status.CLOSED
    assert [(r["name"], r["total"]) for r in standings(past)] == [("Bo", 300), ("Ann Lee", 100)]
    document = event_results_document(past)
    assert schema_problems(document) == []
    # The same file again is the same event: refused, though it names no uid.
    refused("exchange_event_here", lambda: event_import_results(document=minimal, by=None))


# ------------------------------------------------------------------ refusals change nothing


def test_importing_the_same_file_twice_is_refused(document: dict[str, Any]) -> None:
    other = copy_of(document)
    event_import_results(document=other, by=None)
    before = unchanged()
    err = refused("exchange_event_here", lambda: event_import_results(document=other, by=None))
    assert err.message.startswith("FLASH 2024 was imported here already, on ")
    assert err.message.endswith(": importing it again would count its results twice.")
    assert unchanged() == before
    # The event's own file, brought back where it was written.
    err = refused("exchange_event_here", lambda: event_import_results(document=document, by=None))
    assert "FLASH 2025 is this installation's own event" in err.message
    assert unchanged() == before


def _edit(document: dict[str, Any], change: Any) -> dict[str, Any]:
    out = copy_of(document)
    change(out)
    return out


def _unknown_number(doc: dict[str, Any]) -> None:
    doc["days"][1]["results"][2]["number"] = 1043


def _no_money(doc: dict[str, Any]) -> None:
    del doc["days"][0]["results"][0]["money"]


def _bad_rules(doc: dict[str, Any]) -> None:
    doc["days"][1]["rules"]["min_bet"] = doc["days"][1]["rules"]["max_bet"] + 1


REFUSED = [
    ("not_json", None, "exchange_not_json", "The file is not JSON: "),
    (
        "newer format",
        lambda d: d.update(format="brag-results/2"),
        "exchange_format",
        'This file is in the format "brag-results/2", a version this installation does not '
        "read: it reads brag-results/1.",
    ),
    (
        "another format",
        lambda d: d.update(format="csv"),
        "exchange_format",
        'This file is in the format "csv": it reads brag-results/1.',
    ),
    (
        "unknown number",
        _unknown_number,
        "exchange_unknown_number",
        "Day 2's results name membership number 1043, who is not among the event's people.",
    ),
    (
        "missing money",
        _no_money,
        "exchange_missing",
        "Day 1's results, row 1 has no money.",
    ),
    ("rules", _bad_rules, "exchange_rules", "Day 2's rules: "),
    (
        "not a number",
        lambda d: d["people"][0].update(number="abc"),
        "exchange_invalid",
        "The membership number of person 1 of the event's people must be a whole number from "
        '1 to 99,999,999, not "abc".',
    ),
    (
        "a day twice",
        lambda d: d["days"].append(dict(d["days"][0])),
        "exchange_day_twice",
        "Day 1 is in the file twice.",
    ),
    (
        "a penalty's unknown day",
        lambda d: d["rulings"][0]["penalties"][0].update(day=5),
        "exchange_unknown_day",
        "Ruling 1's penalty 1 names day 5, which is not among the event's days.",
    ),
    (
        "a number twice",
        lambda d: d["people"].append(dict(d["people"][0])),
        "exchange_number_twice",
        "is among the event's people twice.",
    ),
    (
        "a look-alike name taken",
        lambda d: d["event"].update(name="FL\u0410SH 2025"),
        "exchange_event_name_taken",
        "An event called “FLASH 2025” is here already (“FL\u0410SH 2025” looks the same), and "
        "it is another event.",
    ),
    (
        "name taken",
        lambda d: d["event"].update(name="FLASH 2025"),
        "exchange_event_name_taken",
        "An event called “FLASH 2025” is here already, and it is another event.",
    ),
]


@pytest.mark.parametrize(("case", "change", "code", "words"), REFUSED, ids=[r[0] for r in REFUSED])
def test_a_refused_import_says_why_and_changes_nothing(
    document: dict[str, Any], case: str, change: Any, code: str, words: str
) -> None:
    before = unchanged()
    if change is None:
        err = refused(code, lambda: document_from_file(b'{"format": "brag-results/1",'))
    else:
        err = refused(code, lambda: event_import_results(document=_edit(document, change), by=None))
    assert words in err.message, err.message
    assert unchanged() == before


def test_a_number_that_is_someone_else_here_is_refused_naming_both(
    document: dict[str, Any],
) -> None:
    andy = Person.objects.get(name="Andy")
    person_update(person=andy, name="Andrew Smith", by=None)
    Player.objects.filter(person=andy).update(name="Andrew Smith")  # every entry as him
    before = unchanged()
    old_file = copy_of(document)  # written before files carried who each person is
    for p in old_file["people"]:
        del p["uid"]
    err = refused(
        "exchange_name_mismatch",
        lambda: event_import_results(document=old_file, by=None),
    )
    assert err.message == (
        f"Membership number {andy.number} is Andrew Smith here, but the file names them Andy. "
        "If they are two people, the file was written where people are numbered on their own "
        "and before files said who each person is: export it again there (a file written now "
        "carries each person's identity, and a number taken here is given a new one). If they "
        "are one person, correct the name here (their person's page) or in the file. Then "
        "import again."
    )
    assert unchanged() == before
    # The file as written now: Andy is found by who he is, whatever he is called here.
    made = event_import_results(document=copy_of(document), by=None)
    assert len(made.people_new) == 0 and made.renumbered == {}
    assert made.event.players.get(person=andy).name == "Andy"


def test_people_are_found_by_their_uid_and_numbers_taken_here_are_given_new_ones(
    document: dict[str, Any],
) -> None:
    """Issue 43: both installations number people from 1001. The file's people are someone
    new here (other uids): those whose numbers are held by local people get the next free
    numbers and the import says so; a person the file knows by uid is found whatever their
    number is here."""
    other = copy_of(document)
    numbers = [p["number"] for p in other["people"]]
    for p in other["people"]:
        p["uid"] = str(uuid.uuid4())  # another installation's people
    known = other["people"][0]
    here_andy = Person.objects.get(number=known["number"])
    known["uid"] = str(here_andy.uid)  # ... but one the file knows as Andy here
    known["number"] = 9001  # under the other installation's own number
    for d in other["days"]:
        for r in d["results"]:
            r["number"] = 9001 if r["number"] == numbers[0] else r["number"]
        for f in d["field"]:
            f["number"] = 9001 if f["number"] == numbers[0] else f["number"]
    for r in other["rulings"]:
        for p in r["penalties"]:
            p["number"] = 9001 if p["number"] == numbers[0] else p["number"]
    top = max(Person.objects.values_list("number", flat=True))
    made = event_import_results(document=other, by=None)
    assert made.people_known == [9001]
    assert sorted(made.renumbered) == sorted(numbers[1:])
    assert sorted(made.renumbered.values()) == list(range(top + 1, top + len(numbers)))
    assert "4 new people had a membership number that is someone else's here, so each has a "
    assert "each has a new one: " in made.summary
    past = made.event
    assert past.players.get(person=here_andy).name == here_andy.name
    for p in other["people"][1:]:
        person = Person.objects.get(uid=p["uid"])
        assert person.number == made.renumbered[p["number"]] and person.name == p["name"]
    again = event_results_document(past)
    assert {p["uid"] for p in again["people"]} == {p["uid"] for p in other["people"]}
    entry = AuditEntry.objects.get(verb="event.import", event_id=past.pk)
    assert entry.data["renumbered"] == {str(a): b for a, b in made.renumbered.items()}


def test_a_refusal_points_at_the_place_in_the_file(document: dict[str, Any]) -> None:
    err = refused(
        "exchange_unknown_number",
        lambda: event_import_results(document=_edit(document, _unknown_number), by=None),
    )
    assert err.details["at"] == "/days/1/results/2/number"


def test_two_people_of_one_name_come_in_told_apart_by_their_numbers() -> None:
    document = minimal_document()
    document["people"].append({"number": 4003, "name": "ANN LEE"})
    document["days"][0]["results"].append({"rank": 3, "number": 4003, "money": 50})
    past = event_import_results(document=document, by=None).event
    assert [r["name"] for r in standings(past)] == [
        "Bo",
        "Ann Lee (no. 4001)",
        "ANN LEE (no. 4003)",
    ]
    assert past.players.filter(look_alike_confirmed=True).count() == 1
    assert schema_problems(event_results_document(past)) == []
