"""The standings: players ranked by the money they hold (their cached balance plus their
stacks at the tables), from the maintained ``Standing`` rows (never by summing the ledger); a
stack in a hand in play counts as it was when the hand began.

They read the players, the seats and the hands, so they sit above the hands (moved from
``players.selectors``; docs/architecture.md, "The domain's order")."""

from __future__ import annotations

from typing import Any

from django.db.models import Sum

from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.players.disqualified import disqualified_ids
from brag_event.players.models import Person, Player, Standing, StandingSnapshot
from brag_event.players.selectors import current_day, names_shown
from brag_event.tables.models import Seat


def _in_play(event: Event, day: Day | None) -> tuple[dict[int, int], set[int]]:
    """The players dealt into a hand in play: their stack as the hand began (before the ante),
    and those whose hand is on ``day`` (every day when ``None``)."""
    before: dict[int, int] = {}
    counted: set[int] = set()
    live = list(
        Hand.objects.filter(table__day__event=event, status=Hand.Status.IN_PROGRESS).values_list(
            "table__day_id", "seats"
        )
    )
    # A player disqualified out of the hand has left it with their stack, which is in their
    # balance already (RULES §4b): no stack "before the hand" is added for them.
    gone = set(
        Seat.objects.filter(
            pk__in=[s["seat_id"] for _d, seats in live for s in seats if s.get("dealt")],
            left_at__isnull=False,
        ).values_list("pk", flat=True)
    )
    for day_id, seats in live:
        for seat in seats:
            if seat.get("dealt"):
                if seat["seat_id"] not in gone:
                    before[seat["player_id"]] = int(seat["stack"])
                if day is None or day.pk == day_id:
                    counted.add(seat["player_id"])
    return before, counted


def standings(event: Event, day: Day | None = None) -> list[dict[str, Any]]:
    """Players ranked by money held (balance plus table stacks). With ``day``: that day's
    hands played and won, and the change since the player's day began; without: hands over the
    whole event, and the change over the current day.

    A hand in play counts when it ends: its players are shown with the stack they had before
    it and without it in their hands played, so the standings move when a hand settles, not
    with every bet (and the hall's hundreds of phones can be answered from one cached answer
    per settled hand — see ``tables.versions``).

    A past event imported from a results exchange file moved no money here: its standings are
    its days' results as the file gave them (``imported_standings``)."""
    if event.imported_at is not None:
        return imported_standings(event, day)
    stacks = dict(
        Seat.objects.filter(player__event=event, left_at__isnull=True)
        .values("player_id")
        .annotate(s=Sum("stack"))
        .values_list("player_id", "s")
    )
    before_hand, in_hand = _in_play(event, day)
    stacks.update(before_hand)
    seats = dict(
        Seat.objects.filter(player__event=event, left_at__isnull=True).values_list(
            "player_id", "table__number"
        )
    )
    today = day or current_day(event)
    started = dict(
        Standing.objects.filter(day=today, player__event=event).values_list(
            "player_id", "start_total"
        )
        if today
        else []
    )
    counted = Standing.objects.filter(player__event=event)
    if day is not None:
        counted = counted.filter(day=day)
    hands = {
        row["player_id"]: (row["played"], row["won"])
        for row in counted.values("player_id").annotate(
            played=Sum("hands_played"), won=Sum("hands_won")
        )
    }
    rows: list[dict[str, Any]] = []
    entries: list[dict[str, Any]] = [
        dict(p)
        for p in Player.objects.filter(event=event, removed_at__isnull=True).values(
            "id", "name", "balance", "name_key", "person__number", "group"
        )
    ]
    shown = names_shown(entries)
    for p in entries:
        stack = int(stacks.get(p["id"]) or 0)
        total = p["balance"] + stack
        played, won = hands.get(p["id"], (0, 0))
        played = int(played or 0) - (p["id"] in in_hand)
        start = started.get(p["id"])
        rows.append(
            {
                "player": p["id"],
                "name": shown[p["id"]],
                "balance": p["balance"],
                "stack": stack,
                "table": seats.get(p["id"]),
                "total": total,
                "change": total - start if start is not None else 0,
                "hands_played": played,
                "hands_won": int(won or 0),
            }
        )
    # A disqualified player is shown as such, below everyone and outside the ranking (RULES
    # §4b), so outside every qualification too.
    out = disqualified_ids(event)
    for row in rows:
        row["disqualified"] = row["player"] in out
    rows.sort(key=lambda r: (r["disqualified"], -r["total"], r["name"]))
    rank = 0
    previous: int | None = None
    for index, row in enumerate(rows, start=1):
        if row["disqualified"]:
            row["rank"] = None
            continue
        if row["total"] != previous:
            rank, previous = index, row["total"]
        row["rank"] = rank  # equal money, equal rank
    return rows


