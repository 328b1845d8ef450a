"""Players' notifications by email, through a real SMTP server (aiosmtpd): one message per
player per change — the draw, a balancing move, the close — with the right seat, none twice,
none after an unsubscribe, and the outbox waiting while no mail server is set."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client, override_settings

from brag_event.audit.models import AuditEntry, Verb
from brag_event.closing.services import day_close_request
from brag_event.events.services import day_open, event_create_flash
from brag_event.notify.models import Kind, Notice
from brag_event.notify.services import contact_update, notices_due, outbox_summary
from brag_event.notify.tasks import notice_requeue_task
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat
from brag_event.tables.seating import balance_apply, balance_proposals, seating_apply, seating_draw
from brag_event.tables.services import seat_leave

from .smtp import Inbox, free_port, smtp_server

pytestmark = pytest.mark.django_db

ALL = [Kind.SEAT, Kind.MOVE, Kind.RESULT]


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as box, real_smtp(box.port):
        yield box


def real_smtp(port: int | None) -> Any:
    """The SMTP backend (pytest-django puts Django's test outbox in its place) at ``port``;
    ``None``: no mail server set."""
    return override_settings(
        EMAIL_BACKEND="django.core.mail.backends.smtp.EmailBackend",
        EMAIL_HOST="127.0.0.1" if port else "",
        EMAIL_PORT=port or 25,
    )


def address(p: Player) -> str:
    return f"p{p.pk}@example.org"


def make_players(n: int) -> tuple[Any, Any, list[Player]]:
    event = event_create_flash(name="FLASH", count_at_close=False, by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    players = [
        player_register(event=event, name=f"Player {i:02d}", starting_money=1000, by=None)
        for i in range(n)
    ]
    for p in players:
        contact_update(player=p, email=address(p), kinds=ALL, by=None)
    return event, day, players


def seat_words(seat: Seat) -> str:
    return f"table {seat.table.number}, seat {seat.number}"


def test_one_email_per_player_per_change_with_the_right_seat(inbox: Inbox, commits: Any) -> None:
    _event, day, players = make_players(14)
    draw = seating_draw(day=day, seed="mail", by=None)
    with commits(execute=True):
        seating_apply(draw=draw, by=None)
    assert len(inbox.messages) == 14
    for p in players:
        (message,) = inbox.to(address(p))
        seat = Seat.objects.select_related("table").get(player=p, left_at__isnull=True)
        assert seat_words(seat) in message["Subject"]
        assert f"your seat is {seat_words(seat)}." in message.get_content()
        # One click (RFC 8058) and a link in the words.
        stop = re.search(r"<(http[^>]+)>", message["List-Unsubscribe"]).group(1)  # type: ignore[union-attr]
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert stop in message.get_content()
    # The same facts again (the sweep, a task delivered twice): nothing more.
    notice_requeue_task()
    assert len(inbox.messages) == 14

    # Empty a table down to two players: balancing moves them; each moved player hears once.
    sizes = {t: t.seats.filter(left_at__isnull=True).count() for t in day.tables.all()}
    small = min(sizes, key=lambda t: (sizes[t], t.number))
    for seat in list(small.seats.filter(left_at__isnull=True).order_by("number"))[2:]:
        seat_leave(seat=seat, by=None)
    (proposal, *_) = balance_proposals(day=day)
    with commits(execute=True):
        balance_apply(day=day, proposal_id=proposal["id"], by=None)
    moved = [m["player"] for m in proposal["moves"]]
    assert moved and len(inbox.messages) == 14 + len(moved)
    for pk in moved:
        p = Player.objects.get(pk=pk)
        last = inbox.to(address(p))[-1]
        seat = Seat.objects.select_related("table").get(player=p, left_at__isnull=True)
        assert f"moved you to {seat_words(seat)}" in last.get_content()

    # One player stops the emails by the link's one click (no session, no CSRF token).
    quiet = players[0]
    stop = re.search(r"<(http[^>]+)>", inbox.to(address(quiet))[0]["List-Unsubscribe"]).group(1)  # type: ignore[union-attr]
    path = stop.split("://", 1)[1].split("/", 1)[1]
    answer = Client(enforce_csrf_checks=True).post("/" + path, {"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and b"no more emails" in answer.content
    assert AuditEntry.objects.filter(verb=Verb.NOTIFY_UNSUBSCRIBE).count() == 1

    # The close: one message each, qualified or not, and none to the player who stopped them.
    before = len(inbox.messages)
    with commits(execute=True):
        day_close_request(day=day, by=None)
    results = inbox.messages[before:]
    assert len(results) == 13
    assert {m["To"] for m in results} == {address(p) for p in players[1:]}
    for m in results:
        assert "day 1 is closed" in m.get_content()
        assert re.search(
            r"you are (ranked \d+|not ranked) and (did not qualify|qualified) for day 2",
            m.get_content(),
        )
    assert Notice.objects.filter(status=Notice.Status.SENT).count() == len(inbox.messages)


def test_without_a_mail_server_the_outbox_waits_and_says_so(commits: Any) -> None:
    event, day, _players = make_players(4)
    draw = seating_draw(day=day, seed="wait", by=None)
    with real_smtp(None), commits(execute=True):
        seating_apply(draw=draw, by=None)
        assert notices_due() == []
        summary = outbox_summary(event_id=event.pk)
    assert summary["smtp"] is False and summary["waiting_email"] == 4
    assert set(Notice.objects.values_list("status", flat=True)) == {Notice.Status.PENDING}
    # Once a server is set, the sweep sends what waited, once.
    with smtp_server() as box, real_smtp(box.port):
        assert notice_requeue_task() == 4
        assert notice_requeue_task() == 0
    assert len(box.messages) == 4


def test_a_failed_send_is_tried_again_later(commits: Any) -> None:
    _event, day, _players = make_players(2)
    draw = seating_draw(day=day, seed="fail", by=None)
    # A mail server that is not there: the notice waits, the reason kept, tried again later.
    with real_smtp(free_port()), commits(execute=True):
        seating_apply(draw=draw, by=None)
    notices = list(Notice.objects.all())
    assert [n.status for n in notices] == [Notice.Status.PENDING] * 2
    assert all(n.attempts == 1 and n.next_at and n.error for n in notices)
    with smtp_server() as box, real_smtp(box.port):
        assert notice_requeue_task() == 0  # not due yet (backoff)
        Notice.objects.update(next_at=None)
        assert notice_requeue_task() == 2
    assert len(box.messages) == 2


def test_a_fact_told_in_the_same_words_is_not_told_again(inbox: Inbox) -> None:
    from brag_event.notify.services import notice_write

    _event, _day, (p,) = make_players(1)
    first = notice_write(player=p, kind=Kind.SEAT, fact="f", subject="s", body="table 1, seat 2")
    again = notice_write(player=p, kind=Kind.SEAT, fact="f", subject="s", body="table 1, seat 2")
    changed = notice_write(player=p, kind=Kind.SEAT, fact="f", subject="s", body="table 2, seat 2")
    assert [n.version for n in first] == [1] and again == [] and [n.version for n in changed] == [2]
    # A kind the player did not choose is not written.
    contact_update(player=p, email=address(p), kinds=[Kind.RESULT], by=None)
    assert notice_write(player=p, kind=Kind.SEAT, fact="g", subject="s", body="b") == []


def test_check_in_open_is_told_once_and_again_when_its_times_move(
    inbox: Inbox, commits: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from brag_event.players.checkin import checkin_window_set

    _event, day, players = make_players(3)
    contact_update(player=players[2], email=address(players[2]), kinds=[Kind.SEAT], by=None)
    for p in players[:2]:
        contact_update(player=p, email=address(p), kinds=[Kind.CHECKIN], by=None)
    now = timezone.now()
    with commits(execute=True):
        checkin_window_set(day=day, opens_at=now, closes_at=now + timedelta(hours=1), by=None)
    assert sorted(m["To"] for m in inbox.messages) == sorted(address(p) for p in players[:2])
    assert "check in from your page between" in inbox.messages[0].get_content()
    with commits(execute=True):  # the same times again: nothing new to tell
        checkin_window_set(day=day, opens_at=now, closes_at=now + timedelta(hours=1), by=None)
    assert len(inbox.messages) == 2
    with commits(execute=True):  # moved: told again
        checkin_window_set(day=day, opens_at=now, closes_at=now + timedelta(hours=2), by=None)
    assert len(inbox.messages) == 4
