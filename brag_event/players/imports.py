"""Importing players from a file, in two steps — a preview that lists every row as "will
register" or "refused, because …" and changes nothing but the stored preview, then one
confirmation that registers exactly the rows previewed — and taking a mistake back: a whole
import undone, or one player registered by mistake removed, while they have not played.

Removing (docs/players-import.md): the player is withdrawn, every amount issued to them is
taken back by a reversing entry that names it, their name is free again, and the audit log
says who did it. Only a player who has never been seated: anyone who has sat at a table has
moved money through the game, which only a withdrawal (their money stays theirs) can follow.

A confirmation registers its rows in a few statements however many there are — the players
in one INSERT, their accounts in one, the starting money in one ledger posting (one INSERT
of transfers, one UPDATE of the cached balances per amount) and the audit entries in one —
where registering them one by one costs some twenty-five statements a player."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Sum
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record, audit_record_each
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Event
from brag_event.events.states import refuse_if_imported
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import account_issuer, transfers_post

from . import versions
from .csv_file import FileRefused, file_read
from .models import ImportBatch, Person, Player, person_number_next
from .names import GROUP_MAX, name_key, player_group_clean
from .people import person_by_number, person_described
from .record import players_record
from .services import event_money_issued

MAX_FILE_BYTES = 512 * 1024
LEGS_PER_STATEMENT = 1000  # 11 parameters a transfer: well inside every database's limit


def _registered(event: Event, keys: Sequence[str]) -> dict[str, tuple[int, str]]:
    """name key -> (player id, name) of the first player of ``event`` with that key, for those
    of ``keys`` the event's players hold."""
    found: dict[str, tuple[int, str]] = {}
    keys = list(keys)
    for at in range(0, len(keys), 900):
        for key, pk, name in (
            Player.objects.filter(
                event=event, removed_at__isnull=True, name_key__in=keys[at : at + 900]
            )
            .order_by("-pk")
            .values_list("name_key", "pk", "name")
        ):
            found[key] = (pk, name)
    return found


def _by_number(numbers: Sequence[int]) -> dict[int, Person]:
    """membership number -> the person it finds (the person kept, for a merged duplicate)."""
    found: dict[int, Person] = {}
    numbers = sorted(set(numbers))
    for at in range(0, len(numbers), 900):
        for p in Person.objects.filter(number__in=numbers[at : at + 900]):
            kept = p if p.merged_into_id is None else person_by_number(p.number)
            if kept is not None:
                found[p.number] = kept
    return found


def _people_alike(event: Event, keys: Sequence[str]) -> dict[str, list[Person]]:
    """name key -> the people a row of that name could be (``people.person_matches`` for many
    names at once)."""
    entered = Player.objects.filter(event=event, removed_at__isnull=True).values("person_id")
    out: dict[str, list[Person]] = {}
    keys = sorted(set(keys))
    for at in range(0, len(keys), 900):
        found = (
            Person.objects.filter(
                name_key__in=keys[at : at + 900],
                merged_into__isnull=True,
                entries__removed_at__isnull=True,
            )
            .exclude(pk__in=entered)
            .distinct()
            .order_by("number")
        )
        for p in found:
            out.setdefault(p.name_key, []).append(p)
    return out


# An organiser's decision on a row of a preview that needs one (``players_import_confirm``).
SAME = "person:"  # "person:<id>": the returning person the row is
NEW = "new"  # someone new, though people of a look-alike name are registered
DIFFERENT = "different"  # another person than the event's player whose name looks the same
SKIP = "skip"  # leave the row out


def row_question(row: dict[str, Any]) -> str:
    """What the organiser must decide about a previewed row ("" when nothing)."""
    if row.get("refused"):
        return ""
    if row.get("looks_like"):
        return "look_alike"
    if row.get("matches") and not row.get("person"):
        return "match"
    return ""


