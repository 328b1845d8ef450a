"""Who each player is, on the event's money record (``ledger.record``; docs/integrity.md).

A player's person decides whose results they are (a series ranks people over events) and who
may be entered again; so each player's registration is an entry, and so is each merge of two
people as it moved the event's entries::

    {"kind": "player", "seq": S, "player": id, "person": the person registered as}
    {"kind": "merge", "seq": S, "from": person removed, "into": person kept,
     "players": [the event's players moved], "by": user, "at": "…"}

The audit rebuilds both from their rows — the person a player was registered as is the one the
first merge moved them from, else their person now — then follows the merges in order: each
player's person must be where the record's merges took them, a person marked merged must have
been merged on the record (and keeps no entries), and each person merged away must be marked
merged into where the record's merges lead."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.utils import timezone

from brag_event.core.actors import Actor
from brag_event.events.models import Event
from brag_event.events.record import (
    RecordRow,
    RecordSource,
    at_text,
    entry,
    record_append,
    record_extend,
    record_for_change,
    record_stamp,
)

from .models import Person, PersonMerge, Player

PLAYER = "player"
MERGE = "merge"

MERGE_COLUMNS = ("removed_id", "kept_id", "players", "merged_by_id", "merged_at")


def player_fields(player_id: int, person_id: int) -> dict[str, Any]:
    return {"player": player_id, "person": person_id}


def merge_fields(row: dict[str, Any]) -> dict[str, Any]:
    return {
        "from": row["removed_id"],
        "into": row["kept_id"],
        "players": sorted(row["players"]),
        "by": row["merged_by_id"],
        "at": at_text(row["merged_at"]),
    }


# ------------------------------------------------------------------------------ the writers


def players_record(players: Iterable[Player], event_id: int) -> None:
    """Players just registered (one, or an import's thousands), on the record in one go: the
    record's row locked last, after the issuer's (their money is posted first)."""
    players = list(players)
    if not players:
        return
    stamps = record_extend(
        record_for_change(event_id),
        PLAYER,
        [player_fields(p.pk, p.person_id) for p in players],
    )
    record_stamp(
        Player,
        ("person_seq", "person_hash"),
        [(p.pk, seq, digest) for p, (seq, digest) in zip(players, stamps, strict=True)],
    )
    for p, (seq, digest) in zip(players, stamps, strict=True):
        p.person_seq, p.person_hash = seq, digest


def merge_record(
    *, kept: Person, removed: Person, moved: list[tuple[int, int]], by: Actor | None
) -> list[PersonMerge]:
    """A merge that has just moved ``moved`` (player, event) from ``removed`` to ``kept``: a row
    and an entry for each event touched, the events' records locked in the order of their ids
    (the only service that takes more than one)."""
    out = []
    events: dict[int, list[int]] = {}
    for player_id, event_id in moved:
        events.setdefault(event_id, []).append(player_id)
    now = timezone.now()
    for event_id in sorted(events):
        merge = PersonMerge.objects.create(
            kept=kept,
            removed=removed,
            event_id=event_id,
            players=sorted(events[event_id]),
            merged_by=by.user if by is not None and by.user_id else None,
            merged_at=now,
        )
        row = PersonMerge.objects.filter(pk=merge.pk).values(*MERGE_COLUMNS).get()
        merge.seq, merge.hash = record_append(record_for_change(event_id), MERGE, merge_fields(row))
        merge.save(update_fields=["seq", "hash"])
        out.append(merge)
    return out


# ---------------------------------------------------------------------------------- the audit


def _person(numbers: dict[int, int], pk: int | None) -> str:
    if pk is None:
        return "no one"
    return f"person {pk} (no. {numbers[pk]})" if pk in numbers else f"person {pk}"


def _identities(event: Event, problems: list[str]) -> Iterator[RecordRow]:
    merges = list(
        PersonMerge.objects.filter(event=event)
        .order_by("seq", "pk")
        .values("id", "seq", "hash", *MERGE_COLUMNS)
    )
    registered_as: dict[int, int] = {}
    for m in merges:
        for player in m["players"] if isinstance(m["players"], list) else []:
            registered_as.setdefault(player, m["removed_id"])
    # The people marked merged into the event's players' persons: who a player may have been
    # registered as, if their entry no longer matches (a merge forged behind the services).
    merged_in: dict[int, list[tuple[int, int]]] = {}
    numbers_into: dict[int, int] = {}
    for pk, number, into, into_number in Person.objects.filter(
        merged_into__in=Player.objects.filter(event=event).values("person_id")
    ).values_list("pk", "number", "merged_into_id", "merged_into__number"):
        merged_in.setdefault(into, []).append((pk, number))
        numbers_into[into] = into_number
    players: list[tuple[int, str, int, int | None]] = []
    rows = (
        Player.objects.filter(event=event)
        .order_by("pk")
        .values_list(
            "pk", "name", "person_id", "person__merged_into_id", "person_seq", "person_hash"
        )
    )
    for pk, name, person, merged_into, seq, digest in rows.iterator(2000):
        players.append((pk, name, person, merged_into))
        alternatives = tuple(
            (
                entry(PLAYER, seq, player_fields(pk, before)),
                f"player {pk} ({name}) is person {before} (no. {number}) on the record, but "
                f"belongs to person {person} (no. {numbers_into.get(person)}), into whom "
                f"person {before} is marked merged on no record: a merge forged behind the "
                "services",
            )
            for before, number in merged_in.get(person, [])
            if pk not in registered_as
        )
        yield RecordRow(
            seq,
            entry(PLAYER, seq, player_fields(pk, registered_as.get(pk, person))),
            digest,
            f"player {pk} ({name})",
            "the person they were registered as",
            unrecorded=f"player {pk} ({name}) is registered on no record: written behind the "
            "services",
            alternatives=alternatives,
        )
    for m in merges:
        yield RecordRow(
            m["seq"],
            entry(MERGE, m["seq"], merge_fields(m)),
            m["hash"],
            f"the merge of person {m['removed_id']} into person {m['kept_id']} (merge {m['id']})",
            "its people, players, who merged them or when",
        )
    problems += _followed(players, merges, registered_as)


def _followed(
    players: list[tuple[int, str, int, int | None]],
    merges: list[dict[str, Any]],
    registered_as: dict[int, int],
) -> list[str]:
    """Each player's person, and each person merged away, against where the record's merges
    lead (``_identities``): one query, for the people named."""
    names = {pk: name for pk, name, _p, _m in players}
    now = {pk: registered_as.get(pk, person) for pk, _n, person, _m in players}
    leads: dict[int, int] = {}
    found: list[tuple[str, Any]] = []
    for m in sorted(merges, key=lambda m: (m["seq"] is None, m["seq"] or 0)):
        for player in m["players"] if isinstance(m["players"], list) else []:
            if now.get(player) != m["removed_id"]:
                found.append(("moves", (m, player, now.get(player))))
            now[player] = m["kept_id"]
        leads[m["removed_id"]] = m["kept_id"]
    differ = {now[pk] for pk, _n, person, _m in players if now[pk] != person}
    marked_now = dict(
        Person.objects.filter(pk__in=differ, merged_into__isnull=False).values_list(
            "pk", "merged_into_id"
        )
    )
    for pk, name, person, merged_into in players:
        recorded = now[pk]
        if recorded != person:
            found.append(("person", (pk, name, person, recorded)))
        marked = merged_into if recorded == person else marked_now.get(recorded)
        if marked is not None and recorded not in leads:
            found.append(("marked", (pk, name, recorded, marked)))
    if not found and not leads:
        return []
    found += _merged_ends(leads)
    wanted: set[int] = set()
    for what, args in found:
        if what == "moves":
            wanted |= {args[0]["removed_id"], args[2] or 0}
        elif what == "merged":
            wanted |= {args[0], args[1], args[2] or 0}
        else:
            wanted |= {args[2], args[3] or 0}
    numbers = dict(Person.objects.filter(pk__in=wanted).values_list("pk", "number"))
    return [_followed_words(what, args, names, numbers) for what, args in found]


def _merged_ends(leads: dict[int, int]) -> list[tuple[str, Any]]:
    """Each person merged away whose mark is not where the record's merges end."""
    found: list[tuple[str, Any]] = []
    marked_into = dict(
        Person.objects.filter(pk__in=list(leads)).values_list("pk", "merged_into_id")
    )
    for removed in sorted(leads):
        end, seen = leads[removed], {removed}
        while end in leads and end not in seen:
            seen.add(end)
            end = leads[end]
        if marked_into.get(removed) != end:
            found.append(("merged", (removed, end, marked_into.get(removed))))
    return found


def _followed_words(what: str, args: Any, names: dict[int, str], numbers: dict[int, int]) -> str:
    """One problem ``_followed`` found, in words."""
    if what == "moves":
        m, player, had = args
        return (
            f"merge {m['id']} (entry {m['seq']}) moves player {player} "
            f"({names.get(player, 'not of this event')}) from "
            f"{_person(numbers, m['removed_id'])}, but the record had them as "
            f"{_person(numbers, had)}"
        )
    elif what == "person":
        pk, name, person, recorded = args
        return (
            f"player {pk} ({name}) belongs to {_person(numbers, person)}, but the record "
            f"has them as {_person(numbers, recorded)}: moved to another person behind the "
            "services"
        )
    elif what == "marked":
        pk, name, person, merged_into = args
        return (
            f"{_person(numbers, person)}, who the record has as player {pk} ({name}), is "
            f"marked merged into {_person(numbers, merged_into)} on no record: written "
            "behind the services"
        )
    else:
        removed, end, marked_into = args
        return (
            f"{_person(numbers, removed)} was merged into {_person(numbers, end)} on the "
            f"record, but is marked merged into {_person(numbers, marked_into)}"
        )


def identities_source() -> RecordSource:
    """Every player of an event and every merge that moved its players."""
    return RecordSource("players' identities", _identities)
