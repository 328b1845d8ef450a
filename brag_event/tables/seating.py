"""The seating draw and table balancing.

A day starts with a draw: every eligible player is placed at random (from a seed that is kept, so
the same seed and the same players give the same tables) on as few tables as the seats allow,
the tables differing by at most one player. Applying the draw creates the tables and buys every
player in through ``seat_buy_in`` — all of it or nothing.

As players leave, the tables are balanced: a player moves from the fullest table to the shortest
when they differ by two or more, and the shortest table is broken when everyone fits on one table
fewer. A move takes the player's stack with them (back to their balance as a leave, onto the new
seat as a buy-in without a house fee)."""

from __future__ import annotations

import hashlib
import json
import math
import random
import secrets
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import Conflict, ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import counted
from brag_event.events.models import Day
from brag_event.events.states import (
    day_for_change,
    day_for_play,
    refuse_unless_open,
    refuse_until_day_before_closed,
)
from brag_event.ledger.models import Transfer
from brag_event.ledger.services import account_player, account_stack, transfer_post
from brag_event.players.checkin import checked_in_ids
from brag_event.players.models import CheckIn, Player
from brag_event.players.names import player_group_key
from brag_event.players.notices import notices
from brag_event.players.selectors import event_names_shown

from . import versions
from .in_play import table_in_play
from .models import Seat, SeatingDraw, Table
from .record import seat_record_sit
from .services import only_qualifiers, seat_buy_in, seat_vacate, table_create

PlanEntry = tuple[int, str, int]  # (player id, name, amount)
NOT_CHECKED_IN = "not checked in"  # a draw's reason for a no-show


@dataclass(frozen=True)
class Shared:
    """A club or group whose players had to share a table: ``at`` maps each table (its index
    in the plan) where two or more of them sit to those players' ids."""

    group: str
    players: int
    at: dict[int, list[int]]


def seating_plan(
    *,
    players: list[PlanEntry],
    seats: int,
    seed: str,
    groups: Mapping[int, str] | None = None,
) -> list[list[PlanEntry]]:
    """``seating_plan_apart``'s tables alone."""
    return seating_plan_apart(players=players, seats=seats, seed=seed, groups=groups)[0]


def seating_plan_apart(
    *,
    players: list[PlanEntry],
    seats: int,
    seed: str,
    groups: Mapping[int, str] | None = None,
) -> tuple[list[list[PlanEntry]], list[Shared]]:
    """Place ``players`` on ceil(n / seats) tables, at random from ``seed``: at most ``seats`` a
    table, the table sizes differing by at most one, and no two players of one group (``groups``:
    player id → club or group, compared as names are) at one table whenever such tables exist.
    When none exist (a group with more players than there are tables), its players are spread
    as evenly as the tables allow and it is returned as ``Shared``. Pure: the same players (in
    any order), groups and seed give the same tables.

    Without a group of two or more players the tables are exactly those drawn before groups
    existed (a shuffle cut into tables), so an old seed gives its old tables. With groups, the
    tables are filled group by group, the largest first (ties in the seed's order), each
    player at the table with the fewest of their group, then the most seats left, then the
    seed's order; then everyone else. Hand-written, because this greedy fill is Ryser's
    construction and is exact: a group's players take the tables with the most room, and any
    seating that keeps every group apart can be swapped, one player at a time, into the one it
    builds (tests/tables/test_seating_apart.py checks it against scipy's maximum flow). A flow
    library would find *a* separating seating, not one drawn from the seed."""
    if seats < 1:
        raise ValueError("a table has at least one seat")
    ordered = sorted(players)
    if not ordered:
        return [], []
    rng = random.Random(seed)  # nosec B311
    rng.shuffle(ordered)
    n = len(ordered)
    count = math.ceil(n / seats)
    base, extra = divmod(n, count)
    sizes = [base + (1 if k < extra else 0) for k in range(count)]
    members: dict[str, list[PlanEntry]] = {}
    for entry in ordered:
        key = player_group_key((groups or {}).get(entry[0], ""))
        if key:
            members.setdefault(key, []).append(entry)
    together = [key for key, group in members.items() if len(group) > 1]
    if not together:
        tables: list[list[PlanEntry]] = []
        start = 0
        for size in sizes:
            tables.append(ordered[start : start + size])
            start += size
        return tables, []
    # Largest group first; dict order is the shuffle's, so equal sizes go in the seed's order.
    together.sort(key=lambda key: -len(members[key]))
    room = list(sizes)
    at: list[list[PlanEntry]] = [[] for _ in sizes]
    shared: list[Shared] = []
    for key in together:
        rank = list(range(count))
        rng.shuffle(rank)
        here = [0] * count
        for entry in members[key]:
            best = min(
                (t for t in range(count) if room[t] > 0),
                key=lambda t: (here[t], -room[t], rank[t]),
            )
            at[best].append(entry)
            room[best] -= 1
            here[best] += 1
        if max(here) > 1:
            ids = {e[0] for e in members[key]}
            shared.append(
                Shared(
                    group=str((groups or {})[members[key][0][0]]),
                    players=len(members[key]),
                    at={
                        t: [e[0] for e in at[t] if e[0] in ids] for t in range(count) if here[t] > 1
                    },
                )
            )
    grouped = {e[0] for key in together for e in members[key]}
    table = 0
    for entry in ordered:
        if entry[0] in grouped:
            continue
        while room[table] == 0:
            table += 1
        at[table].append(entry)
        room[table] -= 1
    for players_at in at:
        rng.shuffle(players_at)  # seats at random, not the grouped players first
    return at, shared


