"""The players' pages: search, a name corrected, a player withdrawn (refused in words while in a
hand) or removed as registered by mistake, the import's preview of every row, and a player's
private link shown, printed and replaced."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from brag_event.players.links import player_from_token
from brag_event.players.models import Player
from tests.factories import World, act, assert_audit_ok, signed_in, start, world

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Client:
    return signed_in("organiser", "org")


@pytest.fixture
def w() -> World:
    return world(3)  # Andy, Bill, Chris seated at table 1


def test_search_finds_by_name_as_names_are_compared(organiser: Client, w: World) -> None:
    url = f"/organiser/events/{w.event.pk}/players/"
    page = organiser.get(url, {"q": "BI\u200bLL"}).content.decode()
    assert "Players matching" in page and ">Bill</a>" in page and ">Andy</a>" not in page
    page = organiser.get(url, {"q": "nobody"}).content.decode()
    assert "No player's name contains “nobody”." in page
    assert organiser.get(url, {"q": "x" * 1000}).status_code == 400


def test_the_import_preview_lists_every_row(organiser: Client, w: World) -> None:
    url = f"/organiser/events/{w.event.pk}/players/"
    text = (
        "name,starting_money,club,phone\nZoe,500,N,1\nAndy,100,S,2\nYann,abc,,\n"
        + "L" * 100
        + ",1,,\n"
    )
    page = organiser.post(url, {"form": "import", "csv_text": text}, follow=True).content.decode()
    assert '<strong class="wrap-anywhere">club</strong> → club or group' in page
    assert '<strong class="wrap-anywhere">phone</strong> → left out' in page
    assert '<th scope="col">Club or group</th>' in page
    # Andy looks the same as the registered Andy: the row asks the organiser.
    assert page.count('class="row-ok"') == 2 and page.count('class="row-refused"') == 2
    assert '<strong class="wrap-anywhere">Andy</strong>, already registered' in page
    assert "1 row below asks you a question" in page
    assert "is not a whole number" in page and "a name is at most 80 characters" in page
    assert "Register 2 players?" in page
    empty = organiser.post(url, {"form": "import", "csv_text": ""})
    assert empty.status_code == 400
    assert "Nothing to import: choose a CSV file or paste its lines" in empty.content.decode()
    header_only = organiser.post(url, {"form": "import", "csv_text": "name\n"})
    assert "Nothing to import: there is no row after the first" in header_only.content.decode()


def test_a_player_registered_by_mistake_is_removed_until_they_play(
    organiser: Client, w: World
) -> None:
    players = f"/organiser/events/{w.event.pk}/players/"
    organiser.post(players, {"form": "register", "name": "Oops", "starting_money": "700"})
    oops = Player.objects.get(name="Oops")
    page = organiser.get(f"/organiser/players/{oops.pk}/").content.decode()
    assert "Registered by mistake?" in page and "their 700 MB taken back" in page
    # The reason is needed; the first post asks once, removing nothing.
    url = f"/organiser/players/{oops.pk}/"
    no_reason = organiser.post(url, {"form": "remove", "reason": "  "})
    assert no_reason.status_code == 400
    assert "Say why the player is removed." in no_reason.content.decode()
    asked = organiser.post(url, {"form": "remove", "reason": "typo"})
    assert asked.status_code == 200 and Player.objects.get(pk=oops.pk).removed_at is None
    page = asked.content.decode()
    assert 'Remove <span class="wrap-anywhere">Oops</span>?' in page and "“typo”" in page
    assert 'id="remove-confirm"' in page
    done = organiser.post(
        url, {"form": "remove", "reason": "typo", "confirm": "True"}, follow=True
    ).content.decode()
    assert "Oops is removed: withdrawn, 700 MB taken back" in done
    assert "removed as registered by mistake, 700 MB taken back: typo" in done
    assert ">Oops</a>" not in organiser.get(players).content.decode()
    assert_audit_ok(w.event)
    # Andy sits at table 1: he has played, and the page offers no removal.
    andy = w.players[0]
    assert (
        "Registered by mistake?"
        not in organiser.get(f"/organiser/players/{andy.pk}/").content.decode()
    )
    refused = organiser.post(
        f"/organiser/players/{andy.pk}/", {"form": "remove", "reason": "x", "confirm": "True"}
    )
    assert refused.status_code == 400 and "has played already" in refused.content.decode()
    assert Player.objects.get(pk=andy.pk).removed_at is None


def test_a_name_is_corrected_on_the_players_page(organiser: Client, w: World) -> None:
    andy = w.players[0]
    url = f"/organiser/players/{andy.pk}/"
    clash = organiser.post(url, {"form": "rename", "name": "CHRIS"})
    assert clash.status_code == 400
    said = "“CHRIS” looks the same as Chris, already registered for FLASH."
    assert said in clash.content.decode()
    done = organiser.post(url, {"form": "rename", "name": "Andrew"}, follow=True)
    page = done.content.decode()
    assert "“Andy” is now “Andrew”." in page and "renamed from “Andy” to “Andrew”" in page
    assert Player.objects.get(pk=andy.pk).name == "Andrew"


def test_withdrawing_is_refused_in_a_hand_then_done(organiser: Client, w: World) -> None:
    chris = w.players[2]
    url = f"/organiser/players/{chris.pk}/"
    hand = start(w)
    refused = organiser.post(url, {"form": "withdraw", "reason": "ill"})
    assert refused.status_code == 400
    assert "Chris is in the hand being played at table 1: withdraw them when it ends." in (
        refused.content.decode()
    )
    act(hand, seat=2, action="fold")
    act(hand, seat=3, action="fold")  # Andy wins; settled
    page = organiser.post(url, {"form": "withdraw", "reason": "ill"}, follow=True)
    text = page.content.decode()
    assert "Chris is withdrawn: not drawn or seated again; their money stays theirs." in text
    assert "withdrawn, after leaving table 1: ill" in text
    listing = organiser.get(f"/organiser/events/{w.event.pk}/players/").content.decode()
    assert '<tr class="withdrawn">' in listing and "badge-withdrawn" in listing
    again = organiser.post(url, {"form": "reinstate"}, follow=True)
    assert "Chris can be drawn and seated again." in again.content.decode()
    assert_audit_ok(w.event)


def test_a_club_is_given_at_registration_and_changed_on_the_player_s_page(
    organiser: Client, w: World
) -> None:
    players = f"/organiser/events/{w.event.pk}/players/"
    too_long = organiser.post(
        players, {"form": "register", "name": "Dee", "starting_money": "700", "group": "x" * 81}
    )
    assert too_long.status_code == 400
    assert "A club or group is at most 80 characters." in too_long.content.decode()
    organiser.post(
        players,
        {"form": "register", "name": "Dee", "starting_money": "700", "group": " Rovers\u00a0CC"},
    )
    dee = Player.objects.get(name="Dee")
    assert dee.group == "Rovers CC"
    page = organiser.get(players).content.decode()
    assert 'title="Rovers CC">Rovers CC</span>' in page
    url = f"/organiser/players/{dee.pk}/"
    done = organiser.post(url, {"form": "group", "group": "Harriers"}, follow=True).content.decode()
    assert "Dee is in “Harriers”" in done and "club or group set to “Harriers”" in done
    dee.refresh_from_db()
    assert dee.group == "Harriers"
    cleared = organiser.post(url, {"form": "group", "group": ""}, follow=True).content.decode()
    assert "Dee is in no club or group." in cleared and "club or group cleared" in cleared
    assert_audit_ok(w.event)


def test_a_players_link_is_shown_printed_and_replaced_after_asking(
    organiser: Client, w: World, settings: Any
) -> None:
    settings.BRAG_PUBLIC_BASE_URL = "https://brag-hall.example.org"
    andy = w.players[0]
    url = f"/organiser/players/{andy.pk}/link/"
    assert f'href="{url}"' in organiser.get(f"/organiser/players/{andy.pk}/").content.decode()
    page = organiser.get(url).content.decode()
    [old] = shown_links(page)
    assert "<svg" in page and "data-print" in page and 'id="ask-replace"' in page
    assert 'id="replace-form"' not in page  # asked first
    asked = organiser.get(url, {"ask": "replace"}).content.decode()
    assert 'id="replace-form"' in asked and "Yes, replace the link" in asked
    assert organiser.get(url, {"ask": "everything"}).status_code == 400
    assert Player.objects.get(pk=andy.pk).link_generation == 1  # asking changed nothing

    done = organiser.post(url, {}, follow=True)
    assert done.redirect_chain == [(url, 302)]
    text = done.content.decode()
    assert "Andy’s link is replaced" in text and "Replaced 1 time" in text
    [new] = shown_links(text)
    assert Client().get(old).status_code == 410
    assert Client().get(new).status_code == 200
    history = organiser.get(f"/organiser/players/{andy.pk}/").content.decode()
    assert "private link replaced" in history


def shown_links(page: str) -> list[str]:
    """The paths of the player links a page shows (at the public base URL), each checked to be
    a current link of a player."""
    found = re.findall(r'id="player-link">https://brag-hall\.example\.org(/p/[^/<]+/)<', page)
    for path in found:
        assert player_from_token(path.removeprefix("/p/").removesuffix("/")) is not None, path
    return found
