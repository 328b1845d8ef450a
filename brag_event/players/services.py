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
from brag_event.events.states import refuse_if_imported
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import account_issuer, account_player, transfer_post

from . import versions
from .models import Person, Player
from .names import (
    GROUP_MAX,
    GROUP_TOO_LONG,
    NAME_MAX,
    NAME_TOO_LONG,
    name_key,
    player_group_clean,
    player_name_clean,
)
from .people import club_checked, person_by_number, person_create, person_described, person_matches
from .record import players_record


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
        raise ServiceError("invalid_name", NAME_TOO_LONG, details={"field": "name"})
    return clean


def player_group_checked(group: str) -> str:
    """A club or group cleaned like a name ("" for none), refused over ``GROUP_MAX``."""
    clean = player_group_clean(str(group))
    if len(clean) > GROUP_MAX:
        raise ServiceError("invalid_group", GROUP_TOO_LONG, details={"field": "group"})
    return clean


def refuse_registered(existing: Player, clean: str, *, confirmable: bool = False) -> NoReturn:
    """Refuse a name that looks the same as ``existing``'s (a registered player of its event);
    ``confirmable``: saying the organiser may confirm two different people."""
    more = " If they are two different people, confirm it." if confirmable else ""
    raise ServiceError(
        "player_exists",
        f"“{clean}” looks the same as {existing.name}, already registered for "
        f"{existing.event}.{more}",
        details={"field": "name", "player": existing.pk, "existing": existing.name},
    )


def registered_as(event: Event, clean: str) -> Player | None:
    """The player of ``event`` (not removed) whose name looks the same as ``clean``."""
    return (
        Player.objects.filter(event=event, name_key=name_key(clean), removed_at__isnull=True)
        .order_by("pk")
        .first()
    )


def _refuse_matches(matches: list[Person], clean: str) -> NoReturn:
    shown = "; ".join(person_described(p) for p in matches[:3])
    more = f" and {len(matches) - 3} more" if len(matches) > 3 else ""
    raise ServiceError(
        "person_matches",
        f"“{clean}” matches {shown}{more}: the same person? Choose them, or say it is someone new.",
        details={"field": "person", "people": [p.pk for p in matches]},
    )


def _person_for(
    *,
    event: Event,
    clean: str,
    person: Person | None,
    number: int | None,
    ask_returning: bool,
) -> Person | None:
    """The returning person the registration names (by ``person``, or ``number``), ``None``
    for someone new — refused when people of a look-alike name are registered and the
    organiser has not said which (with ``ask_returning``)."""
    if person is None and number is not None:
        person = person_by_number(number)
        if person is not None and person.name_key != name_key(clean):
            raise ServiceError(
                "number_taken",
                f"Membership number {number} belongs to {person.name}"
                f"{f' ({person.club})' if person.club else ''}, not to “{clean}”.",
                details={"field": "number", "person": person.pk},
            )
    if person is not None:
        if person.merged_into_id is not None:
            person = person_by_number(person.number)
        assert person is not None
        entered = Player.objects.filter(event=event, person=person, removed_at__isnull=True).first()
        if entered is not None:
            raise ServiceError(
                "person_entered",
                f"{person_described(person)} is already entered in {event} as {entered.name}.",
                details={"field": "person", "player": entered.pk},
            )
        return person
    if ask_returning:
        matches = person_matches(name=clean, event=event)
        if matches:
            _refuse_matches(matches, clean)
    return None


@service_transaction
def player_register(
    *,
    event: Event,
    name: str,
    starting_money: int | None = None,
    group: str = "",
    person: Person | None = None,
    number: int | None = None,
    club: str = "",
    ask_returning: bool = False,
    look_alike_confirmed: bool = False,
    by: Actor | None,
) -> Player:
    """Enter a person into ``event`` with ``starting_money`` issued to them — the event's
    starting money when it is ``None``; refused when the event has none set (never a silent 0).

    Who: ``person``, or the person with membership number ``number``; else someone new,
    registered with ``number`` (drawn when not given) and ``club`` (or, when no club is said,
    ``group``). With ``ask_returning`` (the console and the API ask first), a name that looks
    the same as registered people's is refused (``person_matches``, naming them) until the
    organiser chooses one (``person``) or says it is someone new (``ask_returning`` off). A
    name that looks the same as a player's of the event is refused (``player_exists``) unless
    the organiser confirms two different people (``look_alike_confirmed``), which the audit
    log records.

    ``group``: the player's club or group in this event (the seating draw keeps a group's
    players apart); when none is given, the person's club (docs/people.md)."""
    refuse_if_imported(event, "its players")
    clean = player_name_checked(name)
    group = player_group_checked(group)
    club = club_checked(club)
    if starting_money is None:
        starting_money = event.starting_money
        if starting_money is None:
            raise ServiceError(
                "no_starting_money",
                "Say how much money the player starts with: this event has no starting money set.",
                details={"field": "starting_money"},
            )
    _check_money(starting_money, what="Starting money", field="starting_money", minimum=0)
    # Who it is first: a returning person entered already is refused as such.
    returning = _person_for(
        event=event,
        clean=clean,
        person=person,
        number=number,
        ask_returning=ask_returning,
    )
    existing = registered_as(event, clean)
    if existing is not None and not look_alike_confirmed:
        refuse_registered(existing, clean, confirmable=True)
    confirmed = existing is not None
    who = returning or person_create(name=clean, number=number, club=club or group)
    # An entry's group is the person's club unless this registration says another.
    group = group or player_group_clean(who.club)
    try:
        with transaction.atomic():
            player = Player.objects.create(
                event=event,
                name=clean,
                person=who,
                group=group,
                look_alike_confirmed=confirmed,
            )
    except IntegrityError:
        # Registered by someone else a moment ago, under a name that looks the same.
        existing = registered_as(event, clean)
        if existing is None:
            raise
        refuse_registered(existing, clean, confirmable=True)
    account_player(player)
    versions.event_changed(event.pk)
    if starting_money:
        player_issue_money(player=player, amount=starting_money, by=by, memo="starting money")
    # Who the player is, on the money record: after the money (the issuer's row, then the
    # record's, as every issue locks them).
    players_record([player], event.pk)
    data: dict[str, Any] = {"money": starting_money, "person": who.pk, "number": who.number}
    if group:
        data["group"] = group
    if returning is not None:
        data["returning"] = True
    audit_record(
        by=by,
        verb=Verb.PLAYER_REGISTER,
        subject=player,
        data=data,
        event_id=event.pk,
    )
    if existing is not None:
        audit_record(
            by=by,
            verb=Verb.PLAYER_LOOK_ALIKE,
            subject=player,
            data={
                "player": player.pk,
                "name": player.name,
                "number": who.number,
                "looks_like": existing.pk,
                "looks_like_name": existing.name,
                "looks_like_number": existing.person.number,
            },
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
    refuse_if_imported(player.event_id, "its money")
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
