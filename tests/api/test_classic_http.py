"""The classic rules' two betting tables (seeds/000, the brag-hh/1 fixtures of the engine tests)
played end to end through the HTTP API, as a dealer's tablet would: start the hand, enter every
action with its expected sequence number and an Idempotency-Key, enter the shown cards. Each
illegal move the rules text points out is tried at its point first and refused with its code,
writing nothing. Afterwards the result, the stacks, the history (replayed by the engine) and the
ledger audit all agree."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from rest_framework.test import APIClient

from brag_event.audit.models import AuditEntry
from brag_event.engine import replay
from brag_event.events.models import Event
from brag_event.events.services import day_open, day_update_rules, event_create_flash
from brag_event.hands.models import Hand, HandAction
from brag_event.ledger.audit import ledger_audit
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.tables.models import Seat, Table
from brag_event.tables.services import seat_buy_in, table_create
from tests.engine.test_classic_tables import (
    BLIND_ILLEGAL,
    BLIND_ROUNDS,
    OPEN_ILLEGAL,
    OPEN_ROUNDS,
    load,
)

from .conftest import post, token_client

pytestmark = pytest.mark.django_db

STARTING_MONEY = 1000

TABLES = {
    # fixture, looks before the first round, rounds, illegal moves, pot, winners, final stacks
    "open": (
        "classic_open_five.json",
        5,
        OPEN_ROUNDS,
        OPEN_ILLEGAL,
        140,
        [1],
        {1: 177, 2: 94, 3: 82, 4: 99, 5: 48},
    ),
    "blind": (
        "classic_blind_five.json",
        3,
        BLIND_ROUNDS,
        BLIND_ILLEGAL,
        96,
        [2],
        # Paid: A 12, C 41, D 6, E 7; B paid 30 and won the 96.
        {1: 88, 2: 166, 3: 59, 4: 94, 5: 93},
    ),
}


def classic_table(name: str, doc: dict[str, Any]) -> tuple[Event, Table, APIClient]:
    """An event whose day 1 has the fixture's rules, a table with its five players seated with
    their stacks and the button on its dealer, and the tablet of the table's dealer."""
    event = event_create_flash(name=f"Classic {name}", by=None)
    day = day_open(day=event.days.get(number=1), by=None)
    day_update_rules(
        day=day,
        changes={**doc["rules"], "house_fee": 0, "table_min": 50, "table_max": 500},
        by=None,
    )
    table = table_create(day=day, by=None)
    for seat in doc["seats"]:
        player = player_register(
            event=event, name=seat["player"], starting_money=STARTING_MONEY, by=None
        )
        seat_buy_in(
            table=table, seat_number=seat["seat"], player=player, amount=seat["stack"], by=None
        )
    Table.objects.filter(pk=table.pk).update(button=doc["dealer"])
    dealer = User.objects.create_user(f"dealer-{name}")
    dealer.groups.add(Group.objects.get_or_create(name="dealer")[0])
    table.dealers.add(dealer)
    return event, table, token_client(dealer, f"table {table.number} tablet")


def snapshot(hand_id: int) -> dict[str, Any]:
    """Everything a refused action must leave alone."""
    return {
        "hand": Hand.objects.filter(pk=hand_id).values("next_seq", "status", "result").get(),
        "actions": HandAction.objects.count(),
        "transfers": Transfer.objects.count(),
        "accounts": Account.objects.count(),
        "audit": AuditEntry.objects.count(),
        "stacks": list(Seat.objects.order_by("pk").values_list("pk", "stack")),
        "balances": list(Player.objects.order_by("pk").values_list("pk", "balance")),
    }


def refuse(
    client: APIClient, hand_id: int, action: dict[str, Any], seq: int, code: str, key: str
) -> None:
    before = snapshot(hand_id)
    url = f"/api/v1/hands/{hand_id}/actions/"
    response = post(client, url, {**action, "expected_seq": seq}, key=key)
    assert response.status_code == 400, (action, response.json())
    error = response.json()["error"]
    assert error["code"] == code, (action, error)
    assert error["message"]
    assert snapshot(hand_id) == before, action


