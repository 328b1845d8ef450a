"""Importing a results exchange document as a past event (docs/results-exchange.md).

``event_import_results`` reads the document (``reader``: leniently, every refusal in words),
checks it against this installation — the event not here already, its name free, each person
found by membership number under a name that looks the same, or new — and then makes, in one
transaction, the past event: its days closed with their rules, results, field and published
roots, its players (each a ``Player`` of a ``Person``), the floor's rulings and penalties. A
refusal leaves everything as it was.

**A past event** (``Event.imported_at``): every day closed, so nothing can be played on it;
its players, money, penalties and announcements cannot change (``events.states
.refuse_if_imported``); its standings are its days' results as the file gave them
(``standings.selectors.standings``), since no money moved here; the ledger audit does not
recompute its roots, whose records stayed where it was played (``hands.audit``). It shows on
its people's pages and counts in a series as any finished event."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.closing.standings import standings_seal
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Day, DayClose, Event
from brag_event.events.record import record_append
from brag_event.events.services import event_name_checked
from brag_event.floor import record as floor_record
from brag_event.floor.models import Penalty, Ruling
from brag_event.ledger.record import record_for_change
from brag_event.players.models import (
    Person,
    Player,
    Qualification,
    StandingSnapshot,
    person_number_next,
)
from brag_event.players.names import name_key
from brag_event.players.record import players_record

from .reader import DocumentIn, PersonIn, document_parse, document_read

# A file the console takes: 2,000 players over three days is 2.2 MB indented (docs).
MAX_BYTES = 4 * 1024 * 1024


@dataclass
class ImportedEvent:
    """What an import made: the event, and its people new here and found here (numbers)."""

    event: Event
    people_new: list[int] = field(default_factory=list)
    people_known: list[int] = field(default_factory=list)
    # The file's number → the number given here, for new people whose number was someone
    # else's here (numbers are each installation's labels).
    renumbered: dict[int, int] = field(default_factory=dict)

    @property
    def summary(self) -> str:
        days = self.event.days.count()
        players = len(self.people_new) + len(self.people_known)
        said = (
            f"{self.event.name} imported as a past event: {days} day{'s' if days != 1 else ''}, "
            f"{players} player{'s' if players != 1 else ''} ({len(self.people_known)} already "
            f"registered here, {len(self.people_new)} new)."
        )
        if self.renumbered:
            pairs = list(self.renumbered.items())
            shown = ", ".join(f"{a} is now {b}" for a, b in pairs[:5])
            more = f" and {len(pairs) - 5} more" if len(pairs) > 5 else ""
            count = len(pairs)
            said += (
                f" {count} new {'person' if count == 1 else 'people'} had a membership number "
                "that is someone else's here, so "
                f"{'they have a new one' if count == 1 else 'each has a new one'}: {shown}{more}."
            )
        return said


def document_from_file(data: bytes) -> Any:
    """The JSON document of an uploaded file, or ``exchange_too_large`` / ``exchange_not_json``."""
    if len(data) > MAX_BYTES:
        raise ServiceError(
            "exchange_too_large",
            f"The file is larger than {MAX_BYTES // (1024 * 1024)} MB: a results file of an "
            "event is far smaller. Choose the .json file exported by the other installation.",
            details={"at": ""},
        )
    return document_parse(data)


@service_transaction
def event_import_results(*, document: Any, by: Actor | None, file_name: str = "") -> ImportedEvent:
    """Make the past event that ``document`` (a results exchange document, parsed from JSON)
    describes, with its days, results, people and penalties; or refuse, changing nothing."""
    found = document_read(document)
    _refuse_if_here(found)
    people_found = _people_for(found.people)
    people = people_found.here
    renumbered = people_found.renumbered
    now = timezone.now()
    event = Event.objects.create(
        uid=found.event.uid,
        name=found.event.name,
        currency=found.event.currency,
        time_zone=found.event.time_zone,
        starting_money=found.event.starting_money,
        count_at_close=False,
        imported_at=now,
        imported_from=found.event.source,
    )
    result = ImportedEvent(event)
    try:
        with transaction.atomic():
            new = [p for p in found.people if people.get(p.number) is None]
            keys = {p.number: name_key(p.name) for p in found.people}  # once a person
            made = [
                Person(
                    name=p.name,
                    name_key=keys[p.number],
                    number=renumbered.get(p.number, p.number),
                    club=p.club,
                    **({"uid": p.uid} if p.uid is not None else {}),
                )
                for p in new
            ]
            Person.objects.bulk_create(made, batch_size=BATCH)
    except IntegrityError:  # a number given here since the check above
        raise Conflict(
            "exchange_number_taken",
            "A membership number of the file was given to someone here a moment ago: import "
            "the file again.",
        ) from None
    if any(x.pk is None for x in made):  # a database that returns no ids from bulk inserts
        numbers = [x.number for x in made]
        ids = {
            n: pk
            for chunk in _chunks(numbers)
            for n, pk in Person.objects.filter(number__in=chunk).values_list("number", "pk")
        }
        for x in made:
            x.pk = ids[x.number]
    for p, x in zip(new, made, strict=True):
        people[p.number] = x
    result.people_new = sorted(p.number for p in new)
    result.people_known = sorted({p.number for p in found.people} - set(result.people_new))
    result.renumbered = dict(sorted(renumbered.items()))
    players = _players(event, found.people, people, keys, now)
    days = _days(event, found, players, now)
    # Each day's results and field, as the file gave them, sealed on the event's money record
    # (its own chains stayed where it was played): the audit then names any later change.
    for number in sorted(days):
        day = days[number]
        standings_seal(day=day, close=DayClose.objects.get(day=day), field=True)
    _rulings(event, found, players, days)
    audit_record(
        by=by,
        verb=Verb.EVENT_IMPORT,
        subject=event,
        data={
            "file": file_name[:200],
            "source": found.event.source,
            "uid": str(found.event.uid),
            "days": len(found.days),
            "people_new": result.people_new,
            "people_known": result.people_known,
            **({"renumbered": result.renumbered} if result.renumbered else {}),
        },
        event_id=event.pk,
    )
    return result


def _refuse_if_here(found: DocumentIn) -> None:
    here = Event.objects.filter(uid=found.event.uid).first()
    if here is not None:
        if here.imported_at is not None:
            when = timezone.localtime(here.imported_at).strftime("%d %b %Y")
            words = f"was imported here already, on {when}"
        else:
            words = "is this installation's own event (the file was written here)"
        raise Conflict(
            "exchange_event_here",
            f"{here.name} {words}: importing it again would count its results twice.",
            details={"event": here.pk},
        )
    try:
        event_name_checked(found.event.name)  # the name, or one that looks the same
    except ServiceError as err:
        other = str(err.details.get("other", found.event.name))
        alike = "" if other == found.event.name else f" (“{found.event.name}” looks the same)"
        raise Conflict(
            "exchange_event_name_taken",
            f"An event called “{other}” is here already{alike}, and it is another event. "
            "Rename one of them (the event's set-up page here, or the file's event name), "
            "then import again.",
            details={"at": "/event/name"},
        ) from None


BATCH = 2000  # rows of one INSERT: 2,000 players' 15 columns are well inside PostgreSQL's
# 65,535 parameters (Django makes SQLite's batches smaller itself)


def _chunks(values: list[Any]) -> Any:
    """``values`` in lists that fit one IN (…): SQLite takes 999 parameters a statement (or
    more, as its build says), PostgreSQL 65,535 — a file's 30,000 people in one statement."""
    size = min(int(connection.features.max_query_params or 20_000), 20_000) - 10
    for at in range(0, len(values), size):
        yield values[at : at + size]


