"""A closed day's standings never move (RULES §4b, "Standings after a close"): every surface that
shows them — the public page, the API, the organisers' CSV, the results page, the exchange
file's day — reads what the close took, whatever happens later; and the event's final
standings follow the Decision's order, series points with them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from brag_event.closing.count import count_difference_rule, table_count_enter
from brag_event.closing.exchange.document import _day
from brag_event.closing.models import SeatCount
from brag_event.closing.services import day_close_request
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.services import day_open, day_set_qualification, event_set_count_at_close
from brag_event.players.models import Player
from brag_event.players.qualify import player_requalify
from brag_event.players.services import player_issue_money, player_register
from brag_event.standings.results import final_standings, since_close, standings_marked
from brag_event.tables.models import Seat, Table
from brag_event.tables.withdraw import player_withdraw
from tests.factories import (
    assert_audit_ok,
    disqualify,
    play_day,
    play_hand,
    signed_in,
    world,
)

pytestmark = pytest.mark.django_db

FIVE = ["Andy", "Bill", "Chris", "Dan", "Eddie"]


def close(day: Day, commits: Any) -> Day:
    with commits(execute=True):
        day_close_request(day=day, by=None)
    day.refresh_from_db()
    assert day.status == Day.Status.CLOSED, DayClose.objects.get(day=day).report
    return day


def players(*names: str) -> list[Player]:
    return [Player.objects.get(name=n) for n in names]


@pytest.fixture
def day_1_closed(django_capture_on_commit_callbacks: Any) -> Event:
    """Andy, Bill, Chris and Dan play day 1 (Andy wins, the others lose an ante each) and Eddie,
    the richest, never sits down; day 1 closes with the top 2 qualifying (Andy, and the three
    tied behind him: ties at the cut go through). Day 2 is open, its qualifiers at a table
    where Bill won a hand."""
    w = world(4)
    player_register(event=w.event, name="Eddie", starting_money=5000, by=None)
    play_hand(w, winner=w.players[0])
    day_set_qualification(day=w.day, rule="top", top=2, by=None)
    close(w.day, django_capture_on_commit_callbacks)
    d2 = day_open(day=w.event.days.get(number=2), by=None)
    play_day(d2, players("Andy", "Bill", "Chris", "Dan"), winner=players("Bill")[0])
    return w.event


def surfaces(event: Event, day: Day, organiser: Client) -> dict[str, bytes]:
    """Every surface that shows ``day``'s standings, as bytes (the page's standings table, not
    its clock or the state of the day in play)."""
    public = Client()
    page = public.get(f"/standings/{event.pk}/?day={day.number}").content.decode()
    board = page[page.index('<table class="board">') : page.index("</table>")]
    results = organiser.get(reverse("organiser:results_day", args=[day.pk])).content.decode()
    sheet = results[results.index('<table class="paper-table') : results.rindex("</table>")]
    number = dict(Player.objects.filter(event=event).values_list("pk", "person__number"))
    api = public.get(f"/api/v1/events/{event.pk}/standings/?day={day.number}").json()
    return {
        # The standings and their cut (beside them, ``since_close`` says later decisions).
        "api": json.dumps([api["standings"], api["cut"]]).encode(),
        "page": board.encode(),
        "csv": organiser.get(
            reverse("organiser:export_standings", args=[event.pk]), {"day": day.number}
        ).getvalue(),
        "results": sheet.encode(),
        "exchange": repr(_day(day, DayClose.objects.get(day=day), number)).encode(),
    }


def test_day_1_of_the_fixture_is_ordered_marked_and_cut(day_1_closed: Event) -> None:
    d1 = day_1_closed.days.get(number=1)
    rows, cut = standings_marked(day_1_closed, d1)
    said = [(r["name"], r["rank"], r["standing"], r["note"]) for r in rows]
    assert said == [
        ("Andy", 1, "qualified", "qualified for day 2"),
        ("Bill", 2, "qualified", "qualified for day 2"),
        ("Chris", 2, "qualified", "qualified for day 2"),
        ("Dan", 2, "qualified", "qualified for day 2"),
        # Eddie has the most money and did not play: below the line, whatever his money.
        ("Eddie", 5, "out", "did not play day 1"),
    ]
    assert cut == {"after": 4, "text": "The cut: 4 qualified for day 2"}


@pytest.mark.slow
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_later_money_moves_and_decisions_never_move_a_closed_day(
    day_1_closed: Event, data: st.DataObject, django_capture_on_commit_callbacks: Any
) -> None:
    """Any later money movement, let-back-in, disqualification, withdrawal, hand, the next
    day's close or a count correction at it leaves day 1's standings byte-identical on every
    surface."""
    event = day_1_closed
    d1 = event.days.get(number=1)
    with transaction.atomic():  # each example rolled back: the same event every time
        organiser = signed_in("organiser", "org-surfaces")
        before = surfaces(event, d1, organiser)
        steps = data.draw(st.lists(st.sampled_from(OPERATIONS), min_size=1, max_size=4))
        for step in steps:
            said = step(event, data, django_capture_on_commit_callbacks)
            note(f"{step.__name__}: {said}")
        after = surfaces(event, Day.objects.get(pk=d1.pk), organiser)
        for name, body in before.items():
            assert after[name] == body, name
        assert_audit_ok(event)
        transaction.set_rollback(True)


def _issue(event: Event, data: st.DataObject, _commits: Any) -> str:
    player = data.draw(st.sampled_from(list(Player.objects.filter(event=event).order_by("pk"))))
    amount = data.draw(st.integers(1, 5000))
    player_issue_money(player=player, amount=amount, by=None)
    return f"{amount} to {player.name}"


def _let_back(event: Event, data: st.DataObject, _commits: Any) -> str:
    d2 = event.days.get(number=2)
    (eddie,) = players("Eddie")
    if (
        d2.status != Day.Status.OPEN
        or eddie.withdrawn_at is not None
        or Player.objects.filter(qualifications__day=d2, name="Eddie").exists()
    ):
        return "nothing"
    player_requalify(day=d2, player=eddie, reason="a sponsor's place", by=None)
    return "Eddie"


def _disqualify(event: Event, data: st.DataObject, _commits: Any) -> str:
    seated = list(Seat.objects.filter(table__day__event=event, left_at__isnull=True).order_by("pk"))
    if not seated:
        return "nothing"
    seat = data.draw(st.sampled_from(seated))
    disqualify(seat.table, seat.player)
    return seat.player.name


def _withdraw(event: Event, data: st.DataObject, _commits: Any) -> str:
    player = data.draw(st.sampled_from(list(Player.objects.filter(event=event).order_by("pk"))))
    if player.withdrawn_at is not None or Seat.objects.filter(
        player=player, left_at__isnull=True, table__hands__status="in_progress"
    ):
        return "nothing"
    player_withdraw(player=player, by=None)
    return player.name


def _hand(event: Event, data: st.DataObject, _commits: Any) -> str:
    d2 = event.days.get(number=2)
    if d2.status != Day.Status.OPEN:
        return "nothing"
    fit = [
        p
        for p in Player.objects.filter(qualifications__day=d2, withdrawn_at__isnull=True).order_by(
            "pk"
        )
        if p.balance >= 300 and not Seat.objects.filter(player=p, left_at__isnull=True)
    ]
    fit = [p for p in fit if not p.penalties.filter(kind="disqualified", lifted_at__isnull=True)]
    if len(fit) < 2:
        return "nothing"
    winner = data.draw(st.sampled_from(fit))
    play_day(d2, fit, winner=winner)
    return f"{len(fit)} players, {winner.name} wins"


def _close_day_2(event: Event, data: st.DataObject, commits: Any) -> str:
    d2 = event.days.get(number=2)
    if d2.status != Day.Status.OPEN:
        return "nothing"
    close(d2, commits)
    return "closed"


def _count_correction(event: Event, data: st.DataObject, commits: Any) -> str:
    """Day 2 closed with the chip count: one seat's stack found short and corrected to the
    count (a ``count`` transfer moves its money)."""
    d2 = event.days.get(number=2)
    seated = list(Seat.objects.filter(table__day=d2, left_at__isnull=True).order_by("pk"))
    if d2.status != Day.Status.OPEN or not seated:
        return "nothing"
    event_set_count_at_close(event=event, count=True, by=None)
    with commits(execute=True):
        day_close_request(day=d2, by=None)  # out of play: it waits for the count
    short = data.draw(st.sampled_from(seated))
    for table in Table.objects.filter(seats__in=seated).distinct().order_by("pk"):
        counts = {
            s.number: s.stack - (5 if s.pk == short.pk else 0)
            for s in Seat.objects.filter(table=table, left_at__isnull=True)
        }
        table_count_enter(table=table, counts=counts, by=None)
    count_difference_rule(
        seat_count=SeatCount.objects.get(seat=short), ruling="correct", reason="chips", by=None
    )
    close(Day.objects.get(pk=d2.pk), commits)
    return f"{short.player.name} corrected by 5"


OPERATIONS = [_issue, _let_back, _disqualify, _withdraw, _hand, _close_day_2, _count_correction]


def test_money_issued_after_the_close_moves_no_closed_day_on_any_surface(
    day_1_closed: Event,
) -> None:
    """The issue's first finding, as an example: 777 issued to one player after day 1 closed."""
    event = day_1_closed
    d1 = event.days.get(number=1)
    organiser = signed_in("organiser", "org-surfaces")
    before = surfaces(event, d1, organiser)
    player_issue_money(player=players("Dan")[0], amount=777, by=None)
    assert surfaces(event, d1, organiser) == before
    rows, _cut = standings_marked(event, d1)
    assert [r["total"] for r in rows if r["name"] == "Dan"] == [985]  # as at the close


