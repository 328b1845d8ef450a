"""Registering players and issuing their starting money."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import dataclass, field
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
from .names import NAME_MAX, player_name_clean, player_name_key


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


def refuse_registered(existing: Player, clean: str) -> NoReturn:
    """Refuse a name that looks the same as ``existing``'s (a registered player of its event)."""
    same = "" if existing.name == clean else f" as “{existing.name}”"
    raise ServiceError(
        "player_exists",
        f"“{clean}” is already registered for {existing.event}{same}.",
        details={"field": "name", "player": existing.pk, "existing": existing.name},
    )


@service_transaction
def player_register(
    *, event: Event, name: str, starting_money: int = 0, by: Actor | None
) -> Player:
    clean = player_name_checked(name)
    _check_money(starting_money, what="Starting money", field="starting_money", minimum=0)
    existing = Player.objects.filter(event=event, name_key=player_name_key(clean)).first()
    if existing is None:
        try:
            with transaction.atomic():
                player = Player.objects.create(event=event, name=clean)
        except IntegrityError:
            # Registered by someone else a moment ago, under a name that looks the same.
            existing = Player.objects.filter(event=event, name_key=player_name_key(clean)).first()
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
        data={"money": starting_money},
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


@dataclass
class ImportReport:
    """What a CSV import did: the players registered, every rejected row with its line number
    and the reason, every row of the file in its order (``rows``: line, name, outcome —
    ``registered``, ``rejected`` or ``blank`` — and why), and the columns it ignored."""

    registered: list[Player] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    ignored: list[str] = field(default_factory=list)


MAX_IMPORT_ROWS = 2000
IMPORTED = ("name", "starting_money")  # the columns an import reads; any other is ignored
REST = "\x00rest"  # where the CSV reader puts a row's values past the header's columns


def _csv_rows(reader: csv.DictReader[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows with their line numbers in the text (an empty line is no row, but counts as a
    line); a line the CSV reader cannot read stops the import."""
    try:
        for row in reader:
            yield reader.line_num, row
    except csv.Error as err:
        raise ServiceError("invalid_csv", f"Line {reader.line_num}: {err}.") from None


@service_transaction
def players_import(
    *, event: Event, text: str, by: Actor | None, default_money: int = 0
) -> ImportReport:
    """Register players from CSV text with a header row: ``name`` and, optionally,
    ``starting_money`` (else ``default_money``). Good rows are registered; each bad row is
    reported with its line and reason and changes nothing."""
    _check_money(default_money, what="The default money", field="default_money", minimum=0)
    report = ImportReport()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")), restkey=REST)
    try:
        header = [h.strip().lower() for h in (reader.fieldnames or [])]
    except csv.Error as err:
        raise ServiceError("invalid_csv", f"The first line is not CSV: {err}.") from None
    if "name" not in header:
        raise ServiceError(
            "invalid_csv",
            "The first line must name the columns: name, starting_money (optional)"
            + (f"; it names {', '.join(h for h in header if h)[:200]}." if any(header) else "."),
        )
    reader.fieldnames = header
    report.ignored = [h or f"column {i}" for i, h in enumerate(header, 1) if h not in IMPORTED]
    notes: dict[int, str] = {}  # line -> what was left out of a kept row
    seen: set[str] = set()
    wanted: list[tuple[int, str, int]] = []  # (line, name, money) of the rows to register
    for count, (line, row) in enumerate(_csv_rows(reader), start=1):
        if count > MAX_IMPORT_ROWS:
            raise ServiceError("invalid_csv", f"At most {MAX_IMPORT_ROWS} players per import.")
        name = player_name_clean(str(row.get("name") or ""))
        raw = str(row.get("starting_money") or "").strip()
        extra = [v for v in row.get(REST) or [] if str(v).strip()]  # values past the header
        if extra:
            notes[line] = f"{len(extra)} value(s) past the last column ignored"
        if not name and not raw:
            report.rows.append({"line": line, "name": "", "outcome": "blank", "reason": ""})
            continue  # a blank line
        if raw and not (raw.isascii() and raw.isdigit()):
            report.rejected.append(
                {
                    "line": line,
                    "name": name,
                    "reason": f"starting money {raw[:40]!r} is not a whole number (digits 0–9)",
                }
            )
            continue
        if not raw:
            money = default_money
        elif len(raw.lstrip("0")) > len(str(MONEY_MAX)):
            money = MONEY_MAX + 1  # refused by player_register, naming the bound
        else:
            money = int(raw)
        key = player_name_key(name)
        if key in seen:
            report.rejected.append({"line": line, "name": name, "reason": "twice in this file"})
            continue
        seen.add(key)
        wanted.append((line, name, money))
    # Registered in the order of their names' keys (the unique index), not of the file: a new
    # name is held (its unique index entry) from its insert to the commit, so two imports that
    # share names take them in the same order and never deadlock. The report keeps the file's
    # order.
    registered: list[tuple[int, Player]] = []
    for line, name, money in sorted(wanted, key=lambda w: (player_name_key(w[1]), w[1], w[0])):
        try:
            player = player_register(event=event, name=name, starting_money=money, by=by)
            registered.append((line, player))
        except ServiceError as err:
            report.rejected.append({"line": line, "name": name, "reason": err.message})
    if not wanted and not report.rejected:
        raise ServiceError(
            "invalid_csv",
            "Nothing to import: there is no line after the first (the column names).",
        )
    report.registered = [player for _line, player in sorted(registered, key=lambda r: r[0])]
    report.rejected.sort(key=lambda r: int(r["line"]))
    for line, player in registered:
        report.rows.append(
            {
                "line": line,
                "name": player.name,
                "outcome": "registered",
                "reason": notes.get(line, ""),
                "money": player.balance,
            }
        )
    report.rows += [{**r, "outcome": "rejected"} for r in report.rejected]
    report.rows.sort(key=lambda r: int(r["line"]))
    audit_record(
        by=by,
        verb=Verb.PLAYER_IMPORT,
        subject=event,
        data={"registered": len(report.registered), "rejected": len(report.rejected)},
        event_id=event.pk,
    )
    return report