def _kept(found: list[Person]) -> dict[int, Person]:
    """person id → the person kept for it (itself, or the one a merged duplicate went into:
    a merge points every duplicate at the person kept, so one step)."""
    merged = sorted({p.merged_into_id for p in found if p.merged_into_id is not None})
    into = {k.pk: k for ids in _chunks(merged) for k in Person.objects.filter(pk__in=ids)}
    return {p.pk: into[p.merged_into_id] if p.merged_into_id is not None else p for p in found}


@dataclass
class PeopleFound:
    """The file's people here: by the file's number, the person here (None: someone new), and
    the new people whose number is someone else's here, each with the number given instead."""

    here: dict[int, Person | None]
    renumbered: dict[int, int]


def _held_here(
    listed: list[PersonIn],
) -> tuple[dict[Any, Person], dict[int, Person | None], dict[int, Person]]:
    """The people here of the file's uids (as kept after a merge); the numbers held here, with
    their person for a file's person without a uid; and each of those as kept after a merge."""
    uids = [p.uid for p in listed if p.uid is not None]
    by_uid_found = [x for ids in _chunks(uids) for x in Person.objects.filter(uid__in=ids)]
    kept = _kept(by_uid_found)
    by_uid = {x.uid: kept[x.pk] for x in by_uid_found}
    # The numbers held here: whole people only for those of a file without uids (who are
    # found by number), just the numbers for the rest (a new person's may be taken).
    numbers = sorted({p.number for p in listed if p.uid is None})
    by_number_found = [x for ids in _chunks(numbers) for x in Person.objects.filter(number__in=ids)]
    kept_n = _kept(by_number_found)
    by_number: dict[int, Person | None] = {x.number: x for x in by_number_found}
    with_uid = sorted({p.number for p in listed if p.uid is not None and p.uid not in by_uid})
    for ids in _chunks(with_uid):
        for n in Person.objects.filter(number__in=ids).values_list("number", flat=True):
            by_number.setdefault(n, None)
    return by_uid, by_number, kept_n


