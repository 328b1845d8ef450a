"""An action's answer carries the table's new state and its ETag: the same bytes the table's
read answers, so the tablet's next poll with that ETag is a 304 rather than a second rendering
of what it just did (issue 33)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache

from .conftest import SEEN_HAND, Api, post, start_hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(shared_api: Api) -> Api:
    """The module's world, built once and rolled back after each test (tests/api/conftest.py)."""
    return shared_api


def fresh_read(api: Api) -> Any:
    cache.clear()  # a rendering from the database, not the kept one
    return api.client("dealer").get(f"/api/v1/tables/{api.world.table.pk}/")


def test_every_answer_of_a_hand_is_the_tables_read_and_its_etag_a_304(api: Api) -> None:
    hand = start_hand(api)
    url = f"/api/v1/hands/{hand['id']}/"
    dealer = api.client("dealer")
    seq = hand["next_seq"]
    bodies = [*SEEN_HAND, {"seat": 1, "cards": "Kh Kd 4c"}, {"seat": 2, "cards": "Qs Js Ts"}]
    etags = set()
    for body in bodies:
        path = url + ("cards/" if "cards" in body else "actions/")
        answer = post(dealer, path, {**body, "expected_seq": seq})
        assert answer.status_code == 201, answer.json()
        got = answer.json()
        seq = got["hand"]["next_seq"]
        read = fresh_read(api)
        assert read.status_code == 200
        assert got["table"] == read.json()
        assert got["table"]["hand"] == got["hand"]
        assert got["table_etag"] == read["ETag"]
        again = dealer.get(
            f"/api/v1/tables/{api.world.table.pk}/", HTTP_IF_NONE_MATCH=got["table_etag"]
        )
        assert again.status_code == 304
        etags.add(got["table_etag"])
    assert len(etags) == len(bodies)  # each action moved the version
    # The last one settled the hand: its answer shows the stacks the pot went to.
    assert got["hand"]["status"] != "in_progress"
    assert got["table"]["seats"] == fresh_read(api).json()["seats"]


def test_a_hand_starts_with_the_tables_read_and_its_etag_a_304(api: Api) -> None:
    dealer = api.client("dealer")
    started = start_hand(api)
    read = fresh_read(api)
    assert read.status_code == 200
    assert started["table_state"] == read.json()
    assert started["table_state"]["hand"]["id"] == started["id"]
    assert started["table_etag"] == read["ETag"]
    again = dealer.get(
        f"/api/v1/tables/{api.world.table.pk}/", HTTP_IF_NONE_MATCH=started["table_etag"]
    )
    assert again.status_code == 304
    # The hand itself is answered as before: its fields, the table's id among them.
    assert started["table"] == api.world.table.pk
    assert started["table_state"]["hand"] == {
        k: v for k, v in started.items() if k not in ("table_state", "table_etag", "start_history")
    }
    # And its start document, as the hand's history answers it (no actions yet).
    history = dealer.get(f"/api/v1/hands/{started['id']}/history/")
    assert started["start_history"] == history.json()
    assert started["start_history"]["actions"] == []


def test_the_answer_is_kept_for_the_tables_other_screens_once_committed(
    api: Api, django_capture_on_commit_callbacks: Any
) -> None:
    hand = start_hand(api)
    dealer = api.client("dealer")
    body = {**SEEN_HAND[0], "expected_seq": hand["next_seq"]}
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        answer = post(dealer, f"/api/v1/hands/{hand['id']}/actions/", body)
    got = answer.json()
    kept = cache.get(f"table-{api.world.table.pk}")
    assert kept is not None
    assert f'"table-{api.world.table.pk}@{kept[0]}"' == got["table_etag"]
    assert json.loads(kept[1]) == got["table"]


def test_a_refused_action_keeps_nothing(api: Api, django_capture_on_commit_callbacks: Any) -> None:
    hand = start_hand(api)
    dealer = api.client("dealer")
    cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        refused = post(
            dealer,
            f"/api/v1/hands/{hand['id']}/actions/",
            {"seat": 2, "action": "bet", "amount": 999, "expected_seq": hand["next_seq"]},
        )
    assert refused.status_code == 400
    assert "table" not in refused.json()
    assert cache.get(f"table-{api.world.table.pk}") is None
