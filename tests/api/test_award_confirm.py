"""A large pot's second confirmation over the API (issue 31): the table shows it waiting, the
next hand is refused in words, and it is confirmed by a supervisor's own device or by the
supervisor signing in on the dealer's tablet — never by the dealer who entered the hand."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import pytest
from django.conf import settings

from brag_event.api.models import IdempotencyRecord
from brag_event.events.services import day_update_rules
from brag_event.floor.models import AwardConfirmation
from brag_event.hands.models import Hand
from brag_event.ledger.audit import ledger_audit

from .conftest import Api, assert_error, post

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    return shared_api


def _big_pot(api: Api) -> dict[str, Any]:
    """The dealer's tablet plays a hand whose pot (15 of antes + 10) reaches the day's 20: the
    first to speak looks and bets 10, the others fold. The answer to the last fold."""
    w = api.world
    day_update_rules(day=w.day, changes={"award_confirm_from": 20}, by=None)
    dealer = api.client("dealer")
    hand = post(dealer, f"/api/v1/tables/{w.table.pk}/hands/").json()
    first = hand["to_act"]
    entries = [{"seat": first, "action": "look"}, {"seat": first, "action": "bet", "amount": 10}]
    for entry in entries:
        hand = _enter(api, hand, entry)
    while hand["status"] == "in_progress":
        hand = _enter(api, hand, {"seat": hand["to_act"], "action": "fold"})
    return hand


def _enter(api: Api, hand: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    url = f"/api/v1/hands/{hand['id']}/actions/"
    answer = post(api.client("dealer"), url, {**entry, "expected_seq": hand["next_seq"]})
    assert answer.status_code == 201, answer.content
    out: dict[str, Any] = answer.json()["hand"]
    return out


def test_the_table_shows_the_pot_waiting_and_the_next_hand_is_refused_in_words(api: Api) -> None:
    hand = _big_pot(api)
    winner = next(p["player"] for p in hand["players"] if p["status"] == "active")
    assert hand["award"]["status"] == "waiting"
    assert hand["award"]["message"] == f"Pot of 25 to {winner} waits for a second member of staff."
    table = api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/").json()
    assert table["hand"]["award"] == hand["award"]
    refused = post(api.client("dealer"), f"/api/v1/tables/{api.world.table.pk}/hands/")
    error = assert_error(refused, 409, "award_unconfirmed")
    assert f"Pot of 25 to {winner} waits" in error["message"]


def test_a_supervisor_signs_in_on_the_dealers_tablet_and_the_table_moves_on(api: Api) -> None:
    hand = _big_pot(api)
    url = f"/api/v1/hands/{hand['id']}/award-confirm/"
    dealer = api.client("dealer")
    wrong = post(dealer, url, {"username": "supervisor", "password": "nope"})
    assert_error(wrong, 400, "confirmer_not_recognised")
    half = post(dealer, url, {"username": "supervisor"})
    assert assert_error(half, 400, "confirmer_not_recognised")["details"] == {"field": "password"}
    # The dealer's own account is not a second member of staff.
    own = post(dealer, url, {"username": "dealer", "password": "dealer-pw"})
    assert_error(own, 403, "forbidden")
    assert AwardConfirmation.objects.get(hand_id=hand["id"]).status == "waiting"

    done = post(dealer, url, {"username": "supervisor", "password": "supervisor-pw"}, key="k1")
    assert done.status_code == 200, done.content
    body = done.json()
    assert body["award"]["status"] == "confirmed" and body["award"]["confirmed_by"] == "supervisor"
    assert body["hand"]["award"]["message"].endswith(": confirmed by supervisor.")
    award = AwardConfirmation.objects.get(hand_id=hand["id"])
    assert award.where == "tablet" and award.confirmed_by == api.users["supervisor"]
    assert award.device.endswith("(signed in on the tablet)") and "dealer tablet" in award.device
    # The answer is kept under the key with a fingerprint of the request keyed with the site's
    # secret: what is stored cannot be used to guess the password.
    sent = b'{"username":"supervisor","password":"supervisor-pw"}'
    head = f"POST {url}\n".encode()
    stored = IdempotencyRecord.objects.get(key="k1").fingerprint
    assert stored == hmac.new(settings.SECRET_KEY.encode(), head + sent, hashlib.sha256).hexdigest()
    assert stored != hashlib.sha256(head + sent).hexdigest()
    # The same request again (a retry) answers the same, and nothing more is written.
    again = post(dealer, url, {"username": "supervisor", "password": "supervisor-pw"}, key="k1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert Hand.objects.get(pk=hand["id"]).next_seq == body["hand"]["next_seq"]
    started = post(dealer, f"/api/v1/tables/{api.world.table.pk}/hands/")
    assert started.status_code == 201, started.content
    assert ledger_audit(event=api.world.event).ok


def test_a_supervisor_confirms_from_their_own_device_once(api: Api) -> None:
    hand = _big_pot(api)
    url = f"/api/v1/hands/{hand['id']}/award-confirm/"
    done = post(api.client("supervisor"), url, {})
    assert done.status_code == 200 and done.json()["award"]["confirmed_by"] == "supervisor"
    assert AwardConfirmation.objects.get(hand_id=hand["id"]).where == "floor"
    twice = post(api.client("organiser"), url, {})
    assert (
        "already confirmed by supervisor"
        in assert_error(twice, 409, "award_already_confirmed")["message"]
    )
