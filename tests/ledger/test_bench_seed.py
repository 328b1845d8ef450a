"""The benchmarks' seed (``bench.ledger_seed``) writes a ledger that passes the audit: the hands
copied in bulk SQL carry their actions, pots and transfers, and the caches follow."""

from __future__ import annotations

import pytest
from django.db import connection

from bench.ledger_seed import seed_event
from brag_event.events.models import Event
from brag_event.hands.models import Hand, HandAction
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Standing

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.slow,  # a seeded event audited hand by hand (seconds)
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the seed's SQL is PostgreSQL's"),
]


def test_the_seeded_event_passes_the_audit_hand_by_hand() -> None:
    seeded = seed_event("Seed test", players=12, hands=40, vacuum=False)
    event = Event.objects.get(pk=seeded["event"])
    hands = Hand.objects.filter(table__day__event=event)
    # Two tables, 20 hands each: a cycle of 6 played through the services, 14 copied.
    assert seeded["hands"] == hands.count() == 40
    assert set(hands.values_list("status", flat=True)) == {Hand.Status.SETTLED}
    assert HandAction.objects.filter(hand__in=hands).count() == 40 * 7  # look, bet, 5 folds
    assert Account.objects.filter(event=event, kind="pot").count() == 40
    assert Transfer.objects.filter(hand__in=hands).count() == 40 * 8  # 6 antes, bet, pot won
    report = ledger_audit(event=event)
    assert report.ok, "\n".join(report.lines())
    assert "40 hands replayed" in report.lines()[-4]
    played = sum(
        Standing.objects.filter(player__event=event).values_list("hands_played", flat=True)
    )
    won = sum(Standing.objects.filter(player__event=event).values_list("hands_won", flat=True))
    assert (played, won) == (40 * 6, 40)
