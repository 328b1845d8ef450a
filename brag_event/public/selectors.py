"""Read side of the public pages: a player's day (seat, money, hands) and the chart of their
money through it. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Min, Q
from django.utils import timezone

from brag_event.engine import evaluate
from brag_event.events.models import Day
from brag_event.hands.models import Hand
from brag_event.hands.selectors import cards_shown_to
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
    hand: int | None = None  # the hand the transfer belongs to (None: a buy-in, a fee, …)


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
    for source, target, amount, at, kind, hand in moves.order_by("id").values_list(
        "source_id", "target_id", "amount", "created_at", "kind", "hand_id"
    ):
        if target in mine and source not in mine:
            total += amount
        elif source in mine and target not in mine:
            total -= amount
        points.append(Point(at, total, kind, hand))
    return points


@dataclass(frozen=True)
class HandPoint:
    """The player's money after their ``n``-th hand of the day (``n`` = 0: the day's start).
    Money moved between hands (a fee, a re-buy) counts in the next hand's point."""

    n: int
    total: int
    hand: int | None


def money_by_hand(points: list[Point]) -> list[HandPoint]:
    """``points`` (``money_points``) as one point per hand the player played that day."""
    if not points:
        return []
    out = [HandPoint(0, points[0].total, None)]
    for point in points[1:]:
        if point.hand is None:
            continue
        if out[-1].hand == point.hand:
            out[-1] = HandPoint(out[-1].n, point.total, point.hand)
        else:
            out.append(HandPoint(len(out), point.total, point.hand))
    return out


