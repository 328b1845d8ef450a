"""The ledger: append-only in the database, constraints in the database, and an audit that
catches every kind of mismatch."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import DatabaseError, IntegrityError, connection, transaction

from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Player
from brag_event.tables.models import Seat
from tests.factories import act, assert_audit_ok, start, world

pytestmark = pytest.mark.django_db


def test_transfers_cannot_be_updated() -> None:
    w = world(2)
    transfer = Transfer.objects.first()
    assert transfer is not None
    with pytest.raises(DatabaseError), transaction.atomic():
        Transfer.objects.filter(pk=transfer.pk).update(amount=1)
    with pytest.raises(DatabaseError), transaction.atomic():
        transfer.memo = "edited"
        transfer.save()
    assert_audit_ok(w.event)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="DELETE guard is PostgreSQL's")
def test_transfers_and_actions_cannot_be_deleted_on_postgresql() -> None:
    w = world(2)
    hand = start(w)
    act(hand, seat=2, action="look")
    with pytest.raises(DatabaseError), transaction.atomic():
        Transfer.objects.all().delete()
    with pytest.raises(DatabaseError), transaction.atomic():
        hand.actions.all().delete()
    assert Transfer.objects.count() > 0


def test_the_database_refuses_non_positive_and_self_transfers() -> None:
    w = world(2)
    a = Account.objects.get(kind="player", player=w.players[0])
    b = Account.objects.get(kind="house")
    for source, target, amount in ((a, b, 0), (a, b, -5), (a, a, 5)):
        with pytest.raises(IntegrityError), transaction.atomic():
            Transfer.objects.create(
                event=w.event, kind="issue", source=source, target=target, amount=amount
            )


def test_the_audit_catches_a_tampered_cache() -> None:
    w = world(2)
    Player.objects.filter(pk=w.players[0].pk).update(balance=1_000_000)
    report = ledger_audit(event=w.event)
    assert not report.ok
    assert any("balance cached 1000000" in p for p in report.problems)
    Player.objects.filter(pk=w.players[0].pk).update(balance=790)
    Seat.objects.filter(pk=w.seats[1].pk).update(stack=1)
    report = ledger_audit(event=w.event)
    assert not report.ok and any("stack cached 1" in p for p in report.problems)


def test_the_audit_catches_money_posted_without_the_engine() -> None:
    w = world(3)
    hand = start(w)
    act(hand, seat=2, action="look")
    act(hand, seat=2, action="bet", amount=10)
    # Someone posts a "bet" by hand: the ledger balances, but the hand does not replay to it.
    from brag_event.ledger.services import account_pot, account_stack, transfer_post

    transfer_post(
        kind="bet",
        source=account_stack(w.seat(3)),
        target=account_pot(hand, 0),
        amount=7,
        hand=hand,
    )
    report = ledger_audit(event=w.event)
    assert [c.name for c in report.checks if not c.ok] == ["hands replay to their transfers"]


def test_the_audit_catches_money_made_up() -> None:
    w = world(2)
    house = Account.objects.get(kind="house")
    seat_account = Account.objects.get(kind="stack", seat=w.seats[0])
    # A transfer from the house that was never paid in drives the house negative.
    Transfer.objects.create(
        event=w.event, kind="pot_won", source=house, target=seat_account, amount=500
    )
    report = ledger_audit(event=w.event)
    failed = {c.name for c in report.checks if not c.ok}
    assert "money is conserved" in failed and "cached balances match" in failed


def test_audit_ledger_command_prints_and_exits_nonzero_on_mismatch(capsys) -> None:
    w = world(2)
    call_command("audit_ledger", "--event", "FLASH")
    out = capsys.readouterr().out
    assert "PASS" in out and "money is conserved" in out
    call_command("audit_ledger", "--event", "FLASH", "--day", "1")
    Player.objects.filter(pk=w.players[0].pk).update(balance=1)
    with pytest.raises(SystemExit) as exit_:
        call_command("audit_ledger")
    assert exit_.value.code == 1
    assert "FAIL" in capsys.readouterr().out


def test_saving_a_stale_object_never_overwrites_a_ledger_cache() -> None:
    w = world(2, money=1000, buy_in=200)
    stale_player = w.players[0]  # read before the buy-in: balance 1000 in memory
    stale_seat = w.seats[0]
    start(w)  # antes move money after the objects were read
    stale_player.name = "Andrew"
    stale_player.save()
    stale_seat.sitting_out = True
    stale_seat.save()
    w.table.save()
    stale_player.refresh_from_db()
    assert stale_player.name == "Andrew" and stale_player.balance == 790
    assert Seat.objects.get(pk=stale_seat.pk).stack == 195
    assert_audit_ok(w.event)
