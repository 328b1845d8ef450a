"""A player's own page is reached by a signed link (printed as a QR code on the table sheets):
whoever holds the link sees that player's seat, money and hands, and nobody can guess another.

A link names the player and its generation (``Player.link_generation``). An organiser who
learns that a link went astray replaces it from the console (``player_link_reissue``): the
generation goes up, the new link is shown and printed, and every earlier link answers that it
was replaced. The first generation's links carry the player's id alone, as every link did before
links could be replaced, so the sheets already printed keep working until a link is replaced."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.urls import reverse

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.transactions import service_transaction

from .models import Player

SALT = "brag_event.players.page"


def player_token(player: Player) -> str:
    """The signed token of the player's current link."""
    generation = player.link_generation
    payload: int | list[int] = player.pk if generation == 1 else [player.pk, generation]
    return signing.dumps(payload, salt=SALT, compress=True)


@dataclass(frozen=True)
class LinkHolder:
    """Whose link a token is, and whether a newer link has replaced it."""

    player: Player
    replaced: bool


def _is_id(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


def player_link_holder(token: str) -> LinkHolder | None:
    """The player a signed token names (current or replaced); ``None`` for a token that is not
    one of ours (tampered, made up) or whose player no longer exists."""
    try:
        payload = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if _is_id(payload):
        pk, generation = payload, 1
    elif isinstance(payload, list) and len(payload) == 2 and all(_is_id(v) for v in payload):
        pk, generation = payload
    else:
        return None
    player = Player.objects.select_related("event").filter(pk=pk).first()
    if player is None:
        return None
    return LinkHolder(player=player, replaced=generation != player.link_generation)


def player_from_token(token: str) -> Player | None:
    """The player whose *current* link the token is; ``None`` otherwise (replaced, or not ours)."""
    holder = player_link_holder(token)
    return holder.player if holder is not None and not holder.replaced else None


def player_path(player: Player) -> str:
    """The path of the player's page (``public:player``), by their current link."""
    return reverse("public:player", args=[player_token(player)])


@service_transaction
def player_link_reissue(*, player: Player, by: Actor | None) -> Player:
    """Replace the player's private link: a new link (and QR code) opens their page, and every
    earlier one answers that it was replaced. Recorded in the audit log."""
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    before = player.link_generation
    player.link_generation = before + 1
    player.save(update_fields=["link_generation"])
    audit_record(
        by=by,
        verb=Verb.PLAYER_LINK_REISSUE,
        subject=player,
        target=player.name,
        data={"player": player.pk, "replaced": before, "link": player.link_generation},
        event_id=player.event_id,
    )
    return player
