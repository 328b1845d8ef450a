"""The money bound (``MONEY_MAX``): every amount a person enters is refused above it, in the
services (issuing, registering, importing, buying in, the day's rules) and at the API, and an
event never issues more than it in all — so no balance, stack, pot or sum of them can outgrow the
database's columns. And the ledger audit never crashes, whatever is stored: extreme values written
straight into the tables (as only someone behind the services could) make it fail, in words."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.test import Client

from brag_event.core.errors import ServiceError
from brag_event.engine import MONEY_MAX, EngineError, Rules
from brag_event.events.models import Day
from brag_event.events.services import day_update_rules
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import LedgerCheck, Transfer
from brag_event.ledger.services import account_house, account_issuer, account_player
from brag_event.players.imports import players_import_confirm, players_import_preview
from brag_event.players.models import Player
from brag_event.players.services import (
    event_money_issued,
    player_issue_money,
    player_register,
)
from brag_event.tables.models import Seat
from brag_event.tables.services import seat_buy_in
from tests.factories import assert_audit_ok, world

pytestmark = pytest.mark.django_db

BIGINT_MAX = 2**63 - 1


def test_the_bound_keeps_every_sum_inside_the_columns() -> None:
    # Everything an event holds is at most what it issued (money is conserved), and that is at
    # most MONEY_MAX: so are every balance, stack and pot, and any sum of them. The day's rules
    # (32-bit columns) hold it too.
    assert MONEY_MAX * 1000 < BIGINT_MAX
    assert MONEY_MAX < 2**31 - 1


def test_the_issue_of_five_quintillion_is_refused() -> None:
    w = world(1)
    before = Transfer.objects.count()
    with pytest.raises(ServiceError) as refused:
        player_issue_money(player=w.players[0], amount=5_000_000_000_000_000_000, by=None)
    assert refused.value.code == "amount_too_large"
    assert f"{MONEY_MAX:,}" in refused.value.message
    assert Transfer.objects.count() == before
    assert_audit_ok(w.event)


def test_an_event_never_issues_more_than_the_bound_in_all() -> None:
    w = world(1, money=1000)
    issued = event_money_issued(w.event)
    player_issue_money(player=w.players[0], amount=MONEY_MAX - issued, by=None)
    assert event_money_issued(w.event) == MONEY_MAX
    with pytest.raises(ServiceError) as refused:
        player_issue_money(player=w.players[0], amount=1, by=None)
    assert refused.value.code == "amount_too_large"
    assert refused.value.details["issued"] == MONEY_MAX
    with pytest.raises(ServiceError):
        player_register(event=w.event, name="Late", starting_money=1, by=None)
    assert not Player.objects.filter(name="Late").exists()
    assert_audit_ok(w.event)


@pytest.mark.parametrize("money", [MONEY_MAX + 1, 10**30, -1, True, 2.5])
def test_starting_money_out_of_bounds_is_refused(money: Any) -> None:
    w = world(1)
    with pytest.raises(ServiceError) as refused:
        player_register(event=w.event, name="Ivy", starting_money=money, by=None)
    assert refused.value.code in ("amount_too_large", "invalid_amount")
    assert refused.value.details["field"] == "starting_money"
    assert not Player.objects.filter(name="Ivy").exists()


def test_the_import_checks_every_row_and_the_events_bound() -> None:
    w = world(1)
    text = f"name,starting_money\nB,{MONEY_MAX + 1}\nC,{'1' * 5000}\n"
    batch = players_import_preview(event=w.event, data=text.encode(), by=None)
    assert all(f"{MONEY_MAX:,}" in r["refused"] for r in batch.rows)
    # Each row within the bound, the file's total past what the event may still issue.
    text = f"name,starting_money\nD,{MONEY_MAX}\nE,{MONEY_MAX}\n"
    batch = players_import_preview(event=w.event, data=text.encode(), by=None)
    with pytest.raises(ServiceError) as refused:
        players_import_confirm(batch=batch, by=None)
    assert refused.value.code == "amount_too_large"
    assert not Player.objects.filter(name__in=["D", "E"]).exists()


@pytest.mark.parametrize("rule", ["ante", "min_bet", "max_bet", "house_fee", "table_max"])
def test_rules_above_the_bound_are_refused_by_the_engine_and_the_service(rule: str) -> None:
    w = world(1)
    day2 = w.event.days.get(number=2)
    changes: dict[str, Any] = {rule: MONEY_MAX + 1}
    if rule == "min_bet":
        changes["max_bet"] = MONEY_MAX + 1
    with pytest.raises(ServiceError) as refused:
        day_update_rules(day=day2, changes=changes, reason="x", by=None)
    assert refused.value.code == "invalid_rules"
    assert Day.objects.get(pk=day2.pk).rules_dict() == day2.rules_dict()
    values = {"ante": 5, "min_bet": 5, "max_bet": 20, "max_raise": 20, **changes}
    with pytest.raises(EngineError) as engine_refused:
        Rules.from_dict(values)
    assert f"at most {MONEY_MAX:,}" in engine_refused.value.message
    assert engine_refused.value.details["field"] == rule
    assert refused.value.details["field"] == rule


def test_a_buy_in_above_the_bound_is_refused() -> None:
    w = world(1)
    with pytest.raises(ServiceError) as refused:
        seat_buy_in(
            table=w.table, seat_number=5, player=w.players[0], amount=MONEY_MAX + 1, by=None
        )
    assert refused.value.code in ("amount_too_large", "already_seated")


def test_the_api_refuses_a_bet_above_the_bound(settings: Any) -> None:
    from rest_framework.test import APIClient

    from brag_event.api.models import DeviceToken, token_hash
    from tests.factories import start

    w = world(2)
    hand = start(w)
    user = User.objects.create_user("dealer", password="x")
    user.groups.add(Group.objects.get_or_create(name="dealer")[0])
    w.table.dealers.add(user)
    DeviceToken.objects.create(user=user, name="t", key_hash=token_hash("k" * 40), prefix="k")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token " + "k" * 40)
    body = {"expected_seq": hand.next_seq, "action": "bet", "seat": 2, "amount": 10**30}
    response = client.post(f"/api/v1/hands/{hand.pk}/actions/", body, format="json")
    assert response.status_code == 400, response.json()
    # The engine checks the amount, once (issue 15): above the first bet's most, in words.
    assert response.json()["error"]["code"] == "bet_above_max"
    hand.refresh_from_db()
    assert not hand.actions.exists()


# ------------------------------------------------------------------ the audit on extreme data


def store_extremes() -> Any:
    """Write what no service would: transfers of the largest 64-bit amount whose sum overflows
    64 bits, and cached balances at the limit."""
    w = world(2)
    issuer = account_issuer(w.event)
    for player in w.players:
        Transfer.objects.create(
            event=w.event,
            kind=Transfer.Kind.ISSUE,
            source=issuer,
            target=account_player(player),
            amount=BIGINT_MAX,
        )
    Transfer.objects.create(
        event=w.event,
        kind=Transfer.Kind.HOUSE_FEE,
        source=account_player(w.players[0]),
        target=account_house(w.event),
        amount=BIGINT_MAX,
    )
    # A transfer to an account of another event.
    other = world(1, name="OTHER")
    Transfer.objects.create(
        event=w.event,
        kind=Transfer.Kind.ISSUE,
        source=issuer,
        target=account_player(other.players[0]),
        amount=BIGINT_MAX,
    )
    Player.objects.filter(pk=w.players[0].pk).update(balance=BIGINT_MAX)
    Seat.objects.filter(pk=w.seats[0].pk).update(stack=BIGINT_MAX)
    Seat.objects.filter(pk=w.seats[1].pk).update(stack=BIGINT_MAX)
    return w


def test_the_audit_reports_extreme_stored_values_and_never_crashes() -> None:
    w = store_extremes()
    report = ledger_audit(event=w.event)
    assert not report.ok
    assert any("cached" in p for p in report.problems), report.problems
    assert any("another event" in p for p in report.problems), report.problems
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("audit_ledger", "--event", w.event.name, stdout=out, stderr=err)
    assert exited.value.code == 1
    assert "FAIL" in out.getvalue() + err.getvalue()


def test_the_dashboard_audit_answers_on_extreme_stored_values() -> None:
    """Before, the organiser's "Run it now" answered 500 (SQLite's SUM overflowed)."""
    w = store_extremes()
    user = User.objects.create_user("org", password="x")
    user.groups.add(Group.objects.get_or_create(name="organiser")[0])
    client = Client()
    client.force_login(user)
    response = client.post(f"/organiser/events/{w.event.pk}/ledger-audit/")
    assert response.status_code == 302
    check = LedgerCheck.objects.latest()
    assert check.ok is False and any("FAIL" in line for line in check.lines)
