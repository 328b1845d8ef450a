"""Look-alike names: a name is stored normalised (NFKC, invisible characters removed, white space
collapsed) and an event's players are unique by it case-insensitively — in the service, with an
error naming the registered player, and in the database itself."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from django.apps import apps
from django.db import IntegrityError, transaction

from brag_event.core.errors import ServiceError
from brag_event.players.imports import players_import_preview
from brag_event.players.models import Player
from brag_event.players.names import name_key, player_name_clean, player_name_key
from brag_event.players.services import player_register
from tests.factories import assert_audit_ok, world

pytestmark = pytest.mark.django_db

LOOK_ALIKES = [
    "HARVEY PRICE",
    "harvey price",
    "Harvey \u200bPrice",
    "Harvey  Price",
    " Harvey Price\u00a0",
    "Harvey\u00a0Price",
    "Ｈａｒｖｅｙ Ｐｒｉｃｅ",  # full-width
    "Harvey\u2060 Price",  # word joiner
    "Har\u00advey Price",  # soft hyphen
    "Harvey\u200d Price\u200e",  # zero-width joiner, left-to-right mark
    "Harvey\u3164 Price",  # Hangul filler
    "Harvey\tPrice",
    "Harvey\nPrice",
]


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("  Ann   Lee ", "Ann Lee"),
        ("Ann\u200b Lee", "Ann Lee"),
        ("Ａｎｎ Ｌｅｅ", "Ann Lee"),
        ("Ann\u00a0Lee", "Ann Lee"),
        ("Zoe\u0301", "Zoé"),  # combining accent composed
        ("Zo\u200be\u0301", "Zoé"),  # composed once the invisible character is gone
        ("\ufeffBOM", "BOM"),
        ("ﬁ", "fi"),
    ],
)
def test_names_are_stored_clean(raw: str, clean: str) -> None:
    assert player_name_clean(raw) == clean


def test_keys_compare_case_insensitively() -> None:
    assert player_name_key("STRASSE") == player_name_key("Straße") == "strasse"
    assert player_name_key("Ann Lee") != player_name_key("Ann Leigh")


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_look_alike_is_refused_naming_the_registered_player(name: str) -> None:
    w = world(1)
    harvey = player_register(event=w.event, name="Harvey Price", starting_money=100, by=None)
    with pytest.raises(ServiceError) as refused:
        player_register(event=w.event, name=name, starting_money=100, by=None)
    assert refused.value.code == "player_exists"
    assert "Harvey Price" in refused.value.message
    assert refused.value.details == {
        "field": "name",
        "player": harvey.pk,
        "existing": "Harvey Price",
    }
    assert Player.objects.filter(event=w.event).count() == 2
    assert_audit_ok(w.event)


def test_an_invisible_character_inside_a_word_does_not_make_a_new_name() -> None:
    """ "Harvey\u200bPrice" shows as "HarveyPrice": a different name, stored without the
    invisible character, and then itself unique."""
    w = world(1)
    player = player_register(event=w.event, name="Harvey\u200bPrice", by=None)
    assert player.name == "HarveyPrice"
    with pytest.raises(ServiceError):
        player_register(event=w.event, name="harveyprice", by=None)


def test_the_same_name_in_another_event_is_fine() -> None:
    a, b = world(1, name="A").event, world(1, name="B").event
    player_register(event=a, name="Harvey Price", by=None)
    assert player_register(event=b, name="HARVEY PRICE", by=None).name == "HARVEY PRICE"


def test_the_database_keeps_names_unique_whoever_saves() -> None:
    w = world(1)
    Player.objects.create(event=w.event, name="Harvey Price")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.create(event=w.event, name="ＨＡＲＶＥＹ\u200b PRICE")
    # Even a raw UPDATE that sets the key by hand meets the constraint.
    other = Player.objects.create(event=w.event, name="Someone Else")
    with pytest.raises(IntegrityError), transaction.atomic():
        Player.objects.filter(pk=other.pk).update(name_key="harvey price")


def test_a_rename_keeps_the_key_in_step() -> None:
    w = world(1)
    player = Player.objects.create(event=w.event, name="Old Name")
    player.name = "New\u200b  NAME"
    player.save(update_fields=["name"])
    player.refresh_from_db()
    assert (player.name, player.name_key) == ("New NAME", name_key("new name"))


def test_the_import_refuses_look_alikes_in_the_file_and_in_the_event() -> None:
    w = world(1)
    harvey = player_register(event=w.event, name="Harvey Price", by=None)
    text = "name,money\nHARVEY PRICE,1\nAnn Lee,1\nANN\u200b LEE,1\n"
    batch = players_import_preview(event=w.event, data=text.encode(), by=None)
    assert [(r["line"], r["refused"], r["looks_like"]) for r in batch.rows] == [
        (2, "", {"player": harvey.pk, "name": "Harvey Price"}),
        (3, "", None),
        (4, "the same name as line 3", None),
    ]


def test_the_admin_refuses_a_look_alike(admin_client: Any) -> None:
    w = world(1)
    player_register(event=w.event, name="Harvey Price", by=None)
    response = admin_client.post(
        "/admin/players/player/add/",
        {"event": w.event.pk, "name": "HARVEY\u200b PRICE", "starting_money": "0"},
    )
    assert response.status_code == 200
    assert "already registered" in response.content.decode()
    assert Player.objects.filter(event=w.event).count() == 2


def test_the_data_migration_cleans_names_and_keeps_old_look_alikes_apart() -> None:
    """Players registered before the change: names cleaned, keys filled; two that now look the
    same both stay (their money is theirs), the later one's key made distinct."""
    migration = importlib.import_module("brag_event.players.migrations.0003_player_name_key")
    w = world(1)
    a = Player.objects.create(event=w.event, name="Ann Lee")
    b = Player.objects.create(event=w.event, name="Someone")
    # As the old code could store them: the same name but for case and a zero-width space.
    Player.objects.filter(pk=a.pk).update(name_key="old-1")
    Player.objects.filter(pk=b.pk).update(name="ANN\u200b LEE", name_key="old-2")
    migration.fill_keys(apps, None)
    a.refresh_from_db()
    b.refresh_from_db()
    assert (a.name, a.name_key) == ("Ann Lee", "ann lee")
    assert (b.name, b.name_key) == ("ANN LEE", f"ann lee#{b.pk}")
