"""A player's own page is reached by a signed link (printed as a QR code on the table sheets):
whoever holds the link sees that player's seat, money and hands, and nobody can guess another."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from .models import Player

SALT = "brag_event.players.page"


def player_token(player: Player) -> str:
    return signing.dumps(player.pk, salt=SALT, compress=True)


def player_from_token(token: str) -> Player | None:
    try:
        pk = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(pk, int):
        return None
    return Player.objects.select_related("event").filter(pk=pk).first()


def player_path(player: Player) -> str:
    """The path of the player's page (``public:player``)."""
    return reverse("public:player", args=[player_token(player)])
