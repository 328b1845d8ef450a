"""People: someone who plays, registered once and entered into any number of events.

A ``Person`` holds what stays from one event to the next (name, membership number, club,
contact details seen by organisers only); each entry into an event is a ``Player``, which holds
that event's money, seats and results. Registration and the import find a returning person by
membership number, or by a name that looks the same (``names.name_key``) — the latter only with
the organiser's word that it is the same person (``person_matches`` says who it could be).
Duplicates are merged (``person_merge``): every entry moves to the person kept, and each event
whose entries moved has the merge on its money record (``players.record``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, NotFound, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Event

from . import versions
from .models import CLUB_MAX, Person, Player, person_number_next
from .names import GROUP_TOO_LONG, NAME_MAX, NAME_TOO_LONG, name_key, player_name_clean
from .record import merge_record

NUMBER_MAX = 99_999_999
NUMBER_TRIES = 5  # draws of an automatic number when another registration took the same


def person_described(person: Person) -> str:
    """How an organiser is told who a person is: "Priya Shah (no. 1042, Leeds Club)"."""
    club = f", {person.club}" if person.club else ""
    return f"{person.name} (no. {person.number}{club})"


def person_by_number(number: int) -> Person | None:
    """The person with membership number ``number`` — the one a merged duplicate went into,
    if it was merged."""
    found = Person.objects.filter(number=number).first()
    seen = 0
    while found is not None and found.merged_into_id is not None and seen < 100:
        found = Person.objects.get(pk=found.merged_into_id)
        seen += 1
    return found


def person_matches(*, name: str, event: Event | None = None) -> list[Person]:
    """The people (not merged away) whose name looks the same as ``name``, who are not entered
    in ``event`` yet: the returning people a registration of ``name`` could be. A person whose
    every entry was removed as registered by mistake is not one."""
    found = Person.objects.filter(
        name_key=name_key(name),
        merged_into__isnull=True,
        entries__removed_at__isnull=True,
    ).distinct()
    if event is not None:
        entered = Player.objects.filter(event=event, removed_at__isnull=True)
        found = found.exclude(pk__in=entered.values("person_id"))
    return list(found.order_by("number"))


def club_checked(club: Any) -> str:
    text = " ".join(str(club or "").split())
    if len(text) > CLUB_MAX:
        raise ServiceError(
            "invalid_club",
            GROUP_TOO_LONG,  # a person's club becomes their entries' group: one limit
            details={"field": "club"},
        )
    return text


def number_checked(number: Any) -> int:
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= NUMBER_MAX:
        raise ServiceError(
            "invalid_number",
            f"A membership number is a whole number from 1 to {NUMBER_MAX:,}.",
            details={"field": "number"},
        )
    return number


def person_create(
    *, name: str, number: int | None = None, club: str = "", email: str = "", phone: str = ""
) -> Person:
    """A new person (inside the caller's transaction); ``number`` drawn when not given,
    refused when it is taken."""
    if number is not None:
        number_checked(number)
        holder = Person.objects.filter(number=number).first()
        if holder is not None:
            raise ServiceError(
                "number_taken",
                f"Membership number {number} belongs to {holder.name}"
                f"{f' ({holder.club})' if holder.club else ''}: leave it empty to give a new one.",
                details={"field": "number", "person": holder.pk},
            )
    for attempt in range(NUMBER_TRIES):
        given = number if number is not None else person_number_next()
        try:
            with transaction.atomic():
                return Person.objects.create(
                    name=name, number=given, club=club, email=email, phone=phone
                )
        except IntegrityError:
            if number is not None or attempt == NUMBER_TRIES - 1:
                raise Conflict(
                    "number_taken",
                    f"Membership number {given} was given to someone else a moment ago: try again.",
                    details={"field": "number"},
                ) from None
    raise AssertionError("unreachable")  # pragma: no cover


@service_transaction
def person_update(
    *,
    person: Person,
    name: str | None = None,
    club: str | None = None,
    email: str | None = None,
    phone: str | None = None,
    by: Actor | None,
) -> Person:
    """Correct what is kept of a person (the names of their entries stay as each event
    registered them)."""
    person = Person.objects.select_for_update().get(pk=person.pk)
    before = {"name": person.name, "club": person.club}
    if name is not None:
        clean = player_name_clean(str(name))
        if not clean or len(clean) > NAME_MAX:
            raise ServiceError(
                "invalid_name",
                NAME_TOO_LONG if clean else "A person needs a name.",
                details={"field": "name"},
            )
        person.name = clean
    if club is not None:
        person.club = club_checked(club)
    if email is not None:
        person.email = str(email).strip()[:254]
    if phone is not None:
        person.phone = " ".join(str(phone).split())[:40]
    person.save()
    audit_record(
        by=by,
        verb=Verb.PERSON_UPDATE,
        target=str(person),
        # Contact details are not copied into the log: the log is read by more people.
        data={
            "person": person.pk,
            "before": before,
            "after": {"name": person.name, "club": person.club},
        },
    )
    return person


def _entries(person: Person) -> QuerySet[Player]:
    return Player.objects.filter(person=person, removed_at__isnull=True)


@service_transaction
def person_merge(*, keep: Person, remove: Person, by: Actor | None) -> Person:
    """Merge the duplicate ``remove`` into ``keep``: every entry of ``remove`` (its events,
    money, seats and results, which belong to the entries) moves to ``keep``; ``remove`` stays,
    marked merged, so its number still finds ``keep``. Refused when both are entered in the
    same event (two entries of one person in one event cannot be one)."""
    if keep.pk == remove.pk:
        raise ServiceError("merge_same", "Choose two different people to merge.")
    # Both rows locked, lower id first (the domain's lock order: docs/domain.md).
    locked = {
        p.pk: p
        for p in Person.objects.select_for_update()
        .filter(pk__in=[keep.pk, remove.pk])
        .order_by("pk")
    }
    if len(locked) != 2:
        raise NotFound("person_not_found", "That person is not registered.")
    keep, remove = locked[keep.pk], locked[remove.pk]
    for p in (keep, remove):
        if p.merged_into_id is not None:
            raise Conflict(
                "person_merged",
                f"{person_described(p)} was merged into another person already.",
            )
    both = sorted(
        set(_entries(keep).values_list("event__name", flat=True))
        & set(_entries(remove).values_list("event__name", flat=True))
    )
    if both:
        raise Conflict(
            "merge_same_event",
            f"{person_described(keep)} and {person_described(remove)} are both entered in "
            f"{', '.join(both)}: two players of one event cannot be one person. If they are the "
            "same person, remove the entry registered by mistake first.",
            details={"events": both},
        )
    moved = list(Player.objects.filter(person=remove).values_list("pk", "event_id"))
    Player.objects.filter(person=remove).update(person=keep)
    Person.objects.filter(merged_into=remove).update(merged_into=keep)
    if not keep.club and remove.club:
        keep.club = remove.club
    if not keep.email and remove.email:
        keep.email = remove.email
    if not keep.phone and remove.phone:
        keep.phone = remove.phone
    keep.save(update_fields=["club", "email", "phone"])
    remove.merged_into = keep
    remove.save(update_fields=["merged_into"])
    # Each event whose entries moved has the merge on its money record (locked last).
    merge_record(kept=keep, removed=remove, moved=moved, by=by)
    audit_record(
        by=by,
        verb=Verb.PERSON_MERGE,
        target=str(keep),
        data={
            "kept": keep.pk,
            "kept_number": keep.number,
            "removed": remove.pk,
            "removed_number": remove.number,
            "removed_name": remove.name,
            "entries": [pk for pk, _event in moved],
        },
    )
    for event_id in sorted({event_id for _pk, event_id in moved}):
        versions.event_changed(event_id)
    return keep


def people_search(*, text: str) -> QuerySet[Person]:
    """People (not merged away) whose name contains ``text`` compared as names are, or whose
    membership number is ``text``. Not those whose every entry was removed as registered by
    mistake (an undone import's people: their rows stay, for the entries and the money record
    that name them, but they are nobody's to find); a person never entered is listed."""
    found = (
        Person.objects.filter(merged_into__isnull=True)
        .annotate(
            entered=Count("entries"),
            live=Count("entries", filter=Q(entries__removed_at__isnull=True)),
        )
        .exclude(entered__gt=0, live=0)
    )
    text = str(text).strip()
    if text.isascii() and text.isdigit() and len(text) <= 9:  # "²" is a digit, not a number
        return found.filter(number=int(text))
    key = name_key(text[:240])
    if key:
        found = found.filter(name_key__contains=key)
    return found.order_by("name", "number")


def people_entered(ids: Iterable[int]) -> dict[int, list[int]]:
    """person id → the events (ids) they are entered in."""
    out: dict[int, list[int]] = {}
    for person, event in Player.objects.filter(
        person_id__in=list(ids), removed_at__isnull=True
    ).values_list("person_id", "event_id"):
        out.setdefault(person, []).append(event)
    return out
