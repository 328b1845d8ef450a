"""A player's private link: signed, naming the player and its generation; replaced from the
console (``player_link_reissue``), after which every earlier link says it was replaced and the
new one opens the page. The links printed before links could be replaced keep working."""

from __future__ import annotations

import pytest
from django.core import signing

from brag_event.audit.models import AuditEntry, Verb
from brag_event.core.actors import Actor
from brag_event.organiser.audit_words import Names, audit_sentence
from brag_event.players.links import (
    SALT,
    player_from_token,
    player_link_holder,
    player_link_reissue,
    player_path,
    player_token,
)
from tests.factories import user_in, world

pytestmark = pytest.mark.django_db


def test_a_replaced_link_is_known_as_replaced_and_the_new_one_opens_the_page() -> None:
    w = world(2)
    andy, bill = w.players
    first = player_token(andy)
    organiser = Actor(user_in("organiser"), "web")
    renewed = player_link_reissue(player=andy, by=organiser)
    assert renewed.link_generation == 2
    andy.refresh_from_db()
    assert andy.link_generation == 2
    second = player_token(andy)
    assert second != first

    old = player_link_holder(first)
    assert old is not None and old.player == andy and old.replaced
    assert player_from_token(first) is None
    new = player_link_holder(second)
    assert new is not None and new.player == andy and not new.replaced
    assert player_from_token(second) == andy
    # Another player's link is untouched.
    assert player_from_token(player_token(bill)) == bill

    # Replaced again: both earlier links are replaced, only the newest opens the page.
    player_link_reissue(player=andy, by=organiser)
    andy.refresh_from_db()
    assert [player_from_token(t) for t in (first, second)] == [None, None]
    assert player_from_token(player_token(andy)) == andy
    assert player_path(andy) == f"/p/{player_token(andy)}/"


def test_the_replacement_is_in_the_audit_log_in_words() -> None:
    w = world(2)
    andy = w.players[0]
    organiser = user_in("organiser")
    player_link_reissue(player=andy, by=Actor(organiser, "web"))
    entry = AuditEntry.objects.get(verb=Verb.PLAYER_LINK_REISSUE)
    assert (entry.actor, entry.player, entry.event_id) == (organiser, andy, w.event.pk)
    assert entry.target == "Andy"
    sentence = audit_sentence(entry, Names([entry]))
    assert "link replaced" in sentence and "old link" in sentence
    assert "{" not in sentence and "generation" not in sentence


def test_the_links_printed_before_links_could_be_replaced_still_work() -> None:
    """Every link used to sign the player's id alone: it is the first generation's link."""
    andy = world(1).players[0]
    printed = signing.dumps(andy.pk, salt=SALT, compress=True)
    assert player_from_token(printed) == andy
    assert player_token(andy) == printed
    player_link_reissue(player=andy, by=None)
    holder = player_link_holder(printed)
    assert holder is not None and holder.replaced


@pytest.mark.parametrize(
    "payload",
    [[1, 0], [1, -1], [1, "2"], [True, 1], [1, 2, 3], "1", None, {"player": 1}, [1.0, 1]],
)
def test_a_signed_token_of_another_shape_opens_nothing(payload: object) -> None:
    andy = world(1).players[0]
    shaped = (
        [andy.pk if v == 1 and not isinstance(v, bool | float) else v for v in payload]
        if isinstance(payload, list)
        else payload
    )
    token = signing.dumps(shaped, salt=SALT, compress=True)
    assert player_link_holder(token) is None


def test_a_link_of_a_newer_generation_than_the_players_is_not_current() -> None:
    """A generation the player never had (a signed token made elsewhere with our key) is no
    current link either."""
    andy = world(1).players[0]
    token = signing.dumps([andy.pk, 5], salt=SALT, compress=True)
    holder = player_link_holder(token)
    assert holder is not None and holder.replaced
    assert player_from_token(token) is None
    assert player_link_holder(player_token(andy)[:-2] + "xx") is None
