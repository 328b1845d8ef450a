"""A player sees their own hands after the day (issue 32): one selector
(``hands.selectors.cards_shown_to``) decides which cards, and neither the player's page nor the
API shows any other. Tested with hands ending by folds, by a see, by a see given up (with a
wrong entry voided first) and by a covered pot; every card that must stay unseen is looked for
in the page's HTML and in every API answer the player can read."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from brag_event.closing.services import day_close_request
from brag_event.events.models import Day
from brag_event.hands.models import Hand, HandAction
from brag_event.hands.selectors import cards_shown_to
from brag_event.players.links import player_path
from brag_event.players.models import Player
from brag_event.players.services import player_register
from brag_event.public.selectors import card_faces, player_hands
from tests.factories import World, signed_in, world
from tests.scenarios import CARDS, ends_by_a_concede, ends_by_a_cover, ends_by_a_see, ends_by_folds

pytestmark = pytest.mark.django_db

WRONG = "Qs Qd 5h"  # entered for Bill at the concede, then voided

# Each way a hand ends: how to play it, the world's buy-in, the seats whose cards are shown.
ENDINGS: dict[str, tuple[Callable[..., Hand], int, set[int]]] = {
    "folds": (ends_by_folds, 200, set()),
    "see": (ends_by_a_see, 200, {2, 3}),
    "concede": (ends_by_a_concede, 200, {3}),
    "cover": (ends_by_a_cover, 90, {2, 3}),
}


def played(ending: str) -> tuple[World, Hand, Player]:
    """The ending's hand at its own event, and a player of the event who was not dealt in."""
    play, buy_in, _shown = ENDINGS[ending]
    w = world(3, name=f"FLASH {ending}", buy_in=buy_in)
    away = player_register(event=w.event, name="Zed", starting_money=1000, by=None)
    return w, play(w), away


def close(w: World, commits: Any) -> None:
    with commits(execute=True):
        day_close_request(day=w.day, by=None)
    w.day.refresh_from_db()
    assert w.day.status == Day.Status.CLOSED


def every_card_entered(hand: Hand) -> set[str]:
    """Every card the record holds for the hand, voided entries included."""
    found: set[str] = set()
    for text in HandAction.objects.filter(hand=hand).values_list("cards", flat=True):
        found.update(text.split())
    return found


def forms(card: str) -> list[str]:
    """How a card can be written on a page or in an answer: "Qs" and "Q♠"."""
    (face,) = card_faces(card)
    return [card, face["rank"] + face["suit"]]


def revealed(text: str, card: str) -> bool:
    return any(re.search(rf"(?<![A-Za-z0-9]){re.escape(f)}(?![A-Za-z])", text) for f in forms(card))


def seen_by(client: Client, player: Player, hand: Hand) -> str:
    """Everything the player can read about their hands: their page and the API's answers."""
    bodies = [client.get(player_path(player)).content.decode()]
    for url in (
        "/api/v1/me/hands/",
        f"/api/v1/hands/{hand.pk}/",
        f"/api/v1/hands/{hand.pk}/history/",
    ):
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        bodies.append(json.dumps(response.json(), ensure_ascii=False))
    return "\n".join(bodies)


def signed_in_as(player: Player) -> Client:
    player.user = User.objects.create_user(f"p{player.pk}", password="x")
    player.save(update_fields=["user"])
    client = Client()
    client.force_login(player.user)
    return client


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_the_selector_shows_only_hands_shown_at_the_table_and_only_after_the_day(
    ending: str, django_capture_on_commit_callbacks: Any
) -> None:
    w, hand, away = played(ending)
    shown = ENDINGS[ending][2]
    assert hand.status == Hand.Status.SETTLED
    for p in w.players:  # during the day: nothing, to anyone
        assert cards_shown_to(p.pk, hand, day_closed=False) == {}
    close(w, django_capture_on_commit_callbacks)
    hand.refresh_from_db()
    for p in w.players:  # the folded Andy too: these hands were shown at his table
        assert cards_shown_to(p.pk, hand, day_closed=True) == {s: CARDS[s] for s in shown}
    assert cards_shown_to(away.pk, hand, day_closed=True) == {}  # not dealt in
    # The page's hands, as the selector says.
    bill = w.players[1]
    (row,) = player_hands(bill)
    assert row["day_closed"] and {s["seat"] for s in row["shown"]} == shown
    assert all(s["own"] == (s["seat"] == 2) for s in row["shown"])


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_no_page_or_answer_reveals_a_card_not_shown(
    ending: str, django_capture_on_commit_callbacks: Any
) -> None:
    w, hand, _away = played(ending)
    shown = ENDINGS[ending][2]
    entered = every_card_entered(hand)
    if ending == "concede":
        assert set(WRONG.split()) <= entered  # the voided entry is in the record
    clients = {p.pk: signed_in_as(p) for p in w.players}
    for p in w.players:  # during the day: no card at all
        text = seen_by(clients[p.pk], p, hand)
        assert not [c for c in entered if revealed(text, c)], (ending, p.name)
    close(w, django_capture_on_commit_callbacks)
    hand.refresh_from_db()
    allowed = {c for s in shown for c in CARDS[s].split()}
    for p in w.players:
        text = seen_by(clients[p.pk], p, hand)
        hidden = [c for c in entered - allowed if revealed(text, c)]
        assert not hidden, (ending, p.name, hidden)
        # What may be seen is there, on the page as faces.
        page = clients[p.pk].get(player_path(p)).content.decode()
        for seat in shown:
            for card in CARDS[seat].split():
                assert forms(card)[1] in page, (ending, p.name, card)
        if not shown:
            assert "No cards shown" in page


def test_staff_of_the_table_still_read_the_whole_hand() -> None:
    _w, hand, _away = played("concede")
    organiser = signed_in("organiser")
    body = json.dumps(organiser.get(f"/api/v1/hands/{hand.pk}/").json())
    assert all(revealed(body, c) for c in WRONG.split())  # the voided entry, for the record
