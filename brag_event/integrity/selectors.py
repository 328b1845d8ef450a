"""What the integrity monitor reads from the database, turned into the plain data of ``facts``
and ``stats``; and what its pages show."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from itertools import groupby
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, Max, Q
from django.utils import timezone

from brag_event.events.models import Day, Event
from brag_event.floor.models import Misdeal
from brag_event.hands.models import ActionVoid, Hand, HandAction
from brag_event.hands.money import log_action, state_start
from brag_event.players.models import Player
from brag_event.tables.models import DealerShift, Table

from .facts import HandFacts, hand_facts
from .models import IntegrityFlag, IntegrityRun, RefusedEntry
from .stats import DealerEvent, DealerPace, dealer_figures

LOG_FIELDS = ("hand_id", "seq", "seat", "action", "amount", "hand_choice", "cards")
CHUNK = 2000


@dataclass
class EventData:
    """Everything the monitor needs about an event, as plain data."""

    hands: list[HandFacts] = field(default_factory=list)
    dealer_hands: dict[int, int] = field(default_factory=dict)
    dealer_events: list[DealerEvent] = field(default_factory=list)


def event_fingerprint(event: Event) -> str:
    """What a run depends on: an unchanged fingerprint means nothing new to look at."""
    hands = Hand.objects.filter(table__day__event=event, status=Hand.Status.SETTLED).aggregate(
        n=Count("id"), last=Max("id"), seq=Max("next_seq")
    )
    voids = ActionVoid.objects.filter(action__hand__table__day__event=event).aggregate(
        n=Count("id"), last=Max("id")
    )
    refused = RefusedEntry.objects.filter(table__day__event=event).aggregate(
        n=Count("id"), last=Max("id")
    )
    return "hands {n}/{last}/{seq} voids {vn}/{vl} refused {rn}/{rl}".format(
        n=hands["n"],
        last=hands["last"],
        seq=hands["seq"],
        vn=voids["n"],
        vl=voids["last"],
        rn=refused["n"],
        rl=refused["last"],
    )


def _settled(event: Event) -> Iterator[tuple[Hand, list[tuple[Any, ...]]]]:
    """Every settled hand of the event with its live (not voided) log, a chunk at a time."""
    hands = (
        Hand.objects.filter(table__day__event=event, status=Hand.Status.SETTLED)
        .exclude(misdeal__isnull=False)  # a misdealt hand's play does not count (issue 17)
        .only(
            "id",
            "table_id",
            "rules",
            "seats",
            "dealer_seat",
            "carried_pot",
            "carried_seat",
            "shuffle_before",
            "started_by_id",
        )
        .order_by("id")
    )
    ids = list(hands.values_list("id", flat=True))
    for start in range(0, len(ids), CHUNK):
        chunk = ids[start : start + CHUNK]
        rows = (
            HandAction.objects.filter(hand_id__in=chunk, void__isnull=True)
            .order_by("hand_id", "seq")
            .values_list(*LOG_FIELDS)
        )
        logs = {hand_id: list(group) for hand_id, group in groupby(rows, key=lambda r: r[0])}
        for hand in hands.filter(id__in=chunk):
            yield hand, logs.get(hand.pk, [])


def event_data(event: Event) -> EventData:
    """Replay every settled hand of the event into its facts; count each dealer's hands and
    mistakes. A hand's dealer is the person who started it on the tablet; a void counts
    against whoever entered the voided action (else the hand's dealer); a refused entry against
    whoever sent it."""
    data = EventData()
    days = dict(Table.objects.filter(day__event=event).values_list("id", "day_id"))
    for hand, log in _settled(event):
        players = {s["seat"]: s["player_id"] for s in hand.seats}
        facts = hand_facts(
            state_start(hand),
            [log_action(row[1:]) for row in log],
            hand=hand.pk,
            players=players,
            table=hand.table_id,
            dealer=hand.started_by_id,
            day=days[hand.table_id],
        )
        if facts is not None:
            data.hands.append(facts)
    data.dealer_hands, data.dealer_events = dealer_tallies(event)
    return data


def dealer_tallies(event: Event) -> tuple[dict[int, int], list[DealerEvent]]:
    """Each dealer's hands (those they started) and mistakes (voids, refused entries,
    misdeals), as ``event_data`` counts them, without replaying a hand."""
    data = EventData()
    started = (
        Hand.objects.filter(table__day__event=event, started_by__isnull=False)
        .values("started_by_id")
        .annotate(n=Count("id"))
    )
    data.dealer_hands = {r["started_by_id"]: r["n"] for r in started}
    for voided_by, dealt_by, hand_id in ActionVoid.objects.filter(
        action__hand__table__day__event=event
    ).values_list("action__entered_by_id", "action__hand__started_by_id", "action__hand_id"):
        who = voided_by if voided_by in data.dealer_hands else dealt_by
        if who is not None:
            data.dealer_events.append(DealerEvent(who, "voids", hand_id))
    for user_id, hand_id in RefusedEntry.objects.filter(
        table__day__event=event, status=400, user__isnull=False
    ).values_list("user_id", "hand_id"):
        data.dealer_events.append(DealerEvent(user_id, "refusals", hand_id))
    for dealt_by, hand_id in Misdeal.objects.filter(
        hand__table__day__event=event, hand__started_by__isnull=False
    ).values_list("hand__started_by_id", "hand_id"):
        data.dealer_events.append(DealerEvent(dealt_by, "misdeals", hand_id))
    return data.dealer_hands, data.dealer_events


GAP_MAX = 600.0
"""Seconds: a longer wait between two entries of a hand is a floor call or a break, not the
dealer's pace."""


