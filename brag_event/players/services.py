"""Registering players and issuing their starting money (a file of players: ``imports``)."""

from __future__ import annotations

from typing import Any, NoReturn

from django.db import IntegrityError, transaction
from django.db.models import Sum

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Event
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import account_issuer, account_player, transfer_post
from brag_event.tables import versions

from .models import Player
from .names import GROUP_MAX, NAME_MAX, player_group_clean, player_name_clean, player_name_key


def _check_money(amount: Any, *, what: str, field: str, minimum: int) -> int:
    """An amount a person entered: a whole number from ``minimum`` to the money bound."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < minimum:
        least = "not negative" if minimum == 0 else f"at least {minimum}"
        raise ServiceError(
            "invalid_amount",
            f"{what} must be a whole number, {least}.",
            details={"field": field},
        )
    if amount > MONEY_MAX:
        raise ServiceError(
            "amount_too_large",
            f"{what} must be at most {MONEY_MAX:,}.",
            details={"field": field, "max": MONEY_MAX},
        )
    return amount


def player_name_checked(name: str) -> str:
    """``name`` cleaned (``names.player_name_clean``), refused empty or over ``NAME_MAX``."""
    clean = player_name_clean(str(name))
    if not clean:
        raise ServiceError("invalid_name", "A player needs a name.", details={"field": "name"})
    if len(clean) > NAME_MAX:
        raise ServiceError(
            "invalid_name", f"A name is at most {NAME_MAX} characters.", details={"field": "name"}
        )
    return clean


def player_group_checked(group: str) -> str:
    """A club or group cleaned like a name ("" for none), refused over ``GROUP_MAX``."""
    clean = player_group_clean(str(group))
    if len(clean) > GROUP_MAX:
        raise ServiceError(
            "invalid_group",
            f"A club or group is at most {GROUP_MAX} characters.",
            details={"field": "group"},
        )
    return clean


def refuse_registered(existing: Player, clean: str) -> NoReturn:
    """Refuse a name that looks the same as ``existing``'s (a registered player of its event)."""
    same = "" if existing.name == clean else f" as “{existing.name}”"
    raise ServiceError(
        "player_exists",
        f"“{clean}” is already registered for {existing.event}{same}.",
        details={"field": "name", "player": existing.pk, "existing": existing.name},
    )


def registered_as(event: Event, clean: str) -> Player | None:
    """The player of ``event`` (not removed) whose name looks the same as ``clean``."""
    return Player.objects.filter(
        event=event, name_key=player_name_key(clean), removed_at__isnull=True
    ).first()


@service_transaction
def player_register(
    *,
    event: Event,
    name: str,
    starting_money: int | None = None,
    group: str = "",
    by: Actor | None,
) -> Player:
    """Register a player with ``starting_money`` issued to them — the event's starting money
    when it is ``None``; refused when the event has none set (never a silent 0). ``group``: the
    player's club or group, if any (the seating draw keeps a group's players apart)."""
    clean = player_name_checked(name)
    group = player_group_checked(group)
    if starting_money is None:
        starting_money = event.starting_money
        if starting_money is None:
            raise ServiceError(
                "no_starting_money",
                "Say how much money the player starts with: this event has no starting money set.",
                details={"field": "starting_money"},
            )
    _check_money(starting_money, what="Starting money", field="starting_money", minimum=0)
    existing = registered_as(event, clean)
    if existing is None:
        try:
            with transaction.atomic():
                player = Player.objects.create(event=event, name=clean, group=group)
        except IntegrityError:
            # Registered by someone else a moment ago, under a name that looks the same.
            existing = registered_as(event, clean)
            if existing is None:
                raise
    if existing is not None:
        refuse_registered(existing, clean)
    account_player(player)
    versions.event_changed(event.pk)
    if starting_money:
        player_issue_money(player=player, amount=starting_money, by=by, memo="starting money")
    audit_record(
        by=by,
        verb=Verb.PLAYER_REGISTER,
        subject=player,
        data={"money": starting_money, **({"group": group} if group else {})},
        event_id=event.pk,
    )
    player.refresh_from_db()
    return player


def event_money_issued(event: Event) -> int:
    """All the money issued in an event so far (less what was reversed)."""
    issuer = account_issuer(event)
    out = Transfer.objects.filter(source=issuer).aggregate(s=Sum("amount"))["s"] or 0
    back = Transfer.objects.filter(target=issuer).aggregate(s=Sum("amount"))["s"] or 0
    return int(out) - int(back)


@service_transaction
def player_issue_money(
    *, player: Player, amount: int, by: Actor | None, memo: str = ""
) -> Transfer:
    """Issue new money of the event to a player's balance. An event never issues more than the
    money bound in all (``MONEY_MAX``), so no balance or sum can outgrow its column."""
    _check_money(amount, what="The amount issued", field="amount", minimum=1)
    if player.removed_at is not None:
        raise ServiceError(
            "player_removed",
            f"{player} was removed as registered by mistake: no money is issued to them.",
            details={"field": "player"},
        )
    event = player.event
    # The issuer's row is locked so two issues at once cannot both pass the bound.
    issuer = Account.objects.select_for_update().get(pk=account_issuer(event).pk)
    issued = event_money_issued(event)
    if issued + amount > MONEY_MAX:
        raise ServiceError(
            "amount_too_large",
            f"{event} has issued {issued:,} in all; {amount:,} more would pass the limit of "
            f"{MONEY_MAX:,} an event may issue.",
            details={"field": "amount", "issued": issued, "max": MONEY_MAX},
        )
    transfer = transfer_post(
        kind=Transfer.Kind.ISSUE,
        source=issuer,
        target=account_player(player),
        amount=amount,
        by=by,
        memo=memo or "money issued",
    )
    versions.event_changed(player.event_id)
    audit_record(
        by=by,
        verb=Verb.PLAYER_ISSUE,
        subject=player,
        data={"amount": amount},
        event_id=player.event_id,
    )
    return transfer