def test_a_count_correction_at_the_next_close_moves_no_closed_day(
    day_1_closed: Event, django_capture_on_commit_callbacks: Any
) -> None:
    """Day 2 closed with the chip count, Bill's stack found 5 short and corrected: day 1's
    standings on every surface are as its close took them."""
    event = day_1_closed
    d1 = event.days.get(number=1)
    organiser = signed_in("organiser", "org-surfaces")
    before = surfaces(event, d1, organiser)
    d2 = event.days.get(number=2)
    event_set_count_at_close(event=event, count=True, by=None)
    with django_capture_on_commit_callbacks(execute=True):
        day_close_request(day=d2, by=None)
    (table,) = Table.objects.filter(day=d2)
    seats = {s.number: s for s in Seat.objects.filter(table=table, left_at__isnull=True)}
    bill = next(s for s in seats.values() if s.player.name == "Bill")
    counts = {n: s.stack - (5 if s is bill else 0) for n, s in seats.items()}
    table_count_enter(table=table, counts=counts, by=None)
    count_difference_rule(
        seat_count=SeatCount.objects.get(seat=bill), ruling="correct", reason="chips", by=None
    )
    close(Day.objects.get(pk=d2.pk), django_capture_on_commit_callbacks)
    assert SeatCount.objects.get(seat=bill).transfer_id is not None  # money moved
    assert surfaces(event, d1, organiser) == before
    assert_audit_ok(event)


