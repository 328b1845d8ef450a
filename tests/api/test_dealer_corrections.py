"""The dealer's corrections over HTTP: taking back their own last entry (``take-back/``) and a
re-buy at their table — each within the rules the services enforce, refused with a code and a
sentence otherwise, the ledger's audit passing after every money step."""

from __future__ import annotations

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.hands.models import ActionVoid, Hand
from brag_event.ledger.models import Transfer
from brag_event.tables.models import RebuyConsent, Seat
from tests.factories import assert_audit_ok

from .conftest import Api, assert_error, post, start_hand
from .test_permissions import run_out_seat_2

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("unthrottled")]


@pytest.fixture
def api(shared_api: Api) -> Api:
    return shared_api


def written() -> tuple[int, int, int]:
    return Transfer.objects.count(), ActionVoid.objects.count(), AuditEntry.objects.count()


def test_the_dealer_takes_back_their_last_entry_once(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    post(dealer, url + "actions/", {"seat": 2, "action": "look", "expected_seq": 1})
    bet = post(
        dealer, url + "actions/", {"seat": 2, "action": "bet", "amount": 20, "expected_seq": 2}
    )
    assert bet.status_code == 201
    wrong = post(dealer, url + "take-back/", {"reason": "because", "expected_seq": 3})
    assert_error(wrong, 400, "invalid_reason")
    done = post(dealer, url + "take-back/", {"reason": "wrong_amount", "expected_seq": 3})
    assert done.status_code == 200, done.json()
    after = done.json()["hand"]
    assert after["to_act"] == 2 and after["stake"] == 0 and after["next_seq"] == 4
    assert [a["action"] for a in after["actions"]] == ["look"]
    assert_audit_ok(api.world.event)
    # The look is now two entries back: the supervisor's.
    before = written()
    again = assert_error(
        post(dealer, url + "take-back/", {"reason": "wrong_action", "expected_seq": 4}),
        403,
        "earlier_entry_supervisor_only",
    )
    assert "supervisor" in again["message"]
    assert written() == before
    # The supervisor's undo still reaches it.
    undo = post(api.client("supervisor"), url + "void/", {"reason": "looked by mistake"})
    assert undo.status_code == 200 and undo.json()["hand"]["actions"] == []
    assert_audit_ok(api.world.event)


def test_a_settled_hand_is_the_supervisors(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    post(dealer, url + "actions/", {"seat": 2, "action": "fold", "expected_seq": 1})
    post(dealer, url + "actions/", {"seat": 3, "action": "fold", "expected_seq": 2})
    assert Hand.objects.get(pk=hand["id"]).status == Hand.Status.SETTLED
    before = written()
    refused = post(dealer, url + "take-back/", {"reason": "wrong_seat", "expected_seq": 3})
    assert_error(refused, 403, "hand_settled_supervisor_only")
    assert written() == before
    assert Hand.objects.get(pk=hand["id"]).status == Hand.Status.SETTLED


def test_the_tables_dealer_rebuys_a_run_out_seat_with_everyones_consent(api: Api) -> None:
    seat = run_out_seat_2(api)
    w = api.world
    dealer = api.client("dealer")
    url = f"/api/v1/seats/{seat.pk}/rebuy/"
    # A seat that has not run out is refused, and so is a re-buy without every consent.
    full = w.seat(1)
    assert_error(
        post(dealer, f"/api/v1/seats/{full.pk}/rebuy/", {"consenting": []}), 400, "not_run_out"
    )
    before = written()
    missing = assert_error(
        post(dealer, url, {"consenting": [w.players[0].pk]}), 400, "consent_missing"
    )
    assert "Chris" in missing["message"]
    assert written() == before
    w.players[1].refresh_from_db()
    balance = w.players[1].balance
    done = post(dealer, url, {"consenting": [w.players[0].pk, w.players[2].pk]})
    assert done.status_code == 200, done.json()
    assert done.json()["stack"] == seat.buy_in == w.day.table_min
    w.players[1].refresh_from_db()
    assert w.players[1].balance == balance - seat.buy_in - w.day.house_fee
    assert RebuyConsent.objects.filter(rebuy_seat=seat).count() == 2
    entry = AuditEntry.objects.filter(verb="seat.rebuy").get()
    assert entry.actor == api.users["dealer"] and entry.data["amount"] == seat.buy_in
    assert_audit_ok(w.event)
    # Between hands only.
    start_hand(api)
    assert Seat.objects.get(pk=seat.pk).stack == seat.buy_in - w.day.ante
    others = {"consenting": [w.players[0].pk, w.players[2].pk]}
    assert_error(post(dealer, url, others), 409, "hand_in_progress")


def test_the_hands_record_says_who_took_an_entry_back_and_why(api: Api) -> None:
    """What the tablet's conflict notice says ("The supervisor Sam Lee took back … — reason:
    …") comes from the hand's record: each void with its reason, the sequence number it took,
    and who made it — their name and their role."""
    supervisor = api.users["supervisor"]
    supervisor.first_name, supervisor.last_name = "Sam", "Lee"
    supervisor.save()
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    post(dealer, url + "actions/", {"seat": 2, "action": "look", "expected_seq": 1})
    post(api.client("supervisor"), url + "void/", {"reason": "wrong seat", "expected_seq": 2})
    entries = dealer.get(url).json()["entries"]
    assert [(e["seq"], e["action"]) for e in entries] == [(1, "look")]
    assert entries[0]["entered_by_role"] == "dealer"
    assert entries[0]["void"] | {"at": None} == {
        "reason": "wrong seat",
        "at": None,
        "seq": 2,
        "by": "supervisor",
        "by_name": "Sam Lee",
        "by_role": "supervisor",
    }
