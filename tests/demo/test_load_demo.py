"""The demo loader: what it creates, that it passes the ledger audit, and that it is idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from brag_event.audit.models import AuditEntry
from brag_event.events.models import Event
from brag_event.hands.models import Hand, HandAction
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.tables.models import Seat


def _load(*args: str) -> str:
    out = StringIO()
    call_command("load_demo", *args, stdout=out)
    return out.getvalue()


def _counts() -> dict[str, int]:
    return {
        "events": Event.objects.count(),
        "players": Player.objects.count(),
        "seats": Seat.objects.count(),
        "hands": Hand.objects.count(),
        "actions": HandAction.objects.count(),
        "transfers": Transfer.objects.count(),
        "audit": AuditEntry.objects.count(),
        "users": get_user_model().objects.count(),
    }


@pytest.mark.django_db
def test_load_demo_creates_a_live_event_and_is_idempotent() -> None:
    output = _load("--hands", "8", "--seed", "7")

    event = Event.objects.get(name="FLASH")
    assert event.days.count() == 3
    assert Player.objects.filter(event=event).count() == 24
    assert set(Player.objects.values_list("balance", flat=True)) != {0}
    day1 = event.days.get(number=1)
    tables = list(day1.tables.order_by("number"))
    assert [t.number for t in tables] == [1, 2, 3, 4]
    for table in tables:
        seats = table.seats.filter(left_at__isnull=True)
        assert seats.count() == 6
        for seat in seats:
            assert day1.table_min <= seat.buy_in <= day1.table_max
    assert not event.days.exclude(number=1).filter(tables__isnull=False).exists()

    users = {u.username: u for u in get_user_model().objects.all()}
    assert set(users) == {"organiser", "supervisor", "dealer1", "dealer2"}
    groups = {name: set(u.groups.values_list("name", flat=True)) for name, u in users.items()}
    assert groups == {
        "organiser": {"organiser"},
        "supervisor": {"supervisor"},
        "dealer1": {"dealer"},
        "dealer2": {"dealer"},
    }
    assert users["organiser"].is_superuser and users["organiser"].is_staff
    assert users["supervisor"].is_staff and not users["supervisor"].is_superuser
    assert users["dealer1"].check_password("dealer1-demo")
    dealers = [t.dealers.get().username for t in tables]
    assert dealers == ["dealer1", "dealer1", "dealer2", "dealer2"]

    hands = Hand.objects.filter(table__day=day1)
    assert hands.count() == 8
    for table in tables:
        assert table.hands.count() == 2
        assert table.hands.filter(status=Hand.Status.IN_PROGRESS).count() <= 1
    assert HandAction.objects.count() > 8

    assert ledger_audit(event=event).ok
    assert "PASS" in output
    assert "http://127.0.0.1:8000/admin/" in output
    assert "organiser-demo" in output and "demo credentials only" in output

    before = _counts()
    again = _load("--hands", "8")
    assert "already loaded" in again
    assert "organiser-demo" in again
    assert _counts() == before


@pytest.mark.django_db
def test_an_existing_account_keeps_its_password() -> None:
    get_user_model().objects.create_user("dealer1", password="not-the-demo-one")

    output = _load("--hands", "0")

    dealer1 = get_user_model().objects.get(username="dealer1")
    assert dealer1.check_password("not-the-demo-one")
    assert list(dealer1.groups.values_list("name", flat=True)) == ["dealer"]
    assert "password not changed" in output
    assert Hand.objects.count() == 0
    assert ledger_audit(event=Event.objects.get(name="FLASH")).ok