def _found(
    listed_person: PersonIn,
    by_uid: dict[Any, Person],
    by_number: dict[int, Person | None],
    kept_n: dict[int, Person],
    renumbered: dict[int, int],
    unmatched: list[tuple[PersonIn, Person]],
) -> Person | None:
    """The person here of one of the file's people (by uid, else by number); a new person
    whose number is taken here goes in ``renumbered``, one found by number in ``unmatched``
    (their names are compared after)."""
    if listed_person.uid is not None:
        person = by_uid.get(listed_person.uid)
        if person is None and listed_person.number in by_number:
            renumbered[listed_person.number] = 0  # given below
        return person
    holder = by_number.get(listed_person.number)
    if holder is None:
        return None
    unmatched.append((listed_person, holder))
    return kept_n[holder.pk]


def _people_for(listed: list[PersonIn]) -> PeopleFound:
    """Who each of the file's people is here (docs/people.md, "Across installations"):

    * a person with a ``uid`` is the person here of that uid (the one a merged duplicate went
      into) whatever their number, or someone new — numbers are labels of the installation
      that wrote the file, so a new person whose number is someone else's here is given the
      next free number;
    * a person without one (a file written before uids) is found by membership number under a
      name that looks the same; a number held here by someone of another name is refused,
      saying both ways out.

    In a few statements however many people there are (a file of 30,000 imports in seconds)."""
    by_uid, by_number, kept_n = _held_here(listed)
    out: dict[int, Person | None] = {}
    renumbered: dict[int, int] = {}
    whose: dict[int, int] = {}  # person id → the number of the file's that found them
    unmatched: list[tuple[PersonIn, Person]] = []
    for listed_person in listed:
        person = _found(listed_person, by_uid, by_number, kept_n, renumbered, unmatched)
        out[listed_person.number] = person
        if person is None:
            continue
        if person.pk in whose:
            raise Conflict(
                "exchange_same_person",
                f"Membership numbers {whose[person.pk]} and {listed_person.number} are one "
                f"person here ({person.name}, merged): the file has them as two people of the "
                "event. Correct the file, then import again.",
                details={"numbers": [whose[person.pk], listed_person.number]},
            )
        whose[person.pk] = listed_person.number
    if unmatched:
        _refuse_other_names(unmatched, kept_n)
    if renumbered:
        _renumber(renumbered, out, len(listed))
    return PeopleFound(out, renumbered)


def _renumber(renumbered: dict[int, int], out: dict[int, Person | None], count: int) -> None:
    """The next free numbers for the new people whose number is someone else's here."""
    kept_numbers = {n for n, p in out.items() if p is None and n not in renumbered}
    first = person_number_next()
    fresh = (n for n in range(first, first + 2 * count + 1) if n not in kept_numbers)
    for number in sorted(renumbered):
        renumbered[number] = next(fresh)


def _refuse_other_names(pairs: list[tuple[PersonIn, Person]], kept: dict[int, Person]) -> None:
    """A file without uids: each number found here must be a person of a name that looks the
    same (as numbered, as kept after a merge, or as an event registered them)."""
    ids = sorted({kept[h.pk].pk for _p, h in pairs})
    entered: dict[int, set[str]] = {}
    for chunk in _chunks(ids):
        for pk, name in Player.objects.filter(person_id__in=chunk).values_list("person_id", "name"):
            entered.setdefault(pk, set()).add(name_key(name))
    for listed_person, holder in pairs:
        person = kept[holder.pk]
        keys = {holder.name_key, person.name_key, *entered.get(person.pk, set())}
        if name_key(listed_person.name) not in keys:
            raise Conflict(
                "exchange_name_mismatch",
                f"Membership number {listed_person.number} is {person.name} here, but the file "
                f"names them {listed_person.name}. If they are two people, the file was written "
                "where people are numbered on their own and before files said who each person "
                "is: export it again there (a file written now carries each person's identity, "
                "and a number taken here is given a new one). If they are one person, correct "
                "the name here (their person's page) or in the file. Then import again.",
                details={"number": listed_person.number, "here": person.name},
            )