def test_a_player_let_back_in_is_said_beside_the_closed_day_without_moving_it(
    django_capture_on_commit_callbacks: Any,
) -> None:
    w = world(3, money=1000, buy_in=200)
    player_register(event=w.event, name="Poor", starting_money=50, by=None)
    play_hand(w)
    d1 = close(w.day, django_capture_on_commit_callbacks)
    rows, cut = standings_marked(w.event, d1)
    d2 = w.event.days.get(number=2)
    player_requalify(day=d2, player=players("Poor")[0], reason="an appeal", by=None)
    later, later_cut = standings_marked(w.event, d1)
    assert later_cut == cut and [r["name"] for r in later] == [r["name"] for r in rows]
    poor = next(r for r in later if r["name"] == "Poor")
    assert poor["standing"] == "out"
    assert poor["note"] == "did not play day 1"  # the mark the close gave
    # The decision is said beside the standings, never in them.
    assert since_close(d1) == [
        {"player": poor["player"], "name": "Poor", "text": "let back in for day 2"}
    ]
    page = Client().get(f"/standings/{w.event.pk}/?day=1").content.decode()
    assert "Since the close" in page and "Poor: let back in for day 2" in page
    body = Client().get(f"/api/v1/events/{w.event.pk}/standings/?day=1").json()
    assert body["since_close"] == [
        {"player": poor["player"], "name": "Poor", "text": "let back in for day 2"}
    ]
    assert_audit_ok(w.event)


