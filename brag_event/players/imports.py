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
from brag_event.ledger.models import Account, Transfer
from brag_event.ledger.services import account_issuer, transfers_post
from brag_event.tables import versions
from brag_event.tables.models import Seat

from .csv_file import FileRefused, file_read
from .models import ImportBatch, Player
from .names import player_name_key
from .services import event_money_issued

MAX_FILE_BYTES = 512 * 1024
LEGS_PER_STATEMENT = 1000  # 11 parameters a transfer: well inside every database's limit


def _registered(event: Event, keys: Sequence[str]) -> dict[str, str]:
    """name key -> the registered name, for those of ``keys`` a player of ``event`` holds."""
    found: dict[str, str] = {}
    keys = list(keys)
    for at in range(0, len(keys), 900):
        found.update(
            Player.objects.filter(
                event=event, removed_at__isnull=True, name_key__in=keys[at : at + 900]
            ).values_list("name_key", "name")
        )
    return found


@service_transaction
def players_import_preview(
    *, event: Event, data: bytes, file_name: str = "", by: Actor | None
) -> ImportBatch:
    """Read a file of players and keep what it would do, row by row, as an ``ImportBatch``
    to confirm (``players_import_confirm``). A file without a money column gives every row the
    event's starting money (refused when the event has none); a row with money that is
    missing, negative or not a whole number is refused, never registered with 0."""
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
    default = None
    if not read.has_money:
        if event.starting_money is None:
            raise ServiceError(
                "no_starting_money",
                "The file has no starting-money column and this event has no starting money "
                "set: add a “Starting money” column, or set the event's starting money first.",
                details={"field": "csv"},
            )
        default = int(event.starting_money)
    taken = _registered(event, [player_name_key(r.name) for r in read.rows if not r.refused])
    rows: list[dict[str, Any]] = []
    for row in read.rows:
        money = row.money if read.has_money else default
        refused = row.refused
        existing = taken.get(player_name_key(row.name)) if not refused else None
        if existing is not None:
            same = "" if existing == row.name else f" as “{existing}”"
            refused = f"already registered{same}"
        rows.append(
            {
                "line": row.line,
                "name": row.name,
                "money": money if not refused else None,
                "refused": refused,
                "note": row.note,
                "group": row.group,
            }
        )
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


def _locked(batch: ImportBatch) -> ImportBatch:
    return ImportBatch.objects.select_for_update().get(pk=batch.pk)


@service_transaction
def players_import_confirm(*, batch: ImportBatch, by: Actor | None) -> list[Player]:
    """Register exactly the rows the preview said it would, with the money it showed — all of
    them or, if any has become impossible since (a name registered meanwhile), none."""
    batch = _locked(batch)
    if batch.status != ImportBatch.Status.PREVIEWED:
        raise Conflict(
            "import_done",
            "This file was imported already: its players are on the list."
            if batch.status == ImportBatch.Status.CONFIRMED
            else "This import was undone.",
        )
    event = Event.objects.get(pk=batch.event_id)
    wanted = [r for r in batch.rows if not r["refused"]]
    if not wanted:
        raise ServiceError("nothing_to_import", "No row of this file can be registered.")
    # Same order as registering one by one takes the unique index's entries (by name key): two
    # imports that share names take them in one order and never deadlock.
    wanted.sort(key=lambda r: (player_name_key(r["name"]), r["line"]))
    keys = [player_name_key(r["name"]) for r in wanted]
    clash = _registered(event, keys)
    if clash:
        names = ", ".join(f"“{n}”" for n in sorted(clash.values())[:3])
        more = f" and {len(clash) - 3} more" if len(clash) > 3 else ""
        raise Conflict(
            "import_stale",
            f"Since the preview, {names}{more} got registered: load the file again to see a "
            "new preview.",
        )
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
    try:
        with transaction.atomic():
            players = Player.objects.bulk_create(
                [
                    Player(
                        event=event,
                        name=r["name"],
                        name_key=key,
                        group=r.get("group", ""),
                        import_batch=batch,
                    )
                    for r, key in zip(wanted, keys, strict=True)
                ],
                batch_size=500,
            )
    except IntegrityError:
        raise Conflict(
            "import_stale",
            "A name of this file got registered a moment ago: load the file again to see a "
            "new preview.",
        ) from None
    if any(p.pk is None for p in players):  # a database that returns no ids from bulk inserts
        by_key = dict(Player.objects.filter(import_batch=batch).values_list("name_key", "pk"))
        for p in players:
            p.pk = by_key[p.name_key]
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
    legs = [
        (str(Transfer.Kind.ISSUE), issuer, account, int(r["money"]))
        for r, account in zip(wanted, accounts, strict=True)
        if int(r["money"]) > 0
    ]
    for at in range(0, len(legs), LEGS_PER_STATEMENT):
        transfers_post(legs=legs[at : at + LEGS_PER_STATEMENT], by=by, memo="starting money")
    batch.status = ImportBatch.Status.CONFIRMED
    batch.confirmed_at = timezone.now()
    batch.save(update_fields=["status", "confirmed_at"])
    versions.event_changed(event.pk)
    audit_record_each(
        by=by,
        verb=Verb.PLAYER_REGISTER,
        subjects=[
            (p, {"money": int(r["money"]), "import": batch.pk})
            for p, r in zip(players, wanted, strict=True)
        ],
        event_id=event.pk,
    )
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
    seated = set(Seat.objects.filter(player_id__in=players).values_list("player_id", flat=True))
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
def player_remove(*, player: Player, reason: str = "", by: Actor | None) -> Player:
    """Remove a player registered by mistake, before they have played (the module's docstring
    says what that does)."""
    player = Player.objects.select_for_update(no_key=True).get(pk=player.pk)
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