@pytest.mark.parametrize("name", TABLES)
def test_a_classic_betting_table_played_over_http(name: str) -> None:
    fixture, looks, rounds, illegal, pot, winners, stacks = TABLES[name]
    doc = load(fixture)
    expected = replay(doc)
    assert expected.outcome is not None
    event, table, client = classic_table(name, doc)
    illegal_at = {
        looks + sum(rounds[: round_no - 1]) + offset: (action, code)
        for round_no, offset, action, code in illegal
    }
    assert len(illegal_at) == len(illegal)

    started = post(client, f"/api/v1/tables/{table.pk}/hands/", key=f"{name}-start")
    assert started.status_code == 201, started.json()
    hand = started.json()
    hand_id = hand["id"]
    assert hand["dealer"] == doc["dealer"]
    assert {k: hand["rules"][k] for k in doc["rules"]} == doc["rules"]
    assert hand["pots"][0]["amount"] == len(doc["seats"]) * doc["rules"]["ante"]
    actions_url = f"/api/v1/hands/{hand_id}/actions/"

    seq = hand["next_seq"]
    for index, action in enumerate(doc["actions"]):
        if index in illegal_at:
            wrong, code = illegal_at[index]
            refuse(client, hand_id, wrong, seq, code, key=f"{name}-illegal-{index}")
        sent = {**action, "expected_seq": seq}
        response = post(client, actions_url, sent, key=f"{name}-{index}")
        assert response.status_code == 201, (index, action, response.json())
        body = response.json()
        assert body["seq"] == seq
        seq = body["hand"]["next_seq"]
        if index == 0:
            # A tablet retrying after a lost answer gets the same answer and changes nothing.
            before = snapshot(hand_id)
            again = post(client, actions_url, sent, key=f"{name}-0")
            assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
            assert again.json() == body
            assert snapshot(hand_id) == before
    hand = body["hand"]
    assert hand["status"] == "in_progress" and hand["phase"] == "showing"

    shown: list[int] = []
    while hand["cards_needed"]:
        seat = hand["cards_needed"][0]
        cards = doc["cards"][str(seat)]
        response = post(
            client,
            f"/api/v1/hands/{hand_id}/cards/",
            {"seat": seat, "cards": cards, "expected_seq": seq},
            key=f"{name}-cards-{seat}",
        )
        assert response.status_code == 201, response.json()
        hand = response.json()["hand"]
        seq = hand["next_seq"]
        shown.append(seat)
    assert sorted(shown) == sorted(int(s) for s in doc["cards"])

    # The result: the pot, its winner, the stacks, exactly as the engine replays the fixture.
    assert hand["status"] == "settled"
    result = hand["result"]
    (the_pot,) = result["pots"]
    assert the_pot["amount"] == pot and the_pot["winners"] == winners
    assert result["stacks"] == {str(seat): stack for seat, stack in stacks.items()}
    assert result == {"settled": True, **expected.outcome.to_dict()}

    state = client.get(f"/api/v1/tables/{table.pk}/").json()
    assert {s["number"]: s["stack"] for s in state["seats"]} == stacks
    assert state["button"] == expected.outcome.next_dealer
    assert state["hand"]["id"] == hand_id and state["hand"]["status"] == "settled"

    # The history replays to the same outcome.
    history = client.get(f"/api/v1/hands/{hand_id}/history/").json()
    assert history["format"] == "brag-hh/1"
    assert history["dealer"] == doc["dealer"] and history["seats"] == doc["seats"]
    assert history["actions"] == doc["actions"] and history["cards"] == doc["cards"]
    replayed = replay(history)
    assert replayed.outcome == expected.outcome

    # No money made or lost: balances plus stacks are what the players brought.
    standings = client.get(f"/api/v1/events/{event.pk}/standings/").json()["standings"]
    totals = {row["name"]: row["total"] for row in standings}
    assert totals == {
        s["player"]: STARTING_MONEY - s["stack"] + stacks[s["seat"]] for s in doc["seats"]
    }

    report = ledger_audit(event=event)
    assert report.ok, "\n".join(report.lines())
    out = io.StringIO()
    call_command("audit_ledger", stdout=out)
    assert out.getvalue().rstrip().endswith("PASS"), out.getvalue()
    assert "FAIL" not in out.getvalue()