def seat_numbers(count: int, seats: int) -> list[int]:
    """Seat numbers for ``count`` players at a table of ``seats``, spread around the table
    (4 players at 6 seats: 1, 2, 4, 5)."""
    return [1 + (i * seats) // count for i in range(count)]


def _eligible(day: Day, players: list[Player]) -> tuple[list[PlanEntry], list[dict[str, Any]]]:
    """The players to draw (id, name shown, what each brings) and the others with the reason."""
    shown = event_names_shown(day.event_id)
    qualified = (
        set(day.qualified.values_list("player_id", flat=True)) if only_qualifiers(day) else None
    )
    checked_in = checked_in_ids(day)
    seated = {
        player_id: number
        for player_id, number in Seat.objects.filter(
            player__event=day.event, left_at__isnull=True
        ).values_list("player_id", "table__number")
    }
    fee = day.house_fee
    needed = day.table_min + fee
    eligible: list[PlanEntry] = []
    excluded: list[dict[str, Any]] = []
    for player in players:
        reason = ""
        if player.withdrawn_at is not None:
            reason = "withdrawn"
        elif qualified is not None and player.pk not in qualified:
            reason = "not qualified"
        elif player.pk in seated:
            reason = f"already seated at table {seated[player.pk]}"
        elif checked_in is not None and player.pk not in checked_in:
            reason = NOT_CHECKED_IN
        elif player.balance < needed:
            reason = f"cannot afford {needed} ({day.table_min} + fee {fee})"
        if reason:
            excluded.append({"player": player.pk, "name": shown[player.pk], "reason": reason})
        else:
            eligible.append((player.pk, shown[player.pk], min(player.balance - fee, day.table_max)))
    return eligible, excluded


def _plan(
    tables: list[list[PlanEntry]], last: int, seats: int, groups: dict[int, str]
) -> list[dict[str, Any]]:
    """The drawn tables, numbered after the day's ``last``, each player at their seat."""
    plan: list[dict[str, Any]] = []
    for k, at_table in enumerate(tables, 1):
        numbers = seat_numbers(len(at_table), seats)
        plan.append(
            {
                "table": last + k,
                "seats": [
                    {
                        "seat": number,
                        "player": pk,
                        "name": name,
                        "amount": amount,
                        "group": groups.get(pk, ""),
                    }
                    for number, (pk, name, amount) in zip(numbers, at_table, strict=True)
                ],
            }
        )
    return plan


def _apart(
    eligible: list[PlanEntry],
    groups: dict[int, str],
    tables: list[list[PlanEntry]],
    shared: Any,
    last: int,
) -> dict[str, Any]:
    """The groups kept apart, and those that had to share a table (and where)."""
    names = {pk: name for pk, name, _amount in eligible}
    drawn = Counter(player_group_key(groups[pk]) for pk, _n, _a in eligible if pk in groups)
    return {
        # The groups with two or more players in this draw, kept apart unless listed as shared.
        "groups": sum(1 for count in drawn.values() if count > 1),
        "shared": [
            {
                "group": s.group,
                "players": s.players,
                "tables": len(tables),
                "at": [
                    {"table": last + t + 1, "names": [names[pk] for pk in ids]}
                    for t, ids in sorted(s.at.items())
                ],
            }
            for s in shared
        ],
    }


@service_transaction
def seating_draw(*, day: Day, seed: str | None = None, by: Actor | None) -> SeatingDraw:
    """Draw the day's tables for every eligible player (qualified, not seated, able to afford
    ``table_min`` plus the house fee; each brings ``min(balance - fee, table_max)``; checked in,
    when the day's check-in window says so: ``players.checkin``); everyone else is listed with
    the reason (a qualifier not checked in: a no-show). Nothing is seated until the draw is
    applied. A day is drawn while it is scheduled or open, once the day before it has closed:
    from that close's qualifiers and nobody else."""
    day = day_for_play(day.pk)
    if day.status not in (Day.Status.SCHEDULED, Day.Status.OPEN):
        refuse_unless_open(day, "seating draws")
    refuse_until_day_before_closed(day, "the seating draw")
    seed = (seed or "").strip() or secrets.token_hex(8)
    if len(seed) > 64:
        raise ServiceError(
            "invalid_seed", "A seed is at most 64 characters.", details={"field": "seed"}
        )
    # A player removed as registered by mistake is on no list (their name is free again): a
    # draw lists them neither as drawn nor as "withdrawn" beside someone of their name.
    players = list(
        Player.objects.filter(event=day.event, removed_at__isnull=True).order_by("name", "pk")
    )
    groups = {player.pk: player.group for player in players if player.group}
    eligible, excluded = _eligible(day, players)
    last = day.tables.order_by("-number").values_list("number", flat=True).first() or 0
    tables, shared = seating_plan_apart(players=eligible, seats=day.seats, seed=seed, groups=groups)
    plan = _plan(tables, last, day.seats, groups)
    apart = _apart(eligible, groups, tables, shared, last)
    draw = SeatingDraw.objects.create(
        day=day,
        seed=seed,
        plan=plan,
        apart=apart,
        excluded=excluded,
        created_by=by.user if by is not None and by.user_id else None,
    )
    audit_record(
        by=by,
        verb=Verb.SEATING_DRAW,
        subject=day,
        target=f"draw {draw.pk} of day {day.number}",
        data={
            "seed": seed,
            "tables": len(plan),
            "players": len(eligible),
            "excluded": len(excluded),
            "not_checked_in": sum(1 for e in excluded if e["reason"] == NOT_CHECKED_IN),
            "groups_sharing": len(shared),
        },
        event_id=day.event_id,
    )
    versions.event_changed(day.event_id)  # the hall's seat finder shows a pending draw
    return draw


@service_transaction
def seating_apply(*, draw: SeatingDraw, by: Actor | None) -> list[Table]:
    """Create the draw's tables and buy every player in at the planned seat and amount, on an
    open day. All or nothing: if one buy-in is refused, nothing is applied."""
    day_id = SeatingDraw.objects.values_list("day_id", flat=True).get(pk=draw.pk)
    day = day_for_change(day_id)  # the day, then the draw, then the players (sorted)
    draw = SeatingDraw.objects.select_for_update(no_key=True).get(pk=draw.pk)
    if draw.applied_at is not None:
        raise Conflict("draw_applied", f"Draw {draw.seed} was already applied.")
    refuse_unless_open(day, "seating")
    planned_players = sorted({int(e["player"]) for p in draw.plan for e in p["seats"]})
    list(
        Player.objects.select_for_update(no_key=True).filter(pk__in=planned_players).order_by("pk")
    )
    created: list[Table] = []
    numbers: dict[int, int] = {}
    for planned in draw.plan:
        wanted = int(planned["table"])
        free = not day.tables.filter(number=wanted).exists()
        table = table_create(day=day, number=wanted if free else None, by=by)
        numbers[wanted] = table.number
        created.append(table)
        for entry in planned["seats"]:
            player = Player.objects.get(pk=entry["player"])
            seat_buy_in(
                table=table,
                seat_number=int(entry["seat"]),
                player=player,
                amount=int(entry["amount"]),
                by=by,
            )
    draw.applied_at = timezone.now()
    draw.save(update_fields=["applied_at"])
    # Each player who asked to hear their seat is told it once this commits (notify's outbox).
    for seat in Seat.objects.filter(table__in=created, left_at__isnull=True).select_related(
        "player", "table__day__event"
    ):
        notices().seat(seat=seat, moved=False)
    audit_record(
        by=by,
        verb=Verb.SEATING_APPLY,
        subject=day,
        target=f"draw {draw.pk} of day {day.number}",
        data={
            "seed": draw.seed,
            "tables": [t.number for t in created],
            "players": sum(len(p["seats"]) for p in draw.plan),
            "renumbered": {str(k): v for k, v in numbers.items() if k != v},
        },
        event_id=day.event_id,
    )
    return created


# Balancing ---------------------------------------------------------------------------------------


def _proposal_id(kind: str, moves: list[dict[str, Any]]) -> str:
    digest = hashlib.sha1(
        json.dumps([kind, moves], sort_keys=True).encode(), usedforsecurity=False
    ).hexdigest()
    return f"{kind}-{digest[:12]}"


def _seated_now(day: Day) -> tuple[list[Table], dict[int, list[Seat]]]:
    """The day's tables with at least one seated player (by number) and their seats now."""
    tables: list[Table] = list(
        Table.objects.filter(day=day)
        .annotate(seated=Count("seats", filter=Q(seats__left_at__isnull=True)))
        .filter(seated__gt=0)
        .order_by("number")
    )
    seats = (
        Seat.objects.filter(table__in=tables, left_at__isnull=True)
        .select_related("player")
        .order_by("table__number", "number")
    )
    at: dict[int, list[Seat]] = {t.pk: [] for t in tables}
    for seat in seats:
        at[seat.table_id].append(seat)
    return tables, at


def _free_seat(taken: set[int], size: int) -> int | None:
    """The lowest seat number not taken (``None``: the table is full)."""
    return next((n for n in range(1, size + 1) if n not in taken), None)


def balance_proposals(*, day: Day) -> list[dict[str, Any]]:
    """What would even out the day's tables, from the players seated now (tables with at least
    one seated player): a move from the fullest table to the shortest when they differ by two or
    more; breaking the shortest table when everyone fits on one table fewer."""
    tables, at = _seated_now(day)
    if len(tables) < 2:
        return []
    taken: dict[int, set[int]] = {t.pk: {s.number for s in at[t.pk]} for t in tables}
    size = day.seats

    def free_seat(table: Table) -> int | None:
        return _free_seat(taken[table.pk], size)

    def move(seat: Seat, to: Table, number: int) -> dict[str, Any]:
        return {
            "seat_id": seat.pk,
            "player": seat.player_id,
            "name": seat.player.name,
            "from_table": next(t.number for t in tables if t.pk == seat.table_id),
            "to_table": to.number,
            "to_seat": number,
        }

    proposals: list[dict[str, Any]] = []
    count = {t.pk: len(at[t.pk]) for t in tables}
    fullest = max(tables, key=lambda t: (count[t.pk], -t.number))
    shortest = min(tables, key=lambda t: (count[t.pk], t.number))
    if count[fullest.pk] - count[shortest.pk] >= 2:
        mover = at[fullest.pk][-1]  # the highest seat at the fullest table
        number = free_seat(shortest)
        if number is not None:
            moves = [move(mover, shortest, number)]
            proposals.append(
                {
                    "id": _proposal_id("move", moves),
                    "kind": "move",
                    "description": (
                        f"Move {mover.player.name} from table {fullest.number} "
                        f"({counted(count[fullest.pk], 'player')}) to table {shortest.number} "
                        f"seat {number} ({counted(count[shortest.pk], 'player')})."
                    ),
                    "moves": moves,
                }
            )

    total = sum(count.values())
    if total <= (len(tables) - 1) * size:
        # The shortest table, the highest-numbered of equals, is broken.
        broken = min(tables, key=lambda t: (count[t.pk], -t.number))
        others = [t for t in tables if t.pk != broken.pk]
        load = {t.pk: count[t.pk] for t in others}
        moves = []
        for seat in at[broken.pk]:
            target = min(
                (t for t in others if load[t.pk] < size), key=lambda t: (load[t.pk], t.number)
            )
            number = free_seat(target)
            assert number is not None  # load < size
            taken[target.pk].add(number)
            load[target.pk] += 1
            moves.append(move(seat, target, number))
        where = ", ".join(
            f"{m['name']} to table {m['to_table']} seat {m['to_seat']}" for m in moves
        )
        proposals.append(
            {
                "id": _proposal_id("break", moves),
                "kind": "break",
                "description": (
                    f"Break table {broken.number} ({counted(count[broken.pk], 'player')}): {where}."
                ),
                "moves": moves,
            }
        )
    return proposals


@service_transaction
def seat_move(*, seat: Seat, to_table: Table, to_seat: int, by: Actor | None) -> Seat:
    """Move a seated player to a free seat at another table of the same day, between hands at
    both tables, with their stack: back to their balance (a leave), then onto the new seat (a
    buy-in without a house fee). The new seat keeps the original buy-in (what a re-buy repeats).
    Only on an open day."""
    seat = Seat.objects.select_related("player", "table").get(pk=seat.pk)
    # The domain's lock order: the day (shared), both tables in id order (no deadlock with a
    # move the other way), the seat, the player.
    day = day_for_play(seat.table.day_id)
    locked = {
        t.pk: t
        for t in Table.objects.select_for_update(no_key=True)
        .filter(pk__in={seat.table_id, to_table.pk})
        .order_by("pk")
    }
    seat = Seat.objects.select_for_update(no_key=True).get(pk=seat.pk)
    source, target = locked[seat.table_id], locked[to_table.pk]
    source.day = day
    player = Player.objects.select_for_update(no_key=True).get(pk=seat.player_id)
    if seat.left_at is not None:
        raise ServiceError("not_seated", f"{player} has left the table.")
    if target.day_id != source.day_id:
        raise ServiceError("different_day", "A player moves only between tables of the same day.")
    if target.pk == source.pk:
        raise ServiceError("same_table", f"{player} is already at table {source.number}.")
    refuse_unless_open(day, "moves")
    for table in (source, target):
        if table_in_play(table):
            raise Conflict(
                "hand_in_progress",
                f"A hand is being played at table {table.number}; move the player between hands.",
                details={"table": table.number},
            )
    if not isinstance(to_seat, int) or isinstance(to_seat, bool) or not 1 <= to_seat <= day.seats:
        raise ServiceError(
            "invalid_seat", f"Seats are numbered 1 to {day.seats}.", details={"field": "seat"}
        )
    if target.seats.filter(number=to_seat, left_at__isnull=True).exists():
        raise Conflict("seat_taken", f"Seat {to_seat} at table {target.number} is taken.")
    amount = seat_vacate(
        seat=seat,
        table=source,
        player=player,
        by=by,
        memo=f"moved from table {source.number} to table {target.number}",
    )
    new = Seat.objects.create(
        table=target,
        number=to_seat,
        player=player,
        buy_in=seat.buy_in,
        sitting_out=seat.sitting_out,
    )
    seat_record_sit(new, day.event_id)
    notices().seat(seat=new, moved=True)
    if amount:
        transfer_post(
            kind=Transfer.Kind.BUY_IN,
            source=account_player(player),
            target=account_stack(new),
            amount=amount,
            by=by,
            memo=f"moved from table {source.number}, no house fee",
        )
    versions.table_changed(source.pk, target.pk, standings=True)
    audit_record(
        by=by,
        verb=Verb.SEAT_MOVE,
        subject=new,
        data={
            "from_table": source.number,
            "from_seat": seat.number,
            "to_table": target.number,
            "to_seat": to_seat,
            "stack": amount,
        },
        event_id=day.event_id,
    )
    new.refresh_from_db()
    return new


@service_transaction
def balance_apply(*, day: Day, proposal_id: str, by: Actor | None) -> dict[str, Any]:
    """Apply one of the day's current balancing proposals (recomputed now), all its moves or
    none. The day and every table of it are locked first (in id order), so the proposal is
    recomputed from tables nobody can change meanwhile."""
    day = day_for_change(day.pk)
    refuse_unless_open(day, "table balancing")
    list(Table.objects.select_for_update(no_key=True).filter(day=day).order_by("pk"))
    proposal = next((p for p in balance_proposals(day=day) if p["id"] == proposal_id), None)
    if proposal is None:
        raise ServiceError(
            "unknown_proposal",
            "That proposal no longer applies (the tables have changed); look at them again.",
            details={"proposal": proposal_id},
        )
    moves = proposal["moves"]
    seats = sorted(m["seat_id"] for m in moves)
    list(Seat.objects.select_for_update(no_key=True).filter(pk__in=seats).order_by("pk"))
    players = sorted(m["player"] for m in moves)
    list(Player.objects.select_for_update(no_key=True).filter(pk__in=players).order_by("pk"))
    for m in moves:
        seat_move(
            seat=Seat.objects.get(pk=m["seat_id"]),
            to_table=Table.objects.get(day=day, number=m["to_table"]),
            to_seat=m["to_seat"],
            by=by,
        )
    audit_record(
        by=by,
        verb=Verb.TABLE_BALANCE,
        subject=day,
        target=f"day {day.number}",
        data={"proposal": proposal_id, "kind": proposal["kind"], "moves": proposal["moves"]},
        event_id=day.event_id,
    )
    return proposal


# A late arrival -----------------------------------------------------------------------------------


def late_arrival_seat(day: Day) -> tuple[Table, int, int] | None:
    """Where balancing would seat one more player now: the shortest table that plays (the
    lowest number of equals, as ``balance_proposals`` chooses the shortest) with a free seat,
    its lowest free seat, and how many sit there now (``None``: every table is full)."""
    tables, at = _seated_now(day)
    open_ = [t for t in tables if len(at[t.pk]) < day.seats]
    if not open_:
        return None
    shortest = min(open_, key=lambda t: (len(at[t.pk]), t.number))
    number = _free_seat({s.number for s in at[shortest.pk]}, day.seats)
    assert number is not None  # fewer than day.seats players
    return shortest, number, len(at[shortest.pk])


@service_transaction
def seat_late_arrival(*, day: Day, player: Player, by: Actor | None) -> Seat:
    """Seat a player who checked in after the draw was applied into the free seat balancing
    chooses (``late_arrival_seat``), bringing what the draw would have given them
    (``min(balance - fee, table_max)``; the buy-in's own refusals apply). The day and its
    tables are locked first (as ``balance_apply`` does), so two late arrivals at once never
    take one seat."""
    day = day_for_change(day.pk)
    refuse_unless_open(day, "late arrivals seated")
    list(Table.objects.select_for_update(no_key=True).filter(day=day).order_by("pk"))
    player = Player.objects.get(pk=player.pk)
    if player.event_id != day.event_id:
        raise ServiceError("not_in_event", f"{player} is not registered for this event.")
    if not CheckIn.objects.filter(day=day, player=player).exists():
        raise ServiceError(
            "not_checked_in",
            f"{player} has not checked in for day {day.number}: check them in first.",
            details={"player": player.pk},
        )
    seated = (
        Seat.objects.filter(player=player, left_at__isnull=True)
        .values_list("table__number", flat=True)
        .first()
    )
    if seated is not None:
        raise Conflict(
            "already_seated",
            f"{player} is already seated at table {seated}.",
            details={"player": player.pk, "table": seated},
        )
    where = late_arrival_seat(day)
    if where is None:
        raise ServiceError(
            "no_free_seat",
            f"Every table of day {day.number} is full: open a new table for {player}.",
            details={"day": day.number},
        )
    table, number, before = where
    needed = day.table_min + day.house_fee
    if player.balance < needed:
        raise ServiceError(
            "insufficient_balance",
            f"{player} has {player.balance}; a seat needs {needed} ({day.table_min} + house fee "
            f"{day.house_fee}).",
            details={"balance": player.balance, "needed": needed},
        )
    amount = min(player.balance - day.house_fee, day.table_max)
    seat = seat_buy_in(table=table, seat_number=number, player=player, amount=amount, by=by)
    audit_record(
        by=by,
        verb=Verb.SEAT_LATE_ARRIVAL,
        subject=seat,
        data={"table": table.number, "seat": number, "players": before, "amount": amount},
        event_id=day.event_id,
    )
    versions.event_changed(day.event_id)  # the hall's seat finder
    return seat
