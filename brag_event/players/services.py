"""Registering players and issuing their starting money."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction

from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Event
from brag_event.ledger.models import Transfer
from brag_event.ledger.services import account_issuer, account_player, transfer_post

from .models import Player


@service_transaction
def player_register(
    *, event: Event, name: str, starting_money: int = 0, by: Actor | None
) -> Player:
    clean = " ".join(str(name).split())
    if not clean:
        raise ServiceError("invalid_name", "A player needs a name.", details={"field": "name"})
    if len(clean) > 80:
        raise ServiceError("invalid_name", "A name is at most 80 characters.")
    if (
        not isinstance(starting_money, int)
        or isinstance(starting_money, bool)
        or starting_money < 0
    ):
        raise ServiceError(
            "invalid_amount",
            "Starting money must be a whole number, not negative.",
            details={"field": "starting_money"},
        )
    try:
        with transaction.atomic():
            player = Player.objects.create(event=event, name=clean)
    except IntegrityError:
        raise ServiceError("player_exists", f"{clean} is already registered for {event}.") from None
    account_player(player)
    if starting_money:
        player_issue_money(player=player, amount=starting_money, by=by, memo="starting money")
    audit_record(
        by=by,
        verb="player.register",
        target=clean,
        data={"money": starting_money},
        event_id=event.pk,
    )
    player.refresh_from_db()
    return player


@service_transaction
def player_issue_money(
    *, player: Player, amount: int, by: Actor | None, memo: str = ""
) -> Transfer:
    """Issue new money of the event to a player's balance."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise ServiceError("invalid_amount", "Issue a positive whole amount.")
    event = player.event
    transfer = transfer_post(
        kind=Transfer.Kind.ISSUE,
        source=account_issuer(event),
        target=account_player(player),
        amount=amount,
        by=by,
        memo=memo or "money issued",
    )
    audit_record(
        by=by,
        verb="player.issue",
        target=player.name,
        data={"amount": amount},
        event_id=player.event_id,
    )
    return transfer


@dataclass
class ImportReport:
    """What a CSV import did: the players registered, and every rejected row with its line
    number and the reason."""

    registered: list[Player] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)


MAX_IMPORT_ROWS = 2000


@service_transaction
def players_import(
    *, event: Event, text: str, by: Actor | None, default_money: int = 0
) -> ImportReport:
    """Register players from CSV text with a header row: ``name`` and, optionally,
    ``starting_money`` (else ``default_money``). Good rows are registered; each bad row is
    reported with its line and reason and changes nothing."""
    report = ImportReport()
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [h.strip().lower() for h in (reader.fieldnames or [])]
    if "name" not in header:
        raise ServiceError(
            "invalid_csv",
            "The first line must name the columns: name, starting_money (optional).",
        )
    reader.fieldnames = header
    seen: set[str] = set()
    wanted: list[tuple[int, str, int]] = []  # (line, name, money) of the rows to register
    for line, row in enumerate(reader, start=2):
        if line - 1 > MAX_IMPORT_ROWS:
            raise ServiceError("invalid_csv", f"At most {MAX_IMPORT_ROWS} players per import.")
        name = " ".join(str(row.get("name") or "").split())
        raw = str(row.get("starting_money") or "").strip()
        if not name and not raw:
            continue  # a blank line
        if raw and not raw.isdigit():
            report.rejected.append(
                {
                    "line": line,
                    "name": name,
                    "reason": f"starting money {raw!r} is not a whole number",
                }
            )
            continue
        money = int(raw) if raw else default_money
        if name.casefold() in seen:
            report.rejected.append({"line": line, "name": name, "reason": "twice in this file"})
            continue
        seen.add(name.casefold())
        wanted.append((line, name, money))
    # Registered in the order of their names, not of the file: a new name is held (its unique
    # index entry) from its insert to the commit, so two imports that share names take them in
    # the same order and never deadlock. The report keeps the file's order.
    registered: list[tuple[int, Player]] = []
    for line, name, money in sorted(wanted, key=lambda w: (w[1].casefold(), w[1], w[0])):
        try:
            player = player_register(event=event, name=name, starting_money=money, by=by)
            registered.append((line, player))
        except ServiceError as err:
            report.rejected.append({"line": line, "name": name, "reason": err.message})
    report.registered = [player for _line, player in sorted(registered, key=lambda r: r[0])]
    report.rejected.sort(key=lambda r: int(r["line"]))
    audit_record(
        by=by,
        verb="player.import",
        target=str(event),
        data={"registered": len(report.registered), "rejected": len(report.rejected)},
        event_id=event.pk,
    )
    return report