@service_transaction
def players_import_preview(
    *, event: Event, data: bytes, file_name: str = "", by: Actor | None
) -> ImportBatch:
    """Read a file of players and keep what it would do, row by row, as an ``ImportBatch``
    to confirm (``players_import_confirm``). A file without a money column gives every row the
    event's starting money (refused when the event has none); a row with money that is
    missing, negative or not a whole number is refused, never registered with 0."""
    refuse_if_imported(event, "its players")
    if len(data) > MAX_FILE_BYTES:
        raise ServiceError(
            "file_too_large",
            f"The file is larger than {MAX_FILE_BYTES // 1024} KB.",
            details={"field": "csv"},
        )
    try:
        read = file_read(data, currency=event.currency)
    except FileRefused as err:
        raise ServiceError(err.code, err.message, details={"field": "csv"}) from None
    default = _default_money(event, read)
    rows = _Preview(event, read).rows(default)
    return ImportBatch.objects.create(
        event=event,
        file_name=str(file_name)[:200],
        encoding=read.encoding,
        separator=read.separator,
        columns={"columns": read.columns, "empty_lines": read.empty_lines},
        default_money=default,
        rows=rows,
        created_by=by.user if by is not None and getattr(by.user, "pk", None) else None,
    )


def _default_money(event: Event, read: Any) -> int | None:
    """The money of every row of a file without a money column: the event's starting money
    (refused when the event has none)."""
    if read.has_money:
        return None
    if event.starting_money is None:
        raise ServiceError(
            "no_starting_money",
            "The file has no starting-money column and this event has no starting money "
            "set: add a “Starting money” column, or set the event's starting money first.",
            details={"field": "csv"},
        )
    return int(event.starting_money)


class _Preview:
    """What a file's rows would do: the whole file's lookups made once (two queries for the
    returning people, not two a row), then row by row."""

    def __init__(self, event: Event, read: Any) -> None:
        self.read = read
        kept = [r for r in read.rows if not r.refused]
        self.taken = _registered(event, [name_key(r.name) for r in kept])
        self.entered = set(
            Player.objects.filter(event=event, removed_at__isnull=True).values_list(
                "person_id", flat=True
            )
        )
        self.numbered = _by_number([r.number for r in kept if r.number is not None])
        self.alike = _people_alike(event, [name_key(r.name) for r in kept])
        # The file's own rows of one name key, the first of each: a later row of the same name
        # is another person told apart by its membership number when both rows give one (two
        # John Smiths, 6001 and 6002), and asked about otherwise (a look-alike spelling, "Jоhn
        # Smith" with a Cyrillic "о", or a row without its number).
        self.first_of: dict[str, Any] = {}

    def rows(self, default: int | None) -> list[dict[str, Any]]:
        return [self._row(row, default) for row in self.read.rows]

    def _returning(self, row: Any) -> tuple[Person | None, str]:
        """The person a row's membership number names, and the row's refusal."""
        refused = row.refused
        if refused or row.number is None:
            return None, refused
        person = self.numbered.get(row.number)
        if person is not None and person.name_key != name_key(row.name):
            refused = f"membership number {row.number} is {person_described(person)}"
        elif person is not None and person.pk in self.entered:
            refused = f"{person_described(person)} is entered in this event already"
        return person, refused

    def _row(self, row: Any, default: int | None) -> dict[str, Any]:
        money = row.money if self.read.has_money else default
        person, refused = self._returning(row)
        matches: list[dict[str, Any]] = []
        looks_like = apart = None
        if not refused:
            looks_like, apart = self._alike(row)
            if person is None:
                matches = [
                    {"person": p.pk, "text": person_described(p)}
                    for p in self.alike.get(name_key(row.name), [])[:5]
                ]
        return {
            "line": row.line,
            "name": row.name,
            "money": money if not refused else None,
            "refused": refused,
            "note": row.note,
            "group": row.group,
            "number": row.number,
            "person": person.pk if person is not None else None,
            "person_text": person_described(person) if person is not None else "",
            "matches": matches,
            "looks_like": looks_like,
            "apart": apart,
        }

    def _alike(self, row: Any) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """(looks like: a player of the event or an earlier row; told apart from an earlier
        row by the membership numbers)."""
        key = name_key(row.name)
        existing = self.taken.get(key)
        earlier = self.first_of.setdefault(key, row)
        if existing is not None:
            return {"player": existing[0], "name": existing[1]}, None
        if earlier is row:
            return None, None
        if _told_apart(earlier, row):
            return None, {"line": earlier.line, "name": earlier.name, "number": earlier.number}
        return {"line": earlier.line, "name": earlier.name}, None


def _told_apart(first: Any, later: Any) -> bool:
    """Whether two rows of one file whose names share a key are two people the file tells
    apart: the same name (but for case and spaces, "Vera Wang" and "VERA  WANG") and each row
    its own membership number. A look-alike spelling is asked about, numbers or not."""
    return (
        first.number is not None
        and later.number is not None
        and first.number != later.number
        and first.name.casefold() == later.name.casefold()
    )