def nice_ticks(low: int, high: int, count: int = 4) -> list[int]:
    """Round values for an axis from ``low`` to ``high`` (1, 2 or 5 × a power of ten apart)."""
    span = max(high - low, 1)
    raw = span / count
    power = 10 ** max(len(str(int(raw))) - 1, 0)
    step = next((m * power for m in (1, 2, 5, 10) if m * power >= raw), 10 * power)
    first = -(-low // step) * step
    return list(range(first, high + 1, step))


@dataclass(frozen=True)
class Chart:
    """An SVG line chart of the player's money by hand, laid out for the template: axes with
    their labels, the day's starting money as a dashed line, the current value marked."""

    width: int
    height: int
    plot: dict[str, float]  # left, right, top, bottom of the plotting area
    path: str  # a step line through the points
    dots: list[dict[str, Any]]  # x, y, n, total, hand
    x_ticks: list[dict[str, Any]]  # x, label
    y_ticks: list[dict[str, Any]]  # y, label
    start_y: float  # where the day's starting money lies
    start: int
    now: dict[str, Any]  # x, y, total of the last point
    hands: int  # how many hands are plotted
    low: int
    high: int


CHAR_WIDTH = 8.5  # px a digit or comma takes at the chart's 14 px type (tabular figures)
LABEL_GAP = 17.0  # px between the baselines of two labels on the right, so they never touch
NOW_RADIUS = 7  # px: the "now" marker's radius (the template's circle.now)
LABEL_OFFSET = NOW_RADIUS + 7  # px from the plot's right edge to the labels: clear of the marker


def money_chart(points: list[Point], *, width: int = 480, height: int = 260) -> Chart:
    """Lay out the player's money by hand in a ``width`` × ``height`` box: hands across (the
    day's start, then hand 1, 2, …), money up; a step line (money changes with a hand, then
    holds) with a dot per hand. No two labels overlap: the left margin is as wide as the
    longest money label, the y-axis title sits above the axis, and the "start" and "now"
    labels on the right are kept at least a line apart."""
    by_hand = money_by_hand(points)
    if not by_hand:
        return Chart(width, height, {}, "", [], [], [], 0, 0, {}, 0, 0, 0)
    totals = [p.total for p in by_hand]
    low, high = min(totals), max(totals)
    if high == low:
        low, high = low - 10, high + 10
    pad = (high - low) * 0.08
    y_low, y_high = low - pad, high + pad
    values = nice_ticks(int(y_low + 0.999), int(y_high))
    widest = max((len(f"{v:,}") for v in values), default=1)
    right_words = max(len(f"start {by_hand[0].total:,}"), len(f"now {totals[-1]:,}"))
    left = float(round(12 + widest * CHAR_WIDTH))
    right = float(round(width - 4 - LABEL_OFFSET - right_words * CHAR_WIDTH))
    top, bottom = 34.0, height - 46.0
    hands = by_hand[-1].n

    def x(n: int) -> float:
        return round(left + n / max(hands, 1) * (right - left), 1)

    def y(total: float) -> float:
        return round(bottom - (total - y_low) / (y_high - y_low) * (bottom - top), 1)

    dots = [
        {"x": x(p.n), "y": y(p.total), "n": p.n, "total": p.total, "hand": p.hand} for p in by_hand
    ]
    steps = [f"M{dots[0]['x']},{dots[0]['y']}"]
    for dot in dots[1:]:
        steps.append(f"H{dot['x']}V{dot['y']}")
    # At most as many labels across as fit ("start" is the widest: 5 characters).
    room = max(1, int((right - left) // (6 * CHAR_WIDTH)))
    every = max(1, -(-hands // room))
    x_ticks = [
        {"x": x(n), "label": "start" if n == 0 else str(n)} for n in range(0, hands + 1, every)
    ]
    y_ticks = [{"y": y(v), "label": f"{v:,}"} for v in values if top <= y(v) <= bottom]
    start_y = y(by_hand[0].total)
    now: dict[str, Any] = dict(dots[-1])
    # The two labels on the right: apart by a line at least, the lower one below.
    now_label, start_label = float(now["y"]), start_y
    if abs(now_label - start_label) < LABEL_GAP:
        middle = (now_label + start_label) / 2
        below, above = middle + LABEL_GAP / 2, middle - LABEL_GAP / 2
        if now["total"] >= by_hand[0].total:
            now_label, start_label = above, below
        else:
            now_label, start_label = below, above
    now["label_y"], now["start_label_y"] = round(now_label, 1), round(start_label, 1)
    now["label_x"], now["radius"] = right + LABEL_OFFSET, NOW_RADIUS
    return Chart(
        width=width,
        height=height,
        plot={"left": left, "right": right, "top": top, "bottom": bottom},
        path=" ".join(steps),
        dots=dots,
        x_ticks=x_ticks,
        y_ticks=y_ticks,
        start_y=start_y,
        start=by_hand[0].total,
        now=now,
        hands=hands,
        low=min(totals),
        high=max(totals),
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


SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}


def card_faces(cards: str) -> list[dict[str, str]]:
    """``"Th As"`` as faces to draw: ``[{"rank": "10", "suit": "♥", "red": "red"}, …]``."""
    faces = []
    for code in cards.split():
        rank, suit = code[:-1].upper(), code[-1].lower()
        faces.append(
            {
                "rank": "10" if rank == "T" else rank,
                "suit": SUITS.get(suit, suit),
                "colour": "red" if suit in "dh" else "black",
            }
        )
    return faces


def shown_to(player: Player, hand: Hand, day_closed: bool) -> list[dict[str, Any]]:
    """The hands of ``hand`` this player may see (``hands.selectors.cards_shown_to`` decides),
    their own first, each with its name and what it is."""
    visible = cards_shown_to(player.pk, hand, day_closed=day_closed)
    if not visible:
        return []
    names = {int(s["seat"]): s.get("player", "") for s in hand.seats or []}
    mine = next((int(s["seat"]) for s in hand.seats or [] if s.get("player_id") == player.pk), 0)
    shown = [
        {
            "seat": seat,
            "name": names.get(seat, f"seat {seat}"),
            "own": seat == mine,
            "cards": cards,
            "faces": card_faces(cards),
            "hand": evaluate(cards).describe(),
        }
        for seat, cards in visible.items()
    ]
    shown.sort(key=lambda h: (not h["own"], h["seat"]))
    return shown


def player_hands(player: Player, limit: int = HANDS_SHOWN) -> list[dict[str, Any]]:
    """The player's hands, latest first: day, table, hand number, when, the result for them,
    and — once the day is over — the cards shown at the table that they may see."""
    hands = (
        Hand.objects.filter(dealt_players=player)
        .select_related("table__day")
        .only(
            "number",
            "status",
            "seats",
            "result",
            "rules",
            "dealer_seat",
            "carried_pot",
            "carried_seat",
            "shuffle_before",
            "started_at",
            "settled_at",
            "table__number",
            "table__day__number",
            "table__day__status",
        )
        .order_by("-started_at", "-id")[:limit]
    )
    out = []
    for h in hands:
        closed = h.table.day.status == Day.Status.CLOSED
        out.append(
            {
                "id": h.pk,
                "day": h.table.day.number,
                "table": h.table.number,
                "number": h.number,
                "at": h.settled_at or h.started_at,
                "day_closed": closed,
                "shown": shown_to(player, h, closed),
                **hand_result_for(h, player.pk),
            }
        )
    return out


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
