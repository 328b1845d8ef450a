"""Who plays which day: a close qualifies only among the day's own players, and a player out
at a cut comes back only by the organiser's explicit, recorded decision."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.services import day_close_request
from brag_event.core.actors import Actor
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.players.models import Player, Qualification, StandingSnapshot
from brag_event.players.qualify import day_cut, day_field, player_requalify, standings_marks
from brag_event.players.selectors import standings
from brag_event.players.services import player_issue_money, player_register
from brag_event.tables.seating import seating_draw
from tests.factories import assert_audit_ok, disqualify, refused, user_in, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def commits(django_capture_on_commit_callbacks: Any) -> Any:
    return django_capture_on_commit_callbacks


def close(day: Day, commits: Any) -> None:
    with commits(execute=True):
        day_close_request(day=day, by=None)
    day.refresh_from_db()
    assert day.status == Day.Status.CLOSED


def qualified(day: Day) -> set[str]:
    return set(Qualification.objects.filter(day=day).values_list("player__name", flat=True))


@pytest.fixture
def event(commits: Any) -> Event:
    """FLASH with Ann, Ben, Cat (1000 each) and Poor (50: cannot afford day 2); day 1 closed
    with "everyone who can afford it", so Poor is out after day 1; day 2 open."""
    event = event_create_flash(name="Brag Open 2026", by=None)
    for name in ("Ann", "Ben", "Cat"):
        player_register(event=event, name=name, starting_money=1000, by=None)
    player_register(event=event, name="Poor", starting_money=50, by=None)
    d1 = day_open(day=event.days.get(number=1), by=None)
    close(d1, commits)
    assert qualified(event.days.get(number=2)) == {"Ann", "Ben", "Cat"}
    day_open(day=event.days.get(number=2), by=None)
    return event


def test_the_day_2_close_never_requalifies_a_day_1_non_qualifier(
    event: Event, commits: Any
) -> None:
    poor = Player.objects.get(name="Poor")
    # Poor now has money enough for day 3: still out, as they were not in day 2's field.
    player_issue_money(player=poor, amount=5000, by=None)
    d2, d3 = event.days.get(number=2), event.days.get(number=3)
    assert day_field(d2) == set(
        Player.objects.filter(name__in=["Ann", "Ben", "Cat"]).values_list("pk", flat=True)
    )
    preview = day_cut(d2, standings(event, d2))
    assert poor.pk not in preview.qualified
    assert preview.missed[poor.pk] == "was not in day 2's field (out at an earlier cut)"
    close(d2, commits)
    assert qualified(d3) == {"Ann", "Ben", "Cat"}
    snapshot = StandingSnapshot.objects.get(day=d2, player=poor)
    assert snapshot.qualified is False and snapshot.rank == 1  # the richest, and still out
    # Day 3's draw leaves Poor out, as not qualified.
    draw = seating_draw(day=d3, seed="s", by=None)
    assert {"player": poor.pk, "name": "Poor", "reason": "not qualified"} in draw.excluded
    assert_audit_ok(event)


def test_the_top_n_are_counted_among_the_days_field_only(event: Event, commits: Any) -> None:
    poor = Player.objects.get(name="Poor")
    player_issue_money(player=poor, amount=5000, by=None)
    d2 = event.days.get(number=2)
    cut = day_cut(d2, standings(event, d2), rule="top", top=2)
    # Ann, Ben and Cat are tied at 1000 - every one of them goes through (ties at the cut);
    # Poor, richer than all, is not among them.
    assert set(cut.qualified) == set(
        Player.objects.filter(name__in=["Ann", "Ben", "Cat"]).values_list("pk", flat=True)
    )
    assert poor.pk in cut.missed


def test_the_organisers_explicit_decision_lets_a_player_back_in_and_is_recorded(
    event: Event, commits: Any
) -> None:
    poor = Player.objects.get(name="Poor")
    player_issue_money(player=poor, amount=5000, by=None)
    d2, d3 = event.days.get(number=2), event.days.get(number=3)
    organiser = Actor(user_in("organiser", "org"), "web test")
    # A reason is needed; without one nothing changes.
    refused("reason_required", lambda: player_requalify(day=d3, player=poor, reason=" ", by=None))
    # Not past a cut that is not made yet (day 2 is open).
    refused(
        "previous_day_not_closed",
        lambda: player_requalify(day=d3, player=poor, reason="appeal", by=organiser),
    )
    assert not Qualification.objects.filter(player=poor).exists()
    # Let back in for day 2 (day 1's cut is made): plays day 2, so day 2's close may qualify.
    player_requalify(day=d2, player=poor, reason="ruled back in on appeal", by=organiser)
    assert poor.pk in day_field(d2)
    entry = AuditEntry.objects.get(verb=Verb.PLAYER_REQUALIFY)
    assert entry.actor is not None and entry.actor.get_username() == "org"
    assert entry.player_id == poor.pk and entry.day_id == d2.pk
    assert entry.data == {"day": 2, "reason": "ruled back in on appeal"}
    assert Qualification.objects.get(day=d2, player=poor).reason == (
        "let back in by the organiser: ruled back in on appeal"
    )
    refused(
        "already_qualified",
        lambda: player_requalify(day=d2, player=poor, reason="again", by=organiser),
    )
    close(d2, commits)
    assert qualified(d3) == {"Ann", "Ben", "Cat", "Poor"}
    assert_audit_ok(event)


def test_a_disqualified_player_is_never_let_back_in(commits: Any) -> None:
    w = world(3)
    disqualify(w.table, w.players[0])
    close(w.day, commits)
    d2 = w.event.days.get(number=2)
    assert w.players[0].name not in qualified(d2)
    refused(
        "player_disqualified",
        lambda: player_requalify(day=d2, player=w.players[0], reason="sorry", by=None),
    )
    refused(
        "first_day",
        lambda: player_requalify(day=w.day, player=w.players[1], reason="x", by=None),
    )


def test_standings_mark_qualified_out_and_disqualified_and_place_the_cut(commits: Any) -> None:
    w = world(3)
    player_register(event=w.event, name="Poor", starting_money=50, by=None)
    disqualify(w.table, w.players[2])
    rows = standings(w.event, w.day)
    open_marks = standings_marks(w.day, rows)
    poor = Player.objects.get(name="Poor").pk
    # While day 1 is in play: its players are in; the line shows where the cut would fall.
    assert open_marks.status[w.players[0].pk] == "in"
    assert open_marks.status[w.players[2].pk] == "disqualified"
    assert "if day 1 closed now" in open_marks.cut_label
    close(w.day, commits)
    rows = standings(w.event, w.day)
    marks = standings_marks(Day.objects.get(pk=w.day.pk), rows)
    names = {r["player"]: r["name"] for r in rows}
    assert marks.status[w.players[0].pk] == "qualified"
    assert marks.text[w.players[0].pk] == "qualified for day 2"
    assert marks.status[poor] == "out" and marks.status[w.players[2].pk] == "disqualified"
    # The line falls right under the last qualifier: everyone above it went through.
    assert marks.cut_after is not None
    above = [r["player"] for r in rows[: marks.cut_after]]
    below = [r["player"] for r in rows[marks.cut_after :]]
    assert all(marks.status[p] == "qualified" for p in above), [names[p] for p in above]
    assert all(marks.status[p] != "qualified" for p in below)
    assert marks.cut_label == "The cut: 2 qualified for day 2"


def test_no_cut_line_before_the_day_opens_nor_on_the_last_day(commits: Any) -> None:
    event = event_create_flash(name="Before", by=None)
    player_register(event=event, name="Ann", starting_money=1000, by=None)
    d1 = event.days.get(number=1)
    marks = standings_marks(d1, standings(event, d1))
    assert marks.cut_after is None and marks.cut_label == ""
    assert set(marks.status.values()) == {"in"}
    d3 = event.days.get(number=3)
    assert standings_marks(d3, standings(event, d3)).cut_after is None