def _locked(batch: ImportBatch) -> ImportBatch:
    return ImportBatch.objects.select_for_update().get(pk=batch.pk)


def _decided(
    batch: ImportBatch, decisions: dict[int, str]
) -> list[tuple[dict[str, Any], int | None, bool]]:
    """The rows to register — (row, the returning person's id or ``None`` for someone new,
    whether confirmed different from a look-alike player) — with every row that needs a
    decision decided; refused naming the lines that are not."""
    out: list[tuple[dict[str, Any], int | None, bool]] = []
    undecided: list[int] = []
    for row in batch.rows:
        if row["refused"]:
            continue
        line = int(row["line"])
        said = str(decisions.get(line, ""))
        question = row_question(row)
        if said == SKIP:
            continue
        person = row.get("person")
        if question == "look_alike":
            if said != DIFFERENT:
                undecided.append(line)
                continue
            # Confirmed as another person: a returning one by number, else someone new.
            out.append((row, person, True))
        elif question == "match":
            choices = {f"{SAME}{m['person']}": int(m["person"]) for m in row["matches"]}
            if said == NEW:
                out.append((row, None, False))
            elif said in choices:
                out.append((row, choices[said], False))
            else:
                undecided.append(line)
        else:
            # A row the file tells apart from an earlier one of its name by their numbers is
            # registered as a different person without a question.
            out.append((row, person, bool(row.get("apart"))))
    if undecided:
        lines = ", ".join(str(n) for n in undecided[:10])
        more = f" and {len(undecided) - 10} more" if len(undecided) > 10 else ""
        raise ServiceError(
            "import_undecided",
            f"Say for line{'s' if len(undecided) > 1 else ''} {lines}{more} whether "
            f"{'it is' if len(undecided) == 1 else 'each is'} the person named, someone new, "
            "or to be left out.",
            details={"lines": undecided},
        )
    return out


def _group(row: dict[str, Any], club: str) -> str:
    """A previewed row's club or group (``club`` when it has none), as an entry's group."""
    return player_group_clean(str(row.get("group") or row.get("club") or club))[:GROUP_MAX]


def _refuse_taken(
    event: Event, plain_keys: list[str], chosen: list[tuple[dict[str, Any], int | None, bool]]
) -> None:
    """Refuse names registered since the preview and a person chosen for two rows."""
    clash = _registered(event, plain_keys)
    if clash:
        names = ", ".join(f"“{n}”" for _pk, n in sorted(clash.values(), key=lambda v: v[1])[:3])
        more = f" and {len(clash) - 3} more" if len(clash) > 3 else ""
        raise Conflict(
            "import_stale",
            f"Since the preview, {names}{more} got registered: load the file again to see a "
            "new preview.",
        )
    returning = [pk for _row, pk, _d in chosen if pk is not None]
    twice = sorted({pk for pk in returning if returning.count(pk) > 1})
    if twice:
        people = Person.objects.filter(pk__in=twice).order_by("number")
        raise ServiceError(
            "import_same_person",
            "Two rows were said to be the same person: "
            + ", ".join(person_described(p) for p in people)
            + ". Choose someone new for one of them, or leave one out.",
        )


