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
from brag_event.players.qualify import day_cut, day_field, player_requalify
from brag_event.players.services import player_issue_money, player_register
from brag_event.standings.results import standings_marked
from brag_event.standings.selectors import standings
from brag_event.tables.seating import seating_draw
from tests.factories import (
    assert_audit_ok,
    disqualify,
    play_day,
    played,
    refused,
    user_in,
    world,
)

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


THREE = ["Andy", "Bill", "Chris"]


def named(*names: str) -> list[Player]:
    return [Player.objects.get(name=n) for n in names]


@pytest.fixture
def event(commits: Any) -> Event:
    """FLASH with Andy, Bill and Chris (1000 each, who play a hand on day 1) and Poor (50: cannot
    afford day 2, never seated); day 1 closed with "everyone who can afford it", so Poor is out
    after day 1; day 2 open."""
    w = world(3)
    player_register(event=w.event, name="Poor", starting_money=50, by=None)
    played(w)
    close(w.day, commits)
    assert qualified(w.event.days.get(number=2)) == set(THREE)
    day_open(day=w.event.days.get(number=2), by=None)
    return w.event


def test_the_day_2_close_never_requalifies_a_day_1_non_qualifier(
    event: Event, commits: Any
) -> None:
    poor = Player.objects.get(name="Poor")
    # Poor now has money enough for day 3: still out, as they were not in day 2's field.
    player_issue_money(player=poor, amount=5000, by=None)
    d2, d3 = event.days.get(number=2), event.days.get(number=3)
    assert day_field(d2) == {p.pk for p in named(*THREE)}
    play_day(d2, named(*THREE))
    preview = day_cut(d2, standings(event, d2))
    assert poor.pk not in preview.qualified
    assert preview.missed[poor.pk] == "was not in day 2's field (out at an earlier cut)"
    close(d2, commits)
    assert qualified(d3) == set(THREE)
    snapshot = StandingSnapshot.objects.get(day=d2, player=poor)
    # The richest, and still out: listed after day 2's field, as out after day 1.
    assert snapshot.qualified is False and snapshot.mark == "earlier"
    assert snapshot.out_after == 1 and snapshot.position == 4
    # Day 3's draw leaves Poor out, as not qualified.
    draw = seating_draw(day=d3, seed="s", by=None)
    assert {"player": poor.pk, "name": "Poor", "reason": "not qualified"} in draw.excluded
    assert_audit_ok(event)


def test_the_top_n_are_counted_among_the_days_field_only(event: Event, commits: Any) -> None:
    poor = Player.objects.get(name="Poor")
    player_issue_money(player=poor, amount=5000, by=None)
    d2 = event.days.get(number=2)
    play_day(d2, named(*THREE))  # one wins; the other two lose their ante alike
    cut = day_cut(d2, standings(event, d2), rule="top", top=2)
    # The winner, then the two who folded tied at second - both go through (ties at the cut);
    # Poor, richer than all, is not among them.
    assert set(cut.qualified) == {p.pk for p in named(*THREE)}
    assert poor.pk in cut.missed


def test_a_player_of_the_field_who_never_played_the_day_does_not_qualify(
    event: Event, commits: Any
) -> None:
    """RULES §4b, "Who can qualify": sitting a day out is no way through its cut, however rich
    (Chris is given 5,000 and never sits down on day 2)."""
    chris = Player.objects.get(name="Chris")
    player_issue_money(player=chris, amount=5000, by=None)
    d2, d3 = event.days.get(number=2), event.days.get(number=3)
    play_day(d2, named("Andy", "Bill"))
    cut = day_cut(d2, standings(event, d2))
    assert chris.pk not in cut.qualified
    assert cut.missed[chris.pk] == "did not play day 2 (dealt into no hand)"
    close(d2, commits)
    assert qualified(d3) == {"Andy", "Bill"}
    snap = StandingSnapshot.objects.get(day=d2, player=chris)
    assert (snap.mark, snap.qualified, snap.position) == ("did_not_play", False, 3)
    rows, cut_line = standings_marked(event, d2)
    # Those who played first (the cut is made among them), then Chris, then Poor (out after
    # day 1), whatever their money.
    assert [r["name"] for r in rows][2:] == ["Chris", "Poor"]
    assert {r["name"] for r in rows[:2]} == {"Andy", "Bill"}
    by_name = {r["name"]: r for r in rows}
    assert by_name["Chris"]["note"] == "did not play day 2"
    assert by_name["Chris"]["standing"] == "out"
    # The line lies under the qualifiers only: Chris, richer, sits below it.
    assert cut_line is not None
    assert {r["name"] for r in rows[: cut_line["after"]]} == {"Andy", "Bill"}
    assert_audit_ok(event)


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
    play_day(d2, named(*THREE, "Poor"))
    close(d2, commits)
    assert qualified(d3) == {*THREE, "Poor"}
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
    played(w)
    disqualify(w.table, w.players[2])
    rows, line = standings_marked(w.event, w.day)
    by_id = {r["player"]: r for r in rows}
    poor = Player.objects.get(name="Poor").pk
    # While day 1 is in play: its players are in; the line shows where the cut would fall.
    assert by_id[w.players[0].pk]["standing"] == "in"
    assert by_id[w.players[2].pk]["standing"] == "disqualified"
    assert line is not None and "if day 1 closed now" in line["text"]
    close(w.day, commits)
    rows, line = standings_marked(w.event, Day.objects.get(pk=w.day.pk))
    by_id = {r["player"]: r for r in rows}
    assert by_id[w.players[0].pk]["standing"] == "qualified"
    assert by_id[w.players[0].pk]["note"] == "qualified for day 2"
    assert by_id[poor]["standing"] == "out" and by_id[poor]["note"] == "did not play day 1"
    assert by_id[w.players[2].pk]["standing"] == "disqualified"
    # The line falls right under the last qualifier: everyone above it went through.
    assert line is not None
    above, below = rows[: line["after"]], rows[line["after"] :]
    assert above and all(r["standing"] == "qualified" for r in above)
    assert all(r["standing"] != "qualified" for r in below)
    assert line["text"] == "The cut: 2 qualified for day 2"


def test_no_cut_line_before_the_day_opens_nor_on_the_last_day(commits: Any) -> None:
    event = event_create_flash(name="Before", by=None)
    player_register(event=event, name="Ann", starting_money=1000, by=None)
    d1 = event.days.get(number=1)
    rows, line = standings_marked(event, d1)
    assert line is None
    assert {r["standing"] for r in rows} == {"in"}
    d3 = event.days.get(number=3)
    assert standings_marked(event, d3)[1] is None
