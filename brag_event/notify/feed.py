"""The event's public feed for followers (page, Atom, JSON: ``public.feed``), written from what
the floor already records: a day opened (the audit log), the big pots (settled hands over the
organiser's amount), players out (a player leaving a table with no chips), each close with its
top and its cut (the close's standings), a new leader at a close, and the announcements.

Entries of play wait ``delay_minutes`` (default 10) before they are shown, so the feed never
helps anyone at a table; nothing in it names a card — a pot says who won it and how much, never
with what (the cards a table showed are on the players' own pages after the day). An organiser
may take an entry down (audited). ``feed_refresh`` writes what is new since its last run, once
(the entries' keys are unique), from cursors kept with the feed's settings."""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone

from brag_event.audit.models import AuditEntry, Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.events.models import Day, DayClose, Event
from brag_event.hands.models import Hand
from brag_event.players.models import StandingSnapshot
from brag_event.tables.models import Seat

from .models import FeedEntry, FeedSettings

FEED_SIZE = 50  # the entries a page, Atom or JSON answer lists, newest first


def feed_settings(event_id: int) -> FeedSettings:
    """The event's feed settings (the defaults, unsaved, until an organiser sets them)."""
    return FeedSettings.objects.filter(event_id=event_id).first() or FeedSettings(event_id=event_id)


@service_transaction
def feed_settings_set(
    *, event: Event, delay_minutes: int, big_pot: int, by: Actor | None
) -> FeedSettings:
    """How long entries of play wait (0 to 240 minutes) and from what amount a pot is big (0:
    no pots in the feed)."""
    if not 0 <= delay_minutes <= 240:
        raise ServiceError("invalid_delay", "The delay is 0 to 240 minutes.")
    if big_pot < 0:
        raise ServiceError("invalid_amount", "A big pot's amount cannot be below 0.")
    found = FeedSettings.objects.select_for_update().get_or_create(event=event)[0]
    before = {"delay_minutes": found.delay_minutes, "big_pot": found.big_pot}
    found.delay_minutes, found.big_pot = delay_minutes, big_pot
    found.save(update_fields=["delay_minutes", "big_pot"])
    audit_record(
        by=by,
        verb=Verb.FEED_SETTINGS,
        subject=event,
        data={"before": before, "after": {"delay_minutes": delay_minutes, "big_pot": big_pot}},
        event_id=event.pk,
    )
    return found


@service_transaction
def feed_entry_remove(*, entry: FeedEntry, by: Actor | None) -> FeedEntry:
    """Take an entry down: it is shown nowhere again (the audit log keeps its words)."""
    found = FeedEntry.objects.select_for_update().get(pk=entry.pk)
    if found.removed_at is not None:
        raise ServiceError("already_removed", "That entry was already taken down.")
    found.removed_at = timezone.now()
    found.save(update_fields=["removed_at"])
    audit_record(
        by=by,
        verb=Verb.FEED_ENTRY_REMOVE,
        subject=found.event,
        target=f"feed entry: {found.text}"[:120],
        data={"entry": found.pk, "text": found.text},
        event_id=found.event_id,
    )
    return found


class _Entry:
    """Makes the feed's entries of ``event``: an entry of play is shown after the delay."""

    def __init__(self, event: Event, conf: FeedSettings) -> None:
        self.event = event
        self.delay = datetime.timedelta(minutes=conf.delay_minutes)

    def __call__(
        self, key: str, kind: str, text: str, at: datetime.datetime, *, play: bool
    ) -> FeedEntry:
        shown = at + self.delay if play else at
        return FeedEntry(event=self.event, key=key, kind=kind, text=text, at=at, shown_from=shown)


def _entries(
    event: Event, conf: FeedSettings, cursor: dict[str, int], removed: list[str]
) -> Iterator[FeedEntry]:
    entry = _Entry(event, conf)
    yield from _logged_entries(entry, cursor, removed)
    yield from _pot_entries(entry, conf, cursor)
    yield from _close_entries(entry, cursor)


def _logged_entries(
    entry: _Entry, cursor: dict[str, int], removed: list[str]
) -> Iterator[FeedEntry]:
    """The audit log: days opened, announcements, players leaving a table with nothing."""
    verbs = [Verb.DAY_OPEN, Verb.ANNOUNCEMENT_POST, Verb.ANNOUNCEMENT_REMOVE, Verb.SEAT_LEAVE]
    logged = AuditEntry.objects.filter(
        event_id=entry.event.pk, verb__in=verbs, pk__gt=cursor.get("audit", 0)
    ).order_by("pk")
    for row in logged.values("pk", "verb", "at", "data", "day_id", "seat_id"):
        cursor["audit"] = row["pk"]
        if row["verb"] == Verb.ANNOUNCEMENT_REMOVE:
            # An announcement taken down from the hall leaves the feed too.
            removed.append(f"announce-{(row['data'] or {}).get('announcement')}")
            continue
        made = _logged_entry(entry, row)
        if made is not None:
            yield made


