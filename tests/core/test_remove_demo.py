"""``manage.py remove_demo`` removes the demo event with everything under it and its accounts,
as docs/operations.md says to before the real event — and never a real event, nor an account
that did anything outside the demo (disabled instead). The ledger of what stays still audits."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from brag_event.audit.models import AuditEntry
from brag_event.core.actors import Actor
from brag_event.events.models import Event
from brag_event.hands.models import Hand, HandAction
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.players.services import player_issue_money
from tests.factories import world

# slow: the demo loaded and removed on PostgreSQL (seconds)
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def run(command: str, *args: str) -> str:
    out = StringIO()
    call_command(command, *args, stdout=out)
    return out.getvalue()


def test_the_demo_and_its_accounts_are_removed_and_a_real_event_is_kept() -> None:
    run("load_demo", "--hands", "6")
    demo = Event.objects.get(name="FLASH")
    real = world(3, name="SPRING")
    assert Hand.objects.filter(table__day__event=demo).exists()
    users = get_user_model().objects
    organiser = users.get(username="organiser")
    # dealer2 also worked the real event: kept, disabled.
    player_issue_money(
        player=real.players[0], amount=5, by=Actor(users.get(username="dealer2"), "x")
    )
    real_counts = (
        Player.objects.filter(event=real.event).count(),
        Transfer.objects.filter(source__event=real.event).count(),
        HandAction.objects.filter(hand__table__day__event=real.event).count(),
        AuditEntry.objects.filter(event=real.event).count(),
    )

    said = run("remove_demo")

    assert not Event.objects.filter(pk=demo.pk).exists()
    assert not Player.objects.filter(event_id=demo.pk).exists()
    assert not AuditEntry.objects.filter(event_id=demo.pk).exists()
    assert not users.filter(pk=organiser.pk).exists()
    assert not users.filter(username__in=["supervisor", "dealer1"]).exists()
    kept = users.get(username="dealer2")
    assert not kept.is_active and not kept.has_usable_password()
    assert "dealer2" in said and "can no longer log in" in said
    # The real FLASH is whole and audits.
    assert (
        Player.objects.filter(event=real.event).count(),
        Transfer.objects.filter(source__event=real.event).count(),
        HandAction.objects.filter(hand__table__day__event=real.event).count(),
        AuditEntry.objects.filter(event=real.event).count(),
    ) == real_counts
    assert ledger_audit(event=real.event).ok
    # Twice is once.
    assert "none removed" in run("remove_demo")
    if connection.vendor == "postgresql":  # the append-only triggers are back
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_trigger WHERE tgname LIKE '%%append_only' "
                "AND tgenabled = 'D'"
            )
            assert cursor.fetchone() == (0,)


def test_a_real_event_called_flash_is_not_the_demo() -> None:
    real = world(3, name="FLASH")  # the demo's name, not made by the demo loader
    assert "none removed" in run("remove_demo")
    assert Event.objects.filter(pk=real.event.pk).exists()