def dealer_paces(event: Event, now: datetime | None = None) -> dict[int, DealerPace]:
    """Each dealer's clock in the event: the hours signed in at a table (their shifts; an open
    one up to ``now``, or up to its day's close) and the seconds between consecutive entries of
    the hands they started (waits over ``GAP_MAX`` left out)."""
    now = now or timezone.now()
    hours: dict[int, float] = {}
    for dealer, started, ended, closing in DealerShift.objects.filter(day__event=event).values_list(
        "dealer_id", "started_at", "ended_at", "day__closing__requested_at"
    ):
        # A shift left open when its day was asked to close ends there, not now.
        end = ended or (closing if closing is not None else now)
        hours[dealer] = hours.get(dealer, 0.0) + max(0.0, (end - started).total_seconds()) / 3600
    gaps: dict[int, list[float]] = {}
    last: tuple[int, Any] | None = None
    rows = (
        HandAction.objects.filter(hand__table__day__event=event, hand__started_by__isnull=False)
        .order_by("hand_id", "seq")
        .values_list("hand_id", "hand__started_by_id", "entered_at")
    )
    for hand_id, dealer, at in rows.iterator(chunk_size=5000):
        if last is not None and last[0] == hand_id:
            gap = (at - last[1]).total_seconds()
            if 0 <= gap <= GAP_MAX:
                gaps.setdefault(dealer, []).append(gap)
        last = (hand_id, at)
    dealers = set(hours) | set(gaps)
    return {d: DealerPace(hours.get(d), tuple(gaps.get(d, ()))) for d in dealers}


def dealer_figures_of(event: Event, alpha: float) -> list[dict[str, Any]]:
    """The per-dealer page's rows: each dealer's figures and tests (``stats.dealer_figures``)
    with their name, busiest first."""
    hands, events = dealer_tallies(event)
    paces = dealer_paces(event)
    for dealer in paces:
        hands.setdefault(dealer, 0)
    rows = dealer_figures(hands, events, paces, alpha)
    names = {
        u.pk: u.get_full_name() or u.get_username()
        for u in get_user_model().objects.filter(pk__in=list(rows))
    }
    out = [{"dealer": names.get(d, "an unknown dealer"), **row} for d, row in rows.items()]
    return sorted(out, key=lambda r: (-r["hands"], r["dealer"]))


# ---------------------------------------------------------------------------- labels


@dataclass
class Labels:
    """Names for the ids in findings: players, tables, days and dealers of an event."""

    players: dict[int, str]
    tables: dict[int, str]
    days: dict[int, str]
    dealers: dict[int, str]

    def of(self, kind: str, key: Any) -> str:
        if kind == "table":
            return self.tables.get(key, f"table #{key}")
        if kind == "day":
            return self.days.get(key, f"day #{key}")
        if kind == "dealer":
            return self.dealers.get(key, "an unknown dealer") if key is not None else "no dealer"
        return self.players.get(key, f"player #{key}")


def event_labels(event: Event) -> Labels:
    tables = {
        t.pk: f"table {t.number} on day {t.day.number}"
        for t in Table.objects.filter(day__event=event).select_related("day")
    }
    dealers = dict(
        get_user_model()
        .objects.filter(Q(dealer_tables__day__event=event) | Q(pk__in=_dealer_ids(event)))
        .distinct()
        .values_list("pk", "username")
    )
    return Labels(
        players=dict(Player.objects.filter(event=event).values_list("pk", "name")),
        tables=tables,
        days={d.pk: f"day {d.number}" for d in Day.objects.filter(event=event)},
        dealers=dealers,
    )


def _dealer_ids(event: Event) -> list[int]:
    return list(
        Hand.objects.filter(table__day__event=event, started_by__isnull=False)
        .values_list("started_by_id", flat=True)
        .distinct()
    )


# ---------------------------------------------------------------------------- the pages


def latest_run(event: Event) -> IntegrityRun | None:
    return IntegrityRun.objects.filter(event=event).order_by("-at", "-id").first()


def run_flags(run: IntegrityRun) -> list[IntegrityFlag]:
    return list(run.flags.order_by("p_value", "id"))


def flagged_hands(flags: list[IntegrityFlag]) -> dict[int, Hand]:
    """The hands behind the flags, with their table and day, by id (one query)."""
    ids = {h for f in flags for h in f.hands}
    return {h.pk: h for h in Hand.objects.filter(pk__in=ids).select_related("table__day")}


def refusals_by_dealer(event: Event) -> list[dict[str, Any]]:
    """Refused entries per sender: those that count (the entry was wrong) and stale screens."""
    rows = (
        RefusedEntry.objects.filter(table__day__event=event)
        .values("user__username")
        .annotate(wrong=Count("id", filter=Q(status=400)), stale=Count("id", filter=Q(status=409)))
        .order_by("user__username")
    )
    return [
        {"dealer": r["user__username"] or "—", "wrong": r["wrong"], "stale": r["stale"]}
        for r in rows
    ]


def hand_refusals(hand: Hand) -> list[RefusedEntry]:
    return list(RefusedEntry.objects.filter(hand=hand).select_related("user").order_by("at", "id"))
