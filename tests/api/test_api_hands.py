"""A hand over HTTP: the live state, actions with sequence numbers, idempotent retries, the one
error shape."""

from __future__ import annotations

from typing import Any

import pytest

from brag_event.hands.models import HandAction
from brag_event.ledger.models import Transfer
from tests.factories import assert_audit_ok

from .conftest import SEEN_HAND, Api, post, start_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def test_the_live_table_state_lists_what_is_legal(api: Api) -> None:
    hand = start_hand(api)
    state = api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/").json()
    assert [s["number"] for s in state["seats"]] == [1, 2, 3]
    assert state["hand"]["id"] == hand["id"] and state["hand"]["to_act"] == 2
    bet = next(a for a in state["hand"]["legal_actions"] if a["action"] == "bet")
    assert (bet["min_amount"], bet["max_amount"], bet["blind"]) == (3, 10, True)
    see = next(a for a in state["hand"]["legal_actions"] if a["action"] == "see")
    assert see["allowed"] is False and see["code"] == "see_needs_two_players"


def test_a_whole_hand_with_a_see_and_shown_cards(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    seq = hand["next_seq"]
    for body in SEEN_HAND:
        response = post(dealer, url + "actions/", {**body, "expected_seq": seq})
        assert response.status_code == 201, response.json()
        seq = response.json()["hand"]["next_seq"]
    assert response.json()["hand"]["cards_needed"] == [1, 2]
    post(dealer, url + "cards/", {"seat": 1, "cards": "Kh Kd 4c", "expected_seq": seq})
    final = post(dealer, url + "cards/", {"seat": 2, "cards": "Qs Js Ts", "expected_seq": seq + 1})
    assert final.status_code == 201
    result = final.json()["hand"]["result"]
    assert result["pots"][0]["winners"] == [2] and result["pots"][0]["amount"] == 55
    history = dealer.get(url + "history/").json()
    assert history["format"] == "brag-hh/1" and history["cards"]["2"] == "Qs Js Ts"
    assert_audit_ok(api.world.event)


def test_a_see_given_up_after_the_seen_hand_is_shown(api: Api) -> None:
    """RULES §3.6: the seer gives up without showing; the API takes ``concede`` like any
    action, offers it only once it is legal, and the history leaves the seer's cards out."""
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    seq = hand["next_seq"]
    for body in SEEN_HAND:
        response = post(dealer, url + "actions/", {**body, "expected_seq": seq})
        seq = response.json()["hand"]["next_seq"]
    early = post(dealer, url + "actions/", {"seat": 2, "action": "concede", "expected_seq": seq})
    assert early.status_code == 400 and early.json()["error"]["code"] == "concede_too_early"
    assert "may give up only after" in early.json()["error"]["message"]
    shown = post(dealer, url + "cards/", {"seat": 1, "cards": "Kh Kd 4c", "expected_seq": seq})
    offered = [(a["action"], a["seat"]) for a in shown.json()["hand"]["legal_actions"]]
    assert offered == [("show", 2), ("concede", 2)]
    final = post(
        dealer, url + "actions/", {"seat": 2, "action": "concede", "expected_seq": seq + 1}
    )
    assert final.status_code == 201, final.json()
    result = final.json()["hand"]["result"]
    assert result["pots"][0]["winners"] == [1] and result["pots"][0]["amount"] == 55
    assert result["conceded"] == [2] and set(result["shown"]) == {"1"}
    history = dealer.get(url + "history/").json()
    assert history["actions"][-1] == {"seat": 2, "action": "concede"}
    assert history["cards"] == {"1": "Kh Kd 4c"}
    assert Transfer.objects.filter(hand_id=hand["id"], kind="pot_won").get().amount == 55
    assert_audit_ok(api.world.event)


def test_a_retry_with_the_same_key_gets_the_first_answer_and_changes_nothing(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 2, "action": "bet", "amount": 5, "expected_seq": hand["next_seq"]}
    first = post(api.client("dealer"), url, body, key="tablet-7-0001")
    again = post(api.client("dealer"), url, body, key="tablet-7-0001")
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert HandAction.objects.count() == 1
    assert Transfer.objects.filter(kind="bet").count() == 1
    other = post(api.client("dealer"), url, {**body, "amount": 6}, key="tablet-7-0001")
    assert other.status_code == 422
    assert other.json()["error"]["code"] == "idempotency_key_reused"
    assert post(api.client("dealer"), url, body, key=" ").json()["error"]["code"] == (
        "invalid_idempotency_key"
    )


def test_a_refused_action_is_replayed_too(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    body = {"seat": 3, "action": "fold", "expected_seq": 1}
    first = post(api.client("dealer"), url, body, key="k1")
    assert first.status_code == 400 and first.json()["error"]["code"] == "not_your_turn"
    again = post(api.client("dealer"), url, body, key="k1")
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"


def test_a_stale_screen_gets_409_with_the_current_state_and_nothing_is_written(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/actions/"
    assert post(api.client("dealer"), url, {"seat": 2, "action": "fold", "expected_seq": 1})
    before = HandAction.objects.count()
    response = post(api.client("supervisor"), url, {"seat": 2, "action": "fold", "expected_seq": 1})
    assert response.status_code == 409
    error = response.json()["error"]
    assert error["code"] == "stale_sequence" and error["details"]["expected_seq"] == 2
    assert error["details"]["hand"]["to_act"] == 3
    assert HandAction.objects.count() == before


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seat": 2, "action": "bet", "amount": 2, "expected_seq": 1}, 400, "bet_below_min"),
        # The engine names what is wrong with an action (the serializer parses shapes only).
        ({"seat": 2, "action": "raise", "expected_seq": 1}, 400, "unknown_action"),
        ({"seat": 2, "action": "bet", "amount": "lots", "expected_seq": 1}, 400, "invalid_input"),
        ({"seat": 2, "action": "bet", "amount": 5}, 400, "invalid_input"),
        ({"seat": 2, "action": "look", "amount": 5, "expected_seq": 1}, 400, "unexpected_field"),
        ([1, 2, 3], 400, "invalid_input"),
    ],
)
def test_bad_input_gets_a_clear_stable_error(api: Api, body: Any, status: int, code: str) -> None:
    hand = start_hand(api)
    response = post(api.client("dealer"), f"/api/v1/hands/{hand['id']}/actions/", body)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert HandAction.objects.count() == 0


def test_malformed_json_and_wrong_methods(api: Api) -> None:
    hand = start_hand(api)
    client = api.client("dealer")
    url = f"/api/v1/hands/{hand['id']}/actions/"
    bad = client.post(url, data="{not json", content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "malformed_request"
    assert client.delete(url).json()["error"]["code"] == "method_not_allowed"
    form = client.post(url, data="a=1", content_type="application/x-www-form-urlencoded")
    assert form.status_code == 415


def test_void_by_a_supervisor_with_a_reason(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    post(api.client("dealer"), url + "actions/", {"seat": 2, "action": "fold", "expected_seq": 1})
    refused = post(api.client("dealer"), url + "void/", {"reason": "wrong seat"})
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "forbidden"
    no_reason = post(api.client("supervisor"), url + "void/", {"reason": ""})
    assert no_reason.json()["error"]["code"] == "invalid_input"
    done = post(
        api.client("supervisor"), url + "void/", {"reason": "wrong seat", "expected_seq": 2}
    )
    assert done.status_code == 200 and done.json()["hand"]["to_act"] == 2
    assert_audit_ok(api.world.event)


def test_schema_and_docs_are_served(api: Api) -> None:
    schema = api.client("anonymous").get("/api/schema/")
    assert schema.status_code == 200 and b"/api/v1/hands/{hand_id}/actions/" in schema.content
    docs = api.client("anonymous").get("/api/docs/")
    assert docs.status_code == 200 and b"swagger-ui" in docs.content
    assert b"cdn" not in docs.content.lower()


@pytest.mark.parametrize("key", [None, "big-1"])
def test_an_oversized_body_gets_413_in_the_error_shape(api: Api, key: str | None) -> None:
    hand = start_hand(api)
    body = b'{"seat": 2, "action": "look", "expected_seq": 1, "x": "' + b"a" * 3_000_000 + b'"}'
    headers: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    response = api.client("dealer").post(
        f"/api/v1/hands/{hand['id']}/actions/", body, content_type="application/json", **headers
    )
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "request_too_large"
    assert HandAction.objects.count() == 0