def imported_standings(event: Event, day: Day | None = None) -> list[dict[str, Any]]:
    """The standings of an imported past event (``Event.imported_at``): ``day``'s results
    (without: the last day's, with the hands of every day), as ``standings`` gives them; a
    result of rank 0 is a disqualified player's, outside the ranking."""
    last = day or event.days.order_by("-number").first()
    if last is None:
        return []
    snaps = list(
        StandingSnapshot.objects.filter(day=last, player__removed_at__isnull=True).values(
            "player_id",
            "rank",
            "total",
            "change",
            "hands_played",
            "hands_won",
            "player__name",
            "player__name_key",
            "player__person__number",
            "player__group",
        )
    )
    hands: dict[int, tuple[int, int]] = {}
    if day is None:
        hands = {
            row["player_id"]: (int(row["played"] or 0), int(row["won"] or 0))
            for row in StandingSnapshot.objects.filter(day__event=event)
            .values("player_id")
            .annotate(played=Sum("hands_played"), won=Sum("hands_won"))
        }
    shown = names_shown(
        [
            {
                "id": s["player_id"],
                "name": s["player__name"],
                "name_key": s["player__name_key"],
                "person__number": s["player__person__number"],
                "group": s["player__group"],
            }
            for s in snaps
        ]
    )
    rows = [
        {
            "player": s["player_id"],
            "name": shown[s["player_id"]],
            "balance": s["total"],
            "stack": 0,
            "table": None,
            "total": s["total"],
            "change": s["change"],
            "hands_played": hands.get(s["player_id"], (s["hands_played"], 0))[0],
            "hands_won": hands.get(s["player_id"], (0, s["hands_won"]))[1],
            "disqualified": s["rank"] == 0,
            "rank": s["rank"] or None,
        }
        for s in snaps
    ]
    rows.sort(key=lambda r: (r["disqualified"], r["rank"] or 0, r["name"]))
    return rows


def person_history(person: Person) -> list[dict[str, Any]]:
    """A person's events, newest first, each with its days and results: the entry's money now
    (balance plus table stacks), rank and whether withdrawn or removed; each day's closed
    result from its snapshot (rank, money, change, hands, qualified for the next day), or
    "not closed yet". Shared by the console's person page and the API."""
    entries = list(
        Player.objects.filter(person=person).select_related("event").order_by("-event__created_at")
    )
    snaps: dict[tuple[int, int], StandingSnapshot] = {
        (s.player_id, s.day_id): s
        for s in StandingSnapshot.objects.filter(player__in=entries).select_related("day")
    }
    qualified = set(
        Player.objects.filter(pk__in=[e.pk for e in entries])
        .filter(qualifications__isnull=False)
        .values_list("pk", "qualifications__day_id")
    )
    out: list[dict[str, Any]] = []
    for entry in entries:
        event = entry.event
        now = (
            next((r for r in standings(event) if r["player"] == entry.pk), None)
            if entry.removed_at is None
            else None
        )
        days = []
        for day in event.days.order_by("number"):
            snap = snaps.get((entry.pk, day.pk))
            days.append(
                {
                    "day": day.number,
                    "date": day.date,
                    "status": day.status,
                    "closed": snap is not None,
                    "rank": snap.rank if snap else None,
                    "total": snap.total if snap else None,
                    "change": snap.change if snap else None,
                    "hands_played": snap.hands_played if snap else None,
                    "qualified_next": snap.qualified if snap else None,
                    "entered": (entry.pk, day.pk) in qualified or snap is not None,
                }
            )
        out.append(
            {
                "player": entry.pk,
                "event": event.pk,
                "event_name": event.name,
                "currency": event.currency,
                "name": entry.name,
                "registered_at": entry.registered_at,
                "money": now["total"] if now else None,
                "rank": now["rank"] if now else None,
                "withdrawn": entry.withdrawn_at is not None,
                "removed": entry.removed_at is not None,
                "days": days,
            }
        )
    return out
