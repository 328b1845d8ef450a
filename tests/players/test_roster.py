"""The roster: search by name (normalised as names are), a name corrected as registration
checks it, and the import's report of every row and of the columns it ignored."""

from __future__ import annotations

import pytest

from brag_event.audit.models import AuditEntry
from brag_event.players.models import Player
from brag_event.players.roster import player_rename, players_search
from brag_event.players.services import player_register, players_import
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
    assert (renamed.name, renamed.name_key) == ("Andrew Smith", "andrew smith")
    entry = AuditEntry.objects.get(verb="player.rename")
    assert entry.data == {"player": andy.pk, "before": "Andy", "after": "Andrew Smith"}
    err = refused("player_exists", lambda: player_rename(player=andy, name="BILL", by=None))
    assert err.message == "“BILL” is already registered for FLASH as “Bill”."
    assert err.details["field"] == "name"
    refused("invalid_name", lambda: player_rename(player=andy, name=" \u200b ", by=None))
    err = refused("invalid_name", lambda: player_rename(player=andy, name="x" * 81, by=None))
    assert err.message == "A name is at most 80 characters."
    assert Player.objects.get(pk=andy.pk).name == "Andrew Smith"
    # The same player's own name in another case is a correction, not a clash.
    assert player_rename(player=bill, name="BILL", by=None).name == "BILL"


def test_the_import_reports_every_row_and_the_columns_it_ignored() -> None:
    w = world(1)  # Andy
    text = (
        "name,club,starting_money,email\n"
        "Zoe,North,500,z@example.org\n"
        "Andy,South,100,\n"
        "\n"
        ",,,\n"
        "Yann,,abc,\n"
        "Wes,East,,w@example.org,extra,more\n"
        f"{'L' * 100},,10,\n"
    )
    report = players_import(event=w.event, text=text, by=None, default_money=250)
    assert report.ignored == ["club", "email"]
    rows = [(r["line"], r["outcome"], r["reason"]) for r in report.rows]
    assert rows == [
        (2, "registered", ""),
        (3, "rejected", "“Andy” is already registered for FLASH."),
        (5, "blank", ""),  # line 4 is empty: no row at all
        (6, "rejected", "starting money 'abc' is not a whole number (digits 0–9)"),
        (7, "registered", "2 value(s) past the last column ignored"),
        (8, "rejected", "A name is at most 80 characters."),
    ]
    assert [r.get("money") for r in report.rows if r["outcome"] == "registered"] == [500, 250]


@pytest.mark.parametrize("text", ["name\n", "name,starting_money\n\n\n"])
def test_an_import_with_no_player_line_says_so(text: str) -> None:
    w = world(1)
    err = refused("invalid_csv", lambda: players_import(event=w.event, text=text, by=None))
    assert err.message == "Nothing to import: there is no line after the first (the column names)."


def test_a_first_line_without_name_says_what_it_named() -> None:
    w = world(1)
    err = refused(
        "invalid_csv", lambda: players_import(event=w.event, text="who,cash\nx,1\n", by=None)
    )
    assert err.message == (
        "The first line must name the columns: name, starting_money (optional); it names who, cash."
    )
