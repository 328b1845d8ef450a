"""A finished event to export, built through the services as in production: three days of
Andy, Bill, Chris, Dan and Poor. Day 1: Bill wins a hand, Andy is warned, Dan is disqualified
and Poor (50) cannot afford day 2; Poor is let back in for day 2 by the organiser (and does not play
it); days 2 and 3 seat the three, who play one hand each day (RULES §4b: only the players of a
day who played it can qualify). Andy plays for Leeds Club; everyone has contact details, which
no results file may carry."""

from __future__ import annotations

import copy
from typing import Any

from brag_event.closing.exchange.services import event_import_results
from brag_event.closing.services import day_close_request
from brag_event.events.models import Event
from brag_event.events.services import day_open
from brag_event.floor.services import ruling_record
from brag_event.players.models import Person
from brag_event.players.people import person_update
from brag_event.players.qualify import player_requalify
from brag_event.players.services import player_register
from brag_event.tables.services import seat_buy_in, table_create

from .factories import World, disqualify, world
from .scenarios import ends_by_folds

CONTACT = "@contact.example"


def finished_event(commits: Any, name: str = "FLASH 2025") -> Event:
    """``commits``: pytest-django's ``django_capture_on_commit_callbacks`` (the closes run on
    commit)."""
    w = world(4, name=name, money=1000, buy_in=200)
    poor = player_register(event=w.event, name="Poor", starting_money=50, by=None)
    for i, person in enumerate(Person.objects.filter(entries__event=w.event).order_by("pk")):
        person_update(
            person=person,
            club="Leeds Club" if person.name == "Andy" else None,
            email=f"p{i}{CONTACT}",
            phone=f"07700 900{i:03d}",
            by=None,
        )
    ends_by_folds(w)
    ruling_record(
        table=w.table,
        what_happened="talked about a live hand",
        decision="a warning",
        players=[w.players[0].pk],
        penalty="warning",
        by=None,
    )
    disqualify(w.table, w.players[3])
    for number in (1, 2, 3):
        day = w.event.days.get(number=number)
        if number > 1:
            if number == 2:
                player_requalify(day=day, player=poor, reason="a sponsor's place", by=None)
            day = day_open(day=day, by=None)
            table = table_create(day=day, by=None)
            seats = [
                seat_buy_in(table=table, seat_number=i + 1, player=p, amount=200, by=None)
                for i, p in enumerate(w.players[:3])
            ]
            ends_by_folds(World(w.event, day, table, w.players[:3], seats))
        with commits(execute=True):
            day_close_request(day=day, by=None)
    w.event.refresh_from_db()
    return w.event


def renamed(document: dict[str, Any], name: str, uid: str) -> dict[str, Any]:
    """The same results as another event (another name and uid): importable here, beside the
    event it was exported from."""
    out = copy.deepcopy(document)
    out["event"]["name"] = name
    out["event"]["uid"] = uid
    return out


def minimal_document(name: str = "Club night") -> dict[str, Any]:
    """The least a results file says: an event's name, two people, one day's rules and
    results (every other field takes its default when read)."""
    return {
        "format": "brag-results/1",
        "event": {"name": name},
        "people": [{"number": 4001, "name": "Ann Lee"}, {"number": 4002, "name": "Bo"}],
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
                    {"rank": 2, "number": 4001, "money": 100},
                ],
            }
        ],
    }


def past_event(name: str = "Club night") -> Event:
    """A past event imported from ``minimal_document``."""
    return event_import_results(document=minimal_document(name), by=None).event
