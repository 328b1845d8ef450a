"""The organiser's roster: finding a player by name, correcting a name and setting a player's club
or group (withdrawing a player is ``tables.withdraw``: it may take them off a table)."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Event
from brag_event.events.states import refuse_if_imported

from . import versions
from .models import Player
from .names import NAME_MAX, player_name_key
from .services import player_group_checked, player_name_checked, refuse_registered

SEARCH_MAX = 3 * NAME_MAX


def players_search(*, event: Event, text: str) -> QuerySet[Player]:
    """The event's players whose name contains ``text``, compared as names are (normalised and
    case-folded: "HARVEY" or "har\u200bvey" finds Harvey Price); everyone for an empty text."""
    found = Player.objects.filter(event=event)
    key = player_name_key(str(text)[:SEARCH_MAX])
    if key:
        found = found.filter(name_key__contains=key)
    return found.order_by("name", "pk")


@service_transaction
def player_rename(*, player: Player, name: str, by: Actor | None) -> Player:
    """Correct a player's name, checked as at registration: cleaned, at most ``NAME_MAX``
    characters, and no other player of the event with a name that looks the same."""
    clean = player_name_checked(name)
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    refuse_if_imported(player.event_id, "its players")
    before = player.name
    if clean == before:
        return player
    key = player_name_key(clean)
    other = Player.objects.filter(
        event_id=player.event_id, name_key=key, removed_at__isnull=True
    ).exclude(pk=player.pk)
    existing = other.first()
    if existing is None:
        player.name = clean
        try:
            with transaction.atomic():
                player.save(update_fields=["name"])
        except IntegrityError:
            existing = other.first()  # taken by someone else a moment ago
            if existing is None:
                raise
    if existing is not None:
        refuse_registered(existing, clean)
    # Tables, the tablets and the standings show the name.
    versions.event_changed(player.event_id, tables=True)
    audit_record(
        by=by,
        verb=Verb.PLAYER_RENAME,
        subject=player,
        target=clean,
        data={"player": player.pk, "before": before, "after": clean},
        event_id=player.event_id,
    )
    return player


@service_transaction
def player_regroup(*, player: Player, group: str, by: Actor | None) -> Player:
    """Set (or clear, with "") the player's club or group: later seating draws keep the
    group's players at different tables; tables drawn already are not changed."""
    clean = player_group_checked(group)
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    refuse_if_imported(player.event_id, "its players")
    before = player.group
    if clean == before:
        return player
    player.group = clean
    player.save(update_fields=["group"])
    audit_record(
        by=by,
        verb=Verb.PLAYER_UPDATE,
        subject=player,
        target=player.name,
        data={
            "player": player.pk,
            "changed": {"club_or_group": [before or "none", clean or "none"]},
        },
        event_id=player.event_id,
    )
    return player
