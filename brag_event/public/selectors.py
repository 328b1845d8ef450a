"""Read side of the public pages: a player's day (seat, money, hands) and the chart of their
money through it. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Min, Q
from django.utils import timezone

from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.ledger.models import Account, Transfer
from brag_event.players.models import Player, Standing
from brag_event.tables.models import Seat

HANDS_SHOWN = 50


@dataclass(frozen=True)
class Point:
    """The player's money (balance plus table stacks) just after a movement."""

    at: datetime
    total: int
    kind: str  # "start", or the transfer's kind


def day_began(player: Player, day: Day) -> datetime | None:
    """When the player's day began: their first seat at a table of that day (the buy-in that
    recorded ``Standing.start_total`` came right after it)."""
    found: datetime | None = Seat.objects.filter(player=player, table__day=day).aggregate(
        at=Min("joined_at")
    )["at"]
    return found


def money_points(player: Player, day: Day) -> list[Point]:
    """The player's money through ``day``: the day's starting money (``Standing.start_total``)
    when their day began, then one point after every transfer touching their balance or any of
    their stacks during the day (a buy-in moves money between the two and leaves the total as
    it was; it is still a point). Empty when the player has not played that day."""
    standing = Standing.objects.filter(player=player, day=day).only("start_total").first()
    if standing is None:
        return []
    began = day_began(player, day)
    if began is None:  # a day begun without a seat: nothing moved
        return [Point(timezone.now(), standing.start_total, "start")]
    ended: datetime | None = Seat.objects.filter(
        player=player, table__day__event_id=day.event_id, table__day__number__gt=day.number
    ).aggregate(at=Min("joined_at"))["at"]
    mine = set(
        Account.objects.filter(
            Q(kind=Account.Kind.PLAYER, player=player)
            | Q(kind=Account.Kind.STACK, seat__player=player)
        ).values_list("id", flat=True)
    )
    points = [Point(began, standing.start_total, "start")]
    if not mine:
        return points
    moves = Transfer.objects.filter(
        Q(source_id__in=mine) | Q(target_id__in=mine),
        event_id=player.event_id,
        created_at__gte=began,
    )
    if ended is not None:
        moves = moves.filter(created_at__lt=ended)
    total = standing.start_total
    for source, target, amount, at, kind in moves.order_by("id").values_list(
        "source_id", "target_id", "amount", "created_at", "kind"
    ):
        if target in mine and source not in mine:
            total += amount
        elif source in mine and target not in mine:
            total -= amount
        points.append(Point(at, total, kind))
    return points


@dataclass(frozen=True)
class Chart:
    """An SVG line chart's geometry, drawn by the template."""

    width: int
    height: int
    path: str  # a step line through the points
    dots: list[dict[str, Any]]  # x, y, total, at, kind
    low: int
    high: int
    first: datetime | None
    last: datetime | None
    baseline_y: float  # where the day's starting money lies


def money_chart(points: list[Point], *, width: int = 640, height: int = 200) -> Chart:
    """Lay out ``points`` in a ``width`` × ``height`` box: time across (by the clock), money up;
    one dot per point, joined by a step line (money changes at a moment, then holds)."""
    pad_x, pad_y = 8.0, 12.0
    if not points:
        return Chart(width, height, "", [], 0, 0, None, None, height / 2)
    totals = [p.total for p in points]
    low, high = min(totals), max(totals)
    span_money = high - low or 1
    t0 = points[0].at.timestamp()
    span_time = points[-1].at.timestamp() - t0 or 1.0

    def x(p: Point) -> float:
        if len(points) == 1:
            return width / 2
        return round(pad_x + (p.at.timestamp() - t0) / span_time * (width - 2 * pad_x), 1)

    def y(total: int) -> float:
        if high == low:
            return height / 2
        return round(height - pad_y - (total - low) / span_money * (height - 2 * pad_y), 1)

    dots = [
        {"x": x(p), "y": y(p.total), "total": p.total, "at": p.at, "kind": p.kind} for p in points
    ]
    steps = [f"M{dots[0]['x']},{dots[0]['y']}"]
    for dot in dots[1:]:
        steps.append(f"H{dot['x']}V{dot['y']}")
    return Chart(
        width=width,
        height=height,
        path=" ".join(steps),
        dots=dots,
        low=low,
        high=high,
        first=points[0].at,
        last=points[-1].at,
        baseline_y=y(points[0].total),
    )


def hand_result_for(hand: Hand, player_id: int) -> dict[str, Any]:
    """What a hand did for one player, from ``hand.seats`` (their seat and stack before the
    ante) and ``hand.result`` (the pots' shares and the stacks after):

    * ``won``: they took ``amount`` from the pots (``net`` is that less what they put in);
    * ``lost``: they stayed to the end and took nothing: ``amount`` is what they put in;
    * ``folded``: they folded (``net``: the ante and whatever they had bet);
    * ``playing``: the hand is not settled yet."""
    seat = next((s for s in hand.seats or [] if s.get("player_id") == player_id), None)
    if seat is None:
        return {"outcome": "not dealt", "seat": None, "amount": 0, "net": 0}
    number = int(seat["seat"])
    if hand.status != Hand.Status.SETTLED or not hand.result:
        return {"outcome": "playing", "seat": number, "amount": 0, "net": 0}
    pots = hand.result.get("pots", [])
    won = sum(int(p.get("shares", {}).get(str(number), 0)) for p in pots)
    after = hand.result.get("stacks", {}).get(str(number))
    net = int(after) - int(seat.get("stack", 0)) if after is not None else won
    if won > 0:
        return {"outcome": "won", "seat": number, "amount": won, "net": net}
    contended = any(number in p.get("contenders", []) for p in pots)
    if contended:
        return {"outcome": "lost", "seat": number, "amount": -net, "net": net}
    return {"outcome": "folded", "seat": number, "amount": -net, "net": net}


def player_hands(player: Player, limit: int = HANDS_SHOWN) -> list[dict[str, Any]]:
    """The player's hands, latest first: day, table, hand number, when, and the result for
    them."""
    hands = (
        Hand.objects.filter(dealt_players=player)
        .select_related("table__day")
        .only(
            "number",
            "status",
            "seats",
            "result",
            "started_at",
            "settled_at",
            "table__number",
            "table__day__number",
        )
        .order_by("-started_at", "-id")[:limit]
    )
    return [
        {
            "id": h.pk,
            "day": h.table.day.number,
            "table": h.table.number,
            "number": h.number,
            "at": h.settled_at or h.started_at,
            **hand_result_for(h, player.pk),
        }
        for h in hands
    ]


def player_now(player: Player, day: Day | None) -> dict[str, Any]:
    """Seat, money and today's figures of a player."""
    seat = Seat.objects.filter(player=player, left_at__isnull=True).select_related("table").first()
    stack = seat.stack if seat else 0
    total = player.balance + stack
    standing = Standing.objects.filter(player=player, day=day).first() if day else None
    return {
        "seat": seat.number if seat else None,
        "table": seat.table.number if seat else None,
        "sitting_out": bool(seat and seat.sitting_out),
        "balance": player.balance,
        "stack": stack,
        "total": total,
        "change": total - standing.start_total if standing else 0,
        "played_today": bool(standing),
        "hands_played": standing.hands_played if standing else 0,
        "hands_won": standing.hands_won if standing else 0,
    }