def _players(
    event: Event,
    listed: list[PersonIn],
    people: dict[int, Person | None],
    keys: dict[int, str],
    now: Any,
) -> dict[int, Player]:
    """The event's players, one per person of the file: a second name that looks the same as
    another's of the event is told apart by its number, as the organiser confirmed there."""
    seen: set[str] = set()
    made: list[Player] = []
    for p in listed:
        person = people[p.number]
        assert person is not None  # found or made by now
        key = keys[p.number]
        made.append(
            Player(
                event=event,
                person=person,
                name=p.name,  # cleaned by the reader, as Player.save would (bulk_create does not)
                name_key=key,
                group=p.group,
                look_alike_confirmed=key in seen,
                withdrawn_at=now if p.withdrawn else None,
            )
        )
        seen.add(key)
    Player.objects.bulk_create(made, batch_size=BATCH)
    if any(x.pk is None for x in made):  # a database that returns no ids from bulk inserts
        ids = dict(Player.objects.filter(event=event).values_list("person_id", "pk"))
        for x in made:
            x.pk = ids[x.person_id]
    out = {p.number: player for p, player in zip(listed, made, strict=True)}
    # Who each player is, on the imported event's own money record (its money stayed where it
    # was played: the record here holds who its players are, and its lifted penalties).
    players_record(out.values(), event.pk)
    return out


def _mark_of(row: Any, *, last: bool) -> str:
    """A result's mark when the file gives none (written before marks were)."""
    if row.rank is None:
        return "disqualified"
    if row.qualified:
        return "qualified"
    return "in" if last else "out"


def _days(event: Event, found: DocumentIn, players: dict[int, Player], now: Any) -> dict[int, Day]:
    out: dict[int, Day] = {}
    out_after: dict[int, int] = {}  # membership number → the last day whose field they were in
    for d in found.days:
        root = d.root
        day = Day.objects.create(
            event=event,
            number=d.number,
            date=d.date,
            status=Day.Status.CLOSED,
            qualify_rule=d.qualify_rule,
            qualify_top=d.qualify_top,
            record_root=root.value if root else "",
            record_version=root.version if root else 3,
            record_money_seq=root.money_seq if root else None,
            record_money_head=root.money_head if root else "",
            **d.rules,
        )
        out[d.number] = day
        qualified = sum(1 for r in d.results if r.qualified)
        DayClose.objects.create(
            day=day,
            status=DayClose.Status.DONE,
            progress=100,
            step="imported",
            finished_at=d.closed_at or now,
            report={
                "imported": True,
                "players": len(d.results),
                "qualified": qualified,
                "record_root": root.value if root else "",
                "record_hands": root.hands if root else 0,
            },
        )
        StandingSnapshot.objects.bulk_create(
            (
                StandingSnapshot(
                    day=day,
                    player=players[r.number],
                    rank=r.rank or 0,  # 0: disqualified, outside the ranking (as a close keeps it)
                    total=r.money,
                    change=r.change,
                    hands_played=r.hands_played,
                    hands_won=r.hands_won,
                    qualified=r.qualified,
                    position=i,  # the file's order is the close's
                    mark=r.mark or _mark_of(r, last=d is found.days[-1]),
                    out_after=out_after.get(r.number) if r.mark == "earlier" else None,
                )
                for i, r in enumerate(d.results, start=1)
            ),
            batch_size=BATCH,
        )
        # Who was in this day's field, for the marks of the days after it.
        for r in d.results:
            if r.mark != "earlier":
                out_after[r.number] = d.number
        Qualification.objects.bulk_create(
            Qualification(day=day, player=players[number], reason=reason)
            for number, reason in d.field
        )
    return out


def _rulings(
    event: Event, found: DocumentIn, players: dict[int, Player], days: dict[int, Day]
) -> None:
    for r in found.rulings:
        ruling = Ruling.objects.create(
            event=event, what_happened=r.what_happened, decision=r.decision
        )
        ruling.players.set({players[p.number].pk for p in r.penalties})
        if r.at is not None:  # the time as the file gives it, not the import's
            Ruling.objects.filter(pk=ruling.pk).update(ruled_at=r.at)
        for p in r.penalties:
            penalty = Penalty.objects.create(
                ruling=ruling,
                event=event,
                player=players[p.number],
                kind=p.kind,
                hands=p.hands,
                hands_left=0,
                day=days.get(p.day) if p.day is not None else None,
                lifted_at=(p.lifted_at or timezone.now()) if p.lifted else None,
                lift_reason=p.lift_reason,
            )
            if r.at is not None:
                Penalty.objects.filter(pk=penalty.pk).update(created_at=r.at)
            if penalty.lifted_at is not None:  # the lift, as the file gives it, on the record
                seq, digest = record_append(
                    record_for_change(event.pk),
                    floor_record.LIFT,
                    floor_record.lift_fields(penalty.pk),
                )
                Penalty.objects.filter(pk=penalty.pk).update(
                    lift_record_seq=seq, lift_record_hash=digest
                )