def _logged_entry(entry: _Entry, row: Mapping[str, Any]) -> FeedEntry | None:
    if row["verb"] == Verb.DAY_OPEN and row["day_id"]:
        number = Day.objects.filter(pk=row["day_id"]).values_list("number", flat=True).first()
        return entry(
            f"open-{row['pk']}", "day", f"Day {number} is under way.", row["at"], play=False
        )
    if row["verb"] == Verb.ANNOUNCEMENT_POST:
        data = row["data"] or {}
        if not data.get("text"):
            return None
        key = f"announce-{data.get('announcement')}"
        return entry(key, "announcement", str(data["text"]), row["at"], play=False)
    if row["verb"] == Verb.SEAT_LEAVE and row["seat_id"]:
        if (row["data"] or {}).get("stack") != 0:
            return None
        seat = Seat.objects.select_related("player", "table").filter(pk=row["seat_id"]).first()
        if seat is None or seat.player.balance >= seat.table.day.table_min:
            return None  # a player who can buy in again is not out
        words = f"{seat.player.name} is out, leaving table {seat.table.number}."
        return entry(f"out-{row['pk']}", "out", words, row["at"], play=True)
    return None


def _pot_entries(entry: _Entry, conf: FeedSettings, cursor: dict[str, int]) -> Iterator[FeedEntry]:
    """Settled hands: the pots over the organiser's amount, who won them and how much."""
    event = entry.event
    hands = Hand.objects.filter(
        table__day__event=event, status=Hand.Status.SETTLED, pk__gt=cursor.get("hand", 0)
    ).order_by("pk")
    for hand in hands.select_related("table__day").only(
        "pk", "number", "seats", "result", "settled_at", "table__number", "table__day__number"
    ):
        cursor["hand"] = hand.pk
        if not conf.big_pot or not hand.result:
            continue
        names = {int(s["seat"]): str(s.get("player") or s.get("name")) for s in hand.seats}
        for i, pot in enumerate(hand.result.get("pots", [])):
            amount = int(pot.get("amount") or 0)
            if amount < conf.big_pot or not pot.get("winners"):
                continue
            who = " and ".join(names.get(int(w), f"seat {w}") for w in pot["winners"])
            words = (
                f"Day {hand.table.day.number}, table {hand.table.number}, hand {hand.number}: "
                f"{who} {'win' if len(pot['winners']) > 1 else 'wins'} a pot of {amount} "
                f"{event.currency}."
            )
            at = hand.settled_at or timezone.now()
            yield entry(f"pot-{hand.pk}-{i}", "pot", words, at, play=True)


def _close_entries(entry: _Entry, cursor: dict[str, int]) -> Iterator[FeedEntry]:
    """Closes: the top and the cut, and a new leader."""
    closes = DayClose.objects.filter(
        day__event=entry.event, status=DayClose.Status.DONE, pk__gt=cursor.get("close", 0)
    ).order_by("pk")
    for close in closes.select_related("day"):
        cursor["close"] = close.pk
        snap = StandingSnapshot.objects.filter(day=close.day, rank__gt=0).select_related("player")
        top = [s.player.name for s in snap.filter(rank=1).order_by("player__name")]
        qualified = snap.filter(qualified=True).count()
        at = close.finished_at or timezone.now()
        words = f"Day {close.day.number} is closed: {' and '.join(top) or 'nobody'} on top"
        words += f"; {qualified} qualified." if qualified else "."
        yield entry(f"close-{close.pk}", "close", words, at, play=False)
        if top and top != cursor.get("leader_names"):
            if cursor.get("leader_names"):
                lead = f"{' and '.join(top)} {'lead' if len(top) > 1 else 'leads'} the event now."
                yield entry(f"lead-{close.pk}", "lead", lead, at, play=False)
            cursor["leader_names"] = top  # type: ignore[assignment]


def feed_refresh(*, event_id: int) -> int:
    """Write the entries of what the floor recorded since the last run; how many are new. Runs
    one at a time per event (the settings' row lock)."""
    with transaction.atomic():
        FeedSettings.objects.get_or_create(event_id=event_id)
        conf = FeedSettings.objects.select_for_update().get(event_id=event_id)
        event = Event.objects.get(pk=event_id)
        cursor = dict(conf.cursor or {})
        removed: list[str] = []
        new = list(_entries(event, conf, cursor, removed))
        made = FeedEntry.objects.bulk_create(new, ignore_conflicts=True)
        if removed:
            FeedEntry.objects.filter(event=event, key__in=removed, removed_at=None).update(
                removed_at=timezone.now()
            )
        conf.cursor = cursor
        conf.save(update_fields=["cursor"])
        return len(made)


def feed_shown(*, event_id: int, now: datetime.datetime | None = None) -> list[FeedEntry]:
    """The entries a follower may see now, newest first."""
    now = now or timezone.now()
    return list(
        FeedEntry.objects.filter(
            event_id=event_id, shown_from__lte=now, removed_at__isnull=True
        ).order_by("-shown_from", "-pk")[:FEED_SIZE]
    )


def feed_version(*, event_id: int, now: datetime.datetime | None = None) -> str:
    """What the feed shows now, in one cheap query: the newest entry shown and how many are;
    it changes when an entry's delay passes, one is taken down, or one is written."""
    now = now or timezone.now()
    got: dict[str, Any] = FeedEntry.objects.filter(
        event_id=event_id, shown_from__lte=now, removed_at__isnull=True
    ).aggregate(last=Max("pk"), n=Count("pk"), at=Max("shown_from"))
    return f"{got['last'] or 0}.{got['n']}.{int(got['at'].timestamp()) if got['at'] else 0}"