def test_the_final_standings_rank_the_last_days_players_then_those_out_earlier(
    django_capture_on_commit_callbacks: Any,
) -> None:
    """RULES §4b: the players of the last day by their money at its close, then those out after
    each earlier day, later days first, each by their money at the close that put them out —
    however rich a player out after day 1 became later; the disqualified outside the ranking;
    series points in that order."""
    commits = django_capture_on_commit_callbacks
    w = world(6, money=1000, buy_in=200)  # Andy, Bill, Chris, Dan, Eddie, Fred
    andy, bill, chris, dan, _eddie, fred = w.players
    for winner in (andy, andy, bill):
        play_hand(w, winner=winner)
    disqualify(w.table, fred)
    day_set_qualification(day=w.day, rule="top", top=2, by=None)
    d1 = close(w.day, commits)
    assert {p.name for p in Player.objects.filter(qualifications__day__number=2)} == {
        "Andy",
        "Bill",
    }
    at_close = {r["name"]: r["total"] for r in standings_marked(w.event, d1)[0]}
    player_issue_money(player=chris, amount=5000, by=None)  # out after day 1, rich later
    d2 = w.event.days.get(number=2)
    player_requalify(day=d2, player=dan, reason="an appeal upheld", by=None)
    d2 = day_open(day=d2, by=None)
    second = play_day(d2, [andy, bill, dan], winner=dan)
    play_hand(second, winner=dan)
    day_set_qualification(day=d2, rule="top", top=2, by=None)
    close(d2, commits)
    through = {p.name for p in Player.objects.filter(qualifications__day__number=3)}
    assert len(through) == 2 and "Dan" in through
    out_after_2 = ({"Andy", "Bill"} - through).pop()
    d3 = day_open(day=w.event.days.get(number=3), by=None)
    play_day(d3, players(*sorted(through)), winner=players(*sorted(through))[0])
    close(d3, commits)

    final = final_standings(w.event)
    said = [(r["name"], r["rank"]) for r in final]
    day_3 = [name for name, _rank in said[:2]]
    assert set(day_3) == through
    assert said[2] == (out_after_2, 3)
    # Out after day 1, tied at their money then: Chris (5,000 richer since) is not above them.
    assert said[3:5] == [("Chris", 4), ("Eddie", 4)] and len(said) == 6
    chris_row = next(r for r in final if r["name"] == "Chris")
    assert chris_row["total"] == at_close["Chris"]
    assert said[-1] == ("Fred", None)  # disqualified: outside the ranking
    # The public standings and the results page say the same; so do series points.
    rows, cut = standings_marked(w.event, None)
    assert [(r["name"], r["rank"]) for r in rows] == said and cut is None
    from brag_event.series.selectors import final_places

    places = dict(final_places(w.event) or [])
    assert places[chris.person_id] == 4 and places[fred.person_id] is None
    assert_audit_ok(w.event)
