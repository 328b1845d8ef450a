"""A client generated from the schema plays a whole hand against a live server.

The schema is generated (as ``make schema`` does), a Python client is generated from it with
openapi-python-client (from PyPI, a dev dependency) into a temporary directory and imported; a
dealer's tablet then starts a hand, enters its actions and the shown cards, and reads the
table — through the generated, typed calls and models only, with real commits (the keyed,
idempotent write path). The ledger audit passes at the end."""

from __future__ import annotations

import importlib
import shutil
import subprocess  # nosec B404: runs the generator the dev set installs
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.core.management import call_command

from tests.factories import assert_audit_ok

from .conftest import Api

# Generating the client takes seconds.
pytestmark = pytest.mark.slow

PACKAGE = "brag_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    where = tmp_path_factory.mktemp("client")
    schema = where / "openapi.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))
    config = where / "config.yaml"
    config.write_text("post_hooks: []\n", encoding="utf-8")  # no formatter run on the output
    generator = shutil.which("openapi-python-client", path=str(Path(sys.executable).parent))
    assert generator, "openapi-python-client is not installed (the dev extra)"
    subprocess.run(  # nosec B603: a fixed command line
        [
            generator,
            "generate",
            "--path",
            str(schema),
            "--meta",
            "none",
            "--output-path",
            str(where / PACKAGE),
            "--config",
            str(config),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def call(module: str, *args: Any, **kwargs: Any) -> Any:
    """A generated operation's parsed answer; fails unless it is the documented success."""
    operation = importlib.import_module(f"{PACKAGE}.api.v1.{module}")
    response = operation.sync_detailed(*args, **kwargs)
    assert 200 <= response.status_code < 300, (module, response.status_code, response.content)
    return response.parsed


def test_a_generated_client_plays_a_whole_hand(
    transactional_db: None, api: Api, live_server: Any, generated: ModuleType
) -> None:
    from brag_event.api.models import DeviceToken, token_hash

    models = importlib.import_module(f"{PACKAGE}.models")
    key = DeviceToken.new_key()
    DeviceToken.objects.create(
        user=api.users["dealer"], name="generated", key_hash=token_hash(key), prefix=key[:6]
    )
    client = generated.AuthenticatedClient(
        base_url=live_server.url, token=key, prefix="Token", raise_on_unexpected_status=True
    )
    w = api.world

    hand = call("v1_tables_hands_create", w.table.pk, client=client, idempotency_key="gen-start")
    assert isinstance(hand, models.HandStartedOut) and hand.to_act == 2
    assert hand.table_state.hand.id == hand.id and hand.start_history.actions == []
    seq = hand.next_seq
    for seat, action, amount in (
        (2, "look", None),
        (2, "bet", 10),
        (3, "fold", None),
        (1, "look", None),
        (1, "bet", 10),
        (2, "see", 20),
    ):
        body = models.ActionInRequest(
            expected_seq=seq, action=models.ActionInActionEnum(action), seat=seat, amount=amount
        )
        answer = call(
            "v1_hands_actions_create",
            hand.id,
            client=client,
            body=body,
            idempotency_key=f"gen-{seq}",
        )
        assert isinstance(answer, models.ActionAcceptedOut) and answer.seq == seq
        seq = answer.hand.next_seq
    assert answer.hand.cards_needed == [1, 2]
    for seat, cards in ((1, "Kh Kd 4c"), (2, "Qs Js Ts")):
        body = models.CardsInRequest(expected_seq=seq, seat=seat, cards=cards)
        answer = call(
            "v1_hands_cards_create", hand.id, client=client, body=body, idempotency_key=f"gen-{seq}"
        )
        seq = answer.hand.next_seq
    assert answer.hand.status == models.HandStatusEnum.SETTLED

    table = call("v1_tables_retrieve", w.table.pk, client=client)
    assert isinstance(table, models.TableOut)
    assert table.hand.id == hand.id and table.hand.phase == models.PhaseEnum.SETTLED
    history = call("v1_hands_history_retrieve", hand.id, client=client)
    assert history.format_ == "brag-hh/1" and history.cards["2"] == "Qs Js Ts"
    assert_audit_ok(w.event)