def _register(
    event: Event,
    batch: ImportBatch,
    chosen: list[tuple[dict[str, Any], int | None, bool]],
    wanted: list[dict[str, Any]],
    keys: list[str],
) -> tuple[list[Player], list[int]]:
    """The new people and every row's player (with its id), and each row's person's id."""
    try:
        with transaction.atomic():
            # Someone new gets the number the file gives, else the next free ones in turn.
            first = person_number_next()
            given = {int(r["number"]) for r in wanted if r.get("number")}
            fresh = iter(n for n in range(first, first + 2 * len(wanted) + 1) if n not in given)
            new = [
                Person(
                    name=row["name"],
                    name_key=key,
                    number=int(row["number"]) if row.get("number") else next(fresh),
                    club=_group(row, ""),
                )
                for (row, pk, _d), key in zip(chosen, keys, strict=True)
                if pk is None
            ]
            made = iter(Person.objects.bulk_create(new, batch_size=500))
            person_ids = [pk if pk is not None else next(made).pk for _row, pk, _d in chosen]
            # An entry's group: the row's club or group, else the person's club (docs/people.md).
            clubs = dict(Person.objects.filter(pk__in=person_ids).values_list("pk", "club"))
            players = Player.objects.bulk_create(
                [
                    Player(
                        event=event,
                        name=r["name"],
                        name_key=key,
                        group=_group(r, clubs[person]),
                        import_batch=batch,
                        person_id=person,
                        look_alike_confirmed=different,
                    )
                    for r, key, person, (_row, _pk, different) in zip(
                        wanted, keys, person_ids, chosen, strict=True
                    )
                ],
                batch_size=500,
            )
    except IntegrityError:
        raise Conflict(
            "import_stale",
            "A name or a membership number of this file got registered a moment ago: load "
            "the file again to see a new preview.",
        ) from None
    if any(p.pk is None for p in players):  # a database that returns no ids from bulk inserts
        by_person = dict(Player.objects.filter(import_batch=batch).values_list("person_id", "pk"))
        for p in players:
            p.pk = by_person[p.person_id]
    return players, person_ids


def _accounts(event: Event, batch: ImportBatch, players: list[Player]) -> list[Account]:
    """Every player's account, with its id."""
    accounts = Account.objects.bulk_create(
        [Account(event=event, kind=Account.Kind.PLAYER, player=p) for p in players],
        batch_size=500,
    )
    if any(a.pk is None for a in accounts):
        by_player = dict(
            Account.objects.filter(player__import_batch=batch).values_list("player_id", "pk")
        )
        for a, p in zip(accounts, players, strict=True):
            a.pk = by_player[p.pk]
    return accounts


def _record_look_alikes(
    batch: ImportBatch,
    event: Event,
    players: list[Player],
    wanted: list[dict[str, Any]],
    chosen: list[tuple[dict[str, Any], int | None, bool]],
    numbers: dict[int, int],
    by: Actor | None,
) -> None:
    # Each player registered as another person than a look-alike: the event's player it looks
    # like, or the player of the file's earlier line (asked, or told apart by their numbers).
    by_line = {int(r["line"]): p for p, r in zip(players, wanted, strict=True)}
    alike: list[tuple[Player, int, str]] = []
    for p, r, c in zip(players, wanted, chosen, strict=True):
        other = r.get("looks_like") or r.get("apart") or {}
        if not c[2] or not other:
            continue
        if other.get("player"):
            alike.append((p, int(other["player"]), str(other["name"])))
        elif other.get("line") and int(other["line"]) in by_line:
            earlier = by_line[int(other["line"])]
            alike.append((p, earlier.pk, earlier.name))
    if alike:
        like_numbers = dict(
            Player.objects.filter(pk__in=[pk for _p, pk, _n in alike]).values_list(
                "pk", "person__number"
            )
        )
        audit_record_each(
            by=by,
            verb=Verb.PLAYER_LOOK_ALIKE,
            subjects=[
                (
                    p,
                    {
                        "player": p.pk,
                        "name": p.name,
                        "number": numbers[p.person_id],
                        "looks_like": other_pk,
                        "looks_like_name": other_name,
                        "looks_like_number": like_numbers.get(other_pk),
                        "import": batch.pk,
                    },
                )
                for p, other_pk, other_name in alike
            ],
            event_id=event.pk,
        )


