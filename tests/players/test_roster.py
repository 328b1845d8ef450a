"""The roster: search by name (normalised as names are) and a name corrected as registration
checks it (a file of players: test_imports)."""

from __future__ import annotations

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.players.models import Player
from brag_event.players.names import name_key
from brag_event.players.roster import player_rename, players_search
from brag_event.players.services import player_register
from tests.factories import refused, world

pytestmark = pytest.mark.django_db


def test_search_compares_names_as_names_are_compared() -> None:
    w = world(3)  # Andy, Bill, Chris
    player_register(event=w.event, name="Harvey Price", by=None)
    other = world(1, name="OTHER").event
    player_register(event=other, name="Harvey Other", by=None)

    def names(text: str) -> list[str]:
        return [p.name for p in players_search(event=w.event, text=text)]

    assert names("HARVEY") == ["Harvey Price"]
    assert names("har\u200bvey  pr") == ["Harvey Price"]  # invisible and doubled spaces
    assert names("ＨＡＲＶＥＹ") == ["Harvey Price"]  # full-width letters
    assert names("r") == ["Chris", "Harvey Price"]
    assert names("") == ["Andy", "Bill", "Chris", "Harvey Price"]
    assert names("zzz") == []


def test_a_name_is_corrected_and_checked_as_at_registration() -> None:
    w = world(2)
    andy, bill = w.players
    renamed = player_rename(player=andy, name="  Andrew\u200b  Smith ", by=None)
    assert (renamed.name, renamed.name_key) == ("Andrew Smith", name_key("andrew smith"))
    entry = AuditEntry.objects.get(verb="player.rename")
    assert entry.data == {"player": andy.pk, "before": "Andy", "after": "Andrew Smith"}
    err = refused("player_exists", lambda: player_rename(player=andy, name="BILL", by=None))
    assert err.message == "“BILL” looks the same as Bill, already registered for FLASH."
    assert err.details["field"] == "name"
    refused("invalid_name", lambda: player_rename(player=andy, name=" \u200b ", by=None))
    err = refused("invalid_name", lambda: player_rename(player=andy, name="x" * 81, by=None))
    assert err.message == "A name is at most 80 characters."
    assert Player.objects.get(pk=andy.pk).name == "Andrew Smith"
    # The same player's own name in another case is a correction, not a clash.
    assert player_rename(player=bill, name="BILL", by=None).name == "BILL"
