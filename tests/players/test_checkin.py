"""Check-in for a day (issue 47): the window, a player's own check-in and the desk's, once a
player a day, on the day's own chain; the draw seats only the checked-in and lists the
no-shows; a late arrival is seated where balancing would put one more player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.actors import Actor
from brag_event.events.models import Day, Event
from brag_event.events.services import day_open, event_create_flash
from brag_event.hands.chain import day_chains
from brag_event.ledger.audit import ledger_audit
from brag_event.players.checkin import (
    checkin_state,
    checkin_window_set,
    desk_search,
    no_shows,
    player_check_in,
)
from brag_event.players.models import CheckIn, Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import (
    late_arrival_seat,
    seat_late_arrival,
    seating_apply,
    seating_draw,
)
from brag_event.tables.withdraw import player_withdraw
from tests.factories import assert_audit_ok, refused, user_in

pytestmark = pytest.mark.django_db


def make(n: int, *, open_day: bool = True) -> tuple[Event, Day, list[Player]]:
    event = event_create_flash(name="FLASH", by=None)
    day = event.days.get(number=1)
    if open_day:
        day = day_open(day=day, by=None)
    players = [
        player_register(event=event, name=f"Player {i:02d}", starting_money=1000, by=None)
        for i in range(n)
    ]
    return event, day, players


def window(day: Day, *, opened: int = -10, closes: int = 30, only: bool = True) -> None:
    now = timezone.now()
    checkin_window_set(
        day=day,
        opens_at=now + timedelta(minutes=opened),
        closes_at=now + timedelta(minutes=closes),
        draw_checked_in_only=only,
        by=None,
    )


def test_a_player_checks_in_once_on_the_days_chain_and_audited() -> None:
    event, day, players = make(3)
    window(day)
    made, new = player_check_in(day=day, player=players[0], how="page", by=None)
    assert new and made.how == "page" and made.seq == 1 and made.hash
    again, new_again = player_check_in(day=day, player=players[0], how="desk", by=None)
    assert not new_again and again.pk == made.pk and again.how == "page"
    assert CheckIn.objects.filter(day=day).count() == 1
    day.refresh_from_db()
    assert day.record_head == made.hash and day.record_seq == 2
    (chained,) = list(day_chains(Day.objects.filter(pk=day.pk)))
    assert not chained.problems and chained.head == made.hash
    assert AuditEntry.objects.filter(verb=Verb.PLAYER_CHECK_IN).count() == 1
    state = checkin_state(day)
    assert state.open_now and (state.checked_in, state.field) == (1, 3)
    assert_audit_ok(event)


def test_a_check_in_altered_behind_the_services_breaks_the_days_chain() -> None:
    event, day, players = make(2)
    window(day)
    made, _ = player_check_in(day=day, player=players[0], how="page", by=None)
    CheckIn.objects.filter(pk=made.pk).update(player=players[1])
    (chained,) = list(day_chains(Day.objects.filter(pk=day.pk)))
    assert chained.problems == [
        "Day 1's own record: check_in seq 1 does not match its hash — it or a record before it "
        "was changed, moved or removed"
    ]
    report = ledger_audit(event=event)
    assert not report.ok and any("check_in seq 1" in line for line in report.lines())


def test_the_database_refuses_a_second_check_in_of_one_player_for_a_day() -> None:
    _event, day, players = make(1)
    window(day)
    player_check_in(day=day, player=players[0], how="desk", by=None)
    with pytest.raises(IntegrityError), transaction.atomic():
        CheckIn.objects.create(day=day, player=players[0], how="desk", at=timezone.now())


def test_refusals_in_words_and_nothing_changed() -> None:
    _event, day, players = make(3)
    err = refused(
        "checkin_not_open", lambda: player_check_in(day=day, player=players[0], how="page", by=None)
    )
    assert "has not been opened" in err.message
    window(day, opened=5, closes=30)
    err = refused(
        "checkin_not_open", lambda: player_check_in(day=day, player=players[0], how="desk", by=None)
    )
    assert err.message.startswith("Check-in for day 1 opens at ")
    window(day, opened=-30, closes=-5)
    err = refused(
        "checkin_closed", lambda: player_check_in(day=day, player=players[0], how="page", by=None)
    )
    assert "see the tournament desk" in err.message
    # The desk still checks a late arrival in once the page's window has closed.
    _made, new = player_check_in(day=day, player=players[1], how="desk", by=None)
    assert new
    player_withdraw(player=players[2], by=None)
    refused(
        "not_in_field", lambda: player_check_in(day=day, player=players[2], how="desk", by=None)
    )
    other = event_create_flash(name="OTHER", by=None)
    stranger = player_register(event=other, name="Stranger", starting_money=1000, by=None)
    refused("not_in_event", lambda: player_check_in(day=day, player=stranger, how="desk", by=None))
    now = timezone.now()
    refused(
        "checkin_window_backwards",
        lambda: checkin_window_set(day=day, opens_at=now, closes_at=now, by=None),
    )
    assert CheckIn.objects.filter(day=day).count() == 1


def test_the_window_in_the_events_zone_and_the_audits_words() -> None:
    event, day, _players = make(1)
    Event.objects.filter(pk=event.pk).update(time_zone="Europe/Paris")
    day = Day.objects.select_related("event").get(pk=day.pk)
    opens = timezone.now().replace(month=11, day=28, hour=17, minute=0, second=0, microsecond=0)
    checkin_window_set(
        day=day, opens_at=opens, closes_at=opens + timedelta(hours=1), by=Actor(None, "web")
    )
    entry = AuditEntry.objects.get(verb=Verb.CHECKIN_WINDOW)
    assert entry.data["opens"] == "Sat 28 Nov 18:00 CET"
    assert entry.data["closes"] == "Sat 28 Nov 19:00 CET"


def test_the_draw_seats_only_the_checked_in_and_lists_the_no_shows() -> None:
    event, day, players = make(8)
    window(day)
    for p in players[:5]:
        player_check_in(day=day, player=p, how="page", by=None)
    draw = seating_draw(day=day, seed="s", by=None)
    drawn = {s["player"] for t in draw.plan for s in t["seats"]}
    assert drawn == {p.pk for p in players[:5]}
    assert {e["player"]: e["reason"] for e in draw.excluded} == {
        p.pk: "not checked in" for p in players[5:]
    }
    assert [p.pk for p in no_shows(day)] == [p.pk for p in players[5:]]
    entry = AuditEntry.objects.get(verb=Verb.SEATING_DRAW)
    assert entry.data["not_checked_in"] == 3
    assert_audit_ok(event)


def test_without_the_option_the_draw_seats_every_qualifier() -> None:
    _event, day, players = make(4)
    window(day, only=False)
    player_check_in(day=day, player=players[0], how="page", by=None)
    draw = seating_draw(day=day, seed="s", by=None)
    assert sum(len(t["seats"]) for t in draw.plan) == 4


def test_a_late_arrival_is_seated_at_the_shortest_table_and_only_once() -> None:
    event, day, players = make(13)
    window(day)
    for p in players[:11]:
        player_check_in(day=day, player=p, how="page", by=None)
    seating_apply(draw=seating_draw(day=day, seed="late", by=None), by=None)
    # 11 players on two tables: 6 and 5; one more goes to the table of five.
    counts = {
        t: Seat.objects.filter(table__day=day, table__number=t, left_at__isnull=True).count()
        for t in (1, 2)
    }
    shortest = min(counts, key=lambda t: (counts[t], t))
    late = players[11]
    refused("not_checked_in", lambda: seat_late_arrival(day=day, player=late, by=None))
    player_check_in(day=day, player=late, how="desk", by=None)
    where = late_arrival_seat(day)
    assert where is not None and where[0].number == shortest and where[2] == 5
    seat = seat_late_arrival(day=day, player=late, by=None)
    assert seat.table.number == shortest and seat.number == where[1]
    assert seat.buy_in == min(1000 - day.house_fee, day.table_max)
    refused("already_seated", lambda: seat_late_arrival(day=day, player=late, by=None))
    # Both tables full now: the next late arrival is told so, in words.
    player_check_in(day=day, player=players[12], how="desk", by=None)
    err = refused("no_free_seat", lambda: seat_late_arrival(day=day, player=players[12], by=None))
    assert "Every table of day 1 is full" in err.message
    assert AuditEntry.objects.filter(verb=Verb.SEAT_LATE_ARRIVAL).count() == 1
    assert_audit_ok(event)


def test_the_desk_finds_a_player_by_name_or_number() -> None:
    event, day, _players = make(3)
    sam = player_register(event=event, name="Samira Okafor", starting_money=1000, by=None)
    assert [p.pk for p in desk_search(day, "sam oka")] == [sam.pk]
    assert sam.person is not None
    number = str(sam.person.number)
    assert sam.pk in {p.pk for p in desk_search(day, number)}
    assert [p.pk for p in desk_search(day, "nobody-like-this")] == []
    assert len(desk_search(day, "Player")) == 3


def test_who_set_the_window_is_kept() -> None:
    _event, day, _players = make(1, open_day=False)
    user = user_in("organiser", "olive")
    now = timezone.now()
    w = checkin_window_set(
        day=day,
        opens_at=now,
        closes_at=now + timedelta(hours=1),
        by=Actor(user, "web"),
    )
    assert w.set_by == user and w.draw_checked_in_only