@service_transaction
def players_import_confirm(
    *, batch: ImportBatch, decisions: dict[int, str] | None = None, by: Actor | None
) -> list[Player]:
    """Register exactly the rows the preview said it would, with the money it showed — all of
    them or, if any has become impossible since (a name registered meanwhile), none.

    ``decisions`` (line → ``person:<id>``, ``new``, ``different`` or ``skip``) answers every
    row the preview asked about (``row_question``): a returning person chosen or someone new;
    a name that looks the same as a player's of the event confirmed as a different person
    (the audit log records it) or left out."""
    batch = _locked(batch)
    if batch.status != ImportBatch.Status.PREVIEWED:
        raise Conflict(
            "import_done",
            "This file was imported already: its players are on the list."
            if batch.status == ImportBatch.Status.CONFIRMED
            else "This import was undone.",
        )
    event = Event.objects.get(pk=batch.event_id)
    chosen = _decided(batch, decisions or {})
    if not chosen:
        raise ServiceError("nothing_to_import", "No row of this file can be registered.")
    # Same order as registering one by one takes the unique index's entries (by name key): two
    # imports that share names take them in one order and never deadlock.
    chosen.sort(key=lambda c: (name_key(c[0]["name"]), c[0]["line"]))
    wanted = [row for row, _person, _different in chosen]
    keys = [name_key(r["name"]) for r in wanted]
    plain_keys = [key for key, c in zip(keys, chosen, strict=True) if not c[2]]
    _refuse_taken(event, plain_keys, chosen)
    total = sum(int(r["money"]) for r in wanted)
    # The issuer's row is locked so two issues at once cannot both pass the bound.
    issuer = Account.objects.select_for_update().get(pk=account_issuer(event).pk)
    issued = event_money_issued(event)
    if issued + total > MONEY_MAX:
        raise ServiceError(
            "amount_too_large",
            f"{event} has issued {issued:,} in all; this file's {total:,} more would pass the "
            f"limit of {MONEY_MAX:,} an event may issue.",
        )
    players, person_ids = _register(event, batch, chosen, wanted, keys)
    accounts = _accounts(event, batch, players)
    legs = [
        (str(Transfer.Kind.ISSUE), issuer, account, int(r["money"]))
        for r, account in zip(wanted, accounts, strict=True)
        if int(r["money"]) > 0
    ]
    for at in range(0, len(legs), LEGS_PER_STATEMENT):
        transfers_post(legs=legs[at : at + LEGS_PER_STATEMENT], by=by, memo="starting money")
    players_record(players, event.pk)  # who each is, on the money record (locked above)
    batch.status = ImportBatch.Status.CONFIRMED
    batch.confirmed_at = timezone.now()
    batch.save(update_fields=["status", "confirmed_at"])
    versions.event_changed(event.pk)
    numbers = dict(Person.objects.filter(pk__in=person_ids).values_list("pk", "number"))
    audit_record_each(
        by=by,
        verb=Verb.PLAYER_REGISTER,
        subjects=[
            (
                p,
                {
                    "money": int(r["money"]),
                    "import": batch.pk,
                    "person": p.person_id,
                    "number": numbers[p.person_id],
                    **({"returning": True} if pk is not None else {}),
                },
            )
            for p, r, (_row, pk, _d) in zip(players, wanted, chosen, strict=True)
        ],
        event_id=event.pk,
    )
    _record_look_alikes(batch, event, players, wanted, chosen, numbers, by)
    audit_record(
        by=by,
        verb=Verb.PLAYER_IMPORT,
        subject=event,
        target=batch.file_name or "pasted list",
        data={
            "import": batch.pk,
            "registered": len(players),
            "refused": len(batch.rows) - len(wanted),
            "money": total,
        },
        event_id=event.pk,
    )
    return list(Player.objects.filter(import_batch=batch).order_by("name_key", "pk"))


def players_who_played(players: Sequence[int]) -> set[int]:
    """Those of ``players`` (ids) who have sat at a table or had money move other than money
    issued to them (and its reversal)."""
    # Through the seats' relation on the player (``Seat.player``), as ``players.disqualified``
    # reads the floor's penalties: the players import nothing of the tables.
    seated = set(
        Player.objects.filter(pk__in=players, seats__isnull=False).values_list("pk", flat=True)
    )
    other = Transfer.objects.exclude(kind__in=(Transfer.Kind.ISSUE, Transfer.Kind.REVERSAL))
    moved = set(
        other.filter(source__player_id__in=players).values_list("source__player_id", flat=True)
    ) | set(other.filter(target__player_id__in=players).values_list("target__player_id", flat=True))
    return seated | moved


def _remove(
    *, players: list[Player], by: Actor | None, reason: str, batch: ImportBatch | None
) -> int:
    """Withdraw ``players`` (locked, not removed, none has played), reverse every amount issued
    to them that is not reversed yet, free their names and log each. The money taken back."""
    ids = [p.pk for p in players]
    issues = list(
        Transfer.objects.filter(
            kind=Transfer.Kind.ISSUE,
            target__player_id__in=ids,
            target__kind=Account.Kind.PLAYER,
            reversed_by__isnull=True,
        ).select_related("source", "target")
    )
    legs = [(str(Transfer.Kind.REVERSAL), t.target, t.source, t.amount) for t in issues]
    for at in range(0, len(legs), LEGS_PER_STATEMENT):
        transfers_post(
            legs=legs[at : at + LEGS_PER_STATEMENT],
            by=by,
            memo="registered by mistake: money taken back",
            reversed_ids=[t.pk for t in issues[at : at + LEGS_PER_STATEMENT]],
        )
    now = timezone.now()
    Player.objects.filter(pk__in=ids).update(withdrawn_at=now, removed_at=now)
    taken: dict[int, int] = {}
    for t in issues:
        taken[t.target.player_id or 0] = taken.get(t.target.player_id or 0, 0) + t.amount
    why = " ".join(str(reason).split())[:200]
    audit_record_each(
        by=by,
        verb=Verb.PLAYER_REMOVE,
        subjects=[
            (
                p,
                {
                    "player": p.pk,
                    "reason": why,
                    "money_taken_back": taken.get(p.pk, 0),
                    "import": batch.pk if batch else None,
                },
            )
            for p in players
        ],
        event_id=players[0].event_id,
    )
    versions.event_changed(players[0].event_id, tables=True)
    return sum(taken.values())


def _refuse_if_played(players: list[Player], what: str) -> None:
    played = players_who_played([p.pk for p in players])
    if played:
        names = sorted(p.name for p in players if p.pk in played)
        shown = ", ".join(f"“{n}”" for n in names[:3])
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        raise Conflict(
            "player_has_played",
            f"{shown}{more} has played already: {what}. Withdraw a player who has played "
            "instead (their money stays theirs).",
            details={"players": sorted(played)},
        )


@service_transaction
def player_remove(*, player: Player, reason: str, by: Actor | None) -> Player:
    """Remove a player registered by mistake, before they have played (the module's docstring
    says what that does); ``reason`` is needed (the audit log keeps it)."""
    why = " ".join(str(reason).split())
    if not why:
        raise ServiceError(
            "reason_needed", "Say why the player is removed.", details={"field": "reason"}
        )
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
    refuse_if_imported(player.event_id, "its players")
    if player.removed_at is not None:
        raise Conflict("already_removed", f"{player} was removed already.")
    _refuse_if_played([player], "a player who has played cannot be removed")
    _remove(players=[player], by=by, reason=reason, batch=None)
    player.refresh_from_db()
    return player


def import_undo_summary(batch: ImportBatch) -> dict[str, Any]:
    """What undoing ``batch`` would do now: the players it would remove, the money it would
    take back, and who has played (then it is refused)."""
    players = list(batch.players.filter(removed_at__isnull=True).order_by("name_key"))
    ids = [p.pk for p in players]
    money = (
        Transfer.objects.filter(
            kind=Transfer.Kind.ISSUE, target__player_id__in=ids, reversed_by__isnull=True
        ).aggregate(s=Sum("amount"))["s"]
        or 0
    )
    played = players_who_played(ids)
    return {
        "players": len(players),
        "money": int(money),
        "played": sorted(p.name for p in players if p.pk in played),
        "removed_before": batch.players.filter(removed_at__isnull=False).count(),
    }


@service_transaction
def players_import_undo(*, batch: ImportBatch, by: Actor | None) -> int:
    """Undo a confirmed import while none of its players has played: each one still on the
    list is removed (``player_remove``'s effects, all at once). Returns how many were."""
    batch = _locked(batch)
    if batch.status != ImportBatch.Status.CONFIRMED:
        raise Conflict(
            "import_not_undoable",
            "This import was undone already."
            if batch.status == ImportBatch.Status.UNDONE
            else "This file was only previewed: nothing was imported.",
        )
    players = list(
        Player.objects.select_for_update(no_key=True)
        .filter(import_batch=batch, removed_at__isnull=True)
        .order_by("name_key")
    )
    if players:
        _refuse_if_played(players, "this import cannot be undone")
        money = _remove(players=players, by=by, reason="import undone", batch=batch)
    else:
        money = 0
    batch.status = ImportBatch.Status.UNDONE
    batch.undone_at = timezone.now()
    batch.save(update_fields=["status", "undone_at"])
    audit_record(
        by=by,
        verb=Verb.PLAYER_IMPORT_UNDO,
        subject=batch.event,
        target=batch.file_name or "pasted list",
        data={"import": batch.pk, "removed": len(players), "money_taken_back": money},
        event_id=batch.event_id,
    )
    return len(players)
