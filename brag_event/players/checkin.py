"""Check-in for a day: the organiser opens a window (its times in the event's zone); a player of
the day's field checks in from their own page while it is open, or at the desk from the moment
it opens until the day closes (a late arrival); the day's seating draw then seats only the
players checked in, if the window says so (``tables.seating``), and lists the rest.

A check-in is once a player a day: the day's row lock serialises two desks (or a desk and the
player's phone) checking the same player in, the second finds the first one's row and answers
with it (nothing written twice), and a unique constraint holds behind it. Each check-in is an
entry on the day's own chain (``events.day_chain.day_chain_append``): it decides who is seated, so
its root covers it once the day closes (docs/integrity.md)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.engine import chain as engine_chain
from brag_event.events import day_chain as chain
from brag_event.events.day_chain import day_chain_append
from brag_event.events.models import Day
from brag_event.events.states import day_for_change
from brag_event.events.zones import zone

from . import versions
from .models import CheckIn, CheckInWindow, Player
from .notices import notices
from .qualify import day_field

CHECK_IN = "check_in"  # a check-in's kind on its day's own chain


def check_in_fields(c: CheckIn) -> dict[str, Any]:
    """A check-in as chained onto its day's own chain (``check_ins_source`` reads the same
    back from the row)."""
    return {
        "player": c.player_id,
        "how": c.how,
        "by": c.by_id,
        "at": c.at.isoformat(),
    }


def _check_in_rows(days: QuerySet[Day]) -> Iterator[chain.DayEntry]:
    rows = (
        CheckIn.objects.filter(day__in=days.order_by().values("id"))
        .order_by("day_id", "seq")
        .values("day_id", "seq", "hash", "player_id", "how", "by_id", "at")
    )
    for row in rows.iterator(chunk_size=2000):
        seq = row["seq"] if row["seq"] is not None else 0
        fields = {
            "player": row["player_id"],
            "how": row["how"],
            "by": row["by_id"],
            "at": row["at"].isoformat(),
        }
        yield row["day_id"], seq, engine_chain.entry_content(CHECK_IN, seq, fields), row["hash"]


def check_ins_source() -> chain.DaySource:
    """The players checked in, on their days' own chains."""
    return chain.DaySource("check-ins", _check_in_rows)


def _said(day: Day, moment: datetime) -> str:
    """A moment in the event's zone, as people read it: "Sat 28 Nov 18:30 GMT"."""
    local = timezone.localtime(moment, zone(day.event.time_zone))
    return f"{local:%a} {local.day} {local:%b %H:%M %Z}"


def _refuse_unless_before_close(day: Day, what: str) -> None:
    if day.status in (Day.Status.SCHEDULED, Day.Status.OPEN):
        return
    code = "day_closing" if day.status == Day.Status.CLOSING else "day_closed"
    raise ServiceError(
        code,
        f"Day {day.number} is {day.get_status_display().lower()}: {what} is over.",
        details={"day": day.number, "status": day.status},
    )


@service_transaction
def checkin_window_set(
    *,
    day: Day,
    opens_at: datetime,
    closes_at: datetime,
    draw_checked_in_only: bool = True,
    by: Actor | None,
) -> CheckInWindow:
    """Open (or move) ``day``'s check-in window: players check in from their own page between
    ``opens_at`` and ``closes_at``; with ``draw_checked_in_only`` the day's draw seats only the
    players checked in. Until the day starts closing; the check-ins already made stay."""
    day = day_for_change(day.pk)
    _refuse_unless_before_close(day, "check-in")
    if closes_at <= opens_at:
        raise ServiceError(
            "checkin_window_backwards",
            f"Check-in must close after it opens ({_said(day, opens_at)}).",
            details={"field": "closes_at"},
        )
    now = timezone.now()
    window, created = CheckInWindow.objects.select_for_update().get_or_create(
        day=day,
        defaults={
            "opens_at": opens_at,
            "closes_at": closes_at,
            "draw_checked_in_only": draw_checked_in_only,
            "set_by": by.user if by is not None and by.user_id else None,
            "set_at": now,
        },
    )
    if not created:
        window.opens_at, window.closes_at = opens_at, closes_at
        window.draw_checked_in_only = draw_checked_in_only
        window.set_by = by.user if by is not None and by.user_id else None
        window.set_at = now
        window.save()
    versions.event_changed(day.event_id)  # the hall's banner, the players' pages
    # The players of the day's field who asked to hear it, told once this commits (and again
    # only if the times move).
    notices().checkin(
        day=day,
        player_ids=day_field(day),
        opens=_said(day, opens_at),
        closes=_said(day, closes_at),
    )
    # Forgotten now and again once committed (a poll between the two read the old times).
    cache.delete(_times_key(day.event_id))
    transaction.on_commit(lambda: cache.delete(_times_key(day.event_id)))
    audit_record(
        by=by,
        verb=Verb.CHECKIN_WINDOW,
        subject=day,
        target=f"check-in for day {day.number}",
        data={
            "day": day.number,
            "opens": _said(day, opens_at),
            "closes": _said(day, closes_at),
            "only_checked_in": draw_checked_in_only,
            "moved": not created,
        },
        event_id=day.event_id,
    )
    return window


@service_transaction
def player_check_in(
    *, day: Day, player: Player, how: str, by: Actor | None
) -> tuple[CheckIn, bool]:
    """Check ``player`` in for ``day``: ``how`` is ``page`` (their own page, while the window
    is open) or ``desk`` (staff, from the window's opening until the day closes: a late
    arrival too). Returns the check-in and whether it was made now — a player already checked
    in is answered with the first check-in, nothing written again (two desks at once)."""
    if how not in CheckIn.How.values:
        raise ValueError(f"how is page or desk, not {how!r}")
    day = day_for_change(day.pk)
    player = Player.objects.get(pk=player.pk)
    if player.event_id != day.event_id:
        raise ServiceError("not_in_event", f"{player} is not registered for this event.")
    found = CheckIn.objects.filter(day=day, player=player).first()
    if found is not None:
        return found, False
    _refuse_unless_before_close(day, "check-in")
    window = CheckInWindow.objects.filter(day=day).first()
    if window is None:
        raise ServiceError(
            "checkin_not_open",
            f"Check-in for day {day.number} has not been opened by the organisers.",
            details={"day": day.number},
        )
    now = timezone.now()
    if now < window.opens_at:
        raise ServiceError(
            "checkin_not_open",
            f"Check-in for day {day.number} opens at {_said(day, window.opens_at)}.",
            details={"day": day.number},
        )
    if how == CheckIn.How.PAGE and now >= window.closes_at:
        raise ServiceError(
            "checkin_closed",
            f"Check-in for day {day.number} closed at {_said(day, window.closes_at)}: "
            "see the tournament desk.",
            details={"day": day.number},
        )
    if player.pk not in day_field(day):
        raise ServiceError(
            "not_in_field",
            f"{player} does not play day {day.number} (not among its qualifiers, withdrawn or "
            "disqualified).",
            details={"player": player.pk, "day": day.number},
        )
    made = CheckIn.objects.create(
        day=day,
        player=player,
        how=how,
        at=now,
        by=by.user if by is not None and by.user_id else None,
    )
    # On the day's own record: it decides who the draw seats.
    made.seq, made.hash = day_chain_append(day=day, kind=CHECK_IN, fields=check_in_fields(made))
    made.save(update_fields=["seq", "hash"])
    day.save(update_fields=["record_seq", "record_head"])
    versions.event_changed(day.event_id)
    audit_record(
        by=by,
        verb=Verb.PLAYER_CHECK_IN,
        subject=player,
        day=day,
        target=f"{player} for day {day.number}",
        data={"day": day.number, "how": how},
        event_id=day.event_id,
    )
    return made, True


# ------------------------------------------------------------------------------- reading


@dataclass(frozen=True)
class CheckInState:
    """A day's check-in as its pages show it."""

    day: Day
    window: CheckInWindow | None
    checked_in: int
    field: int
    now: datetime

    @property
    def open_now(self) -> bool:
        w = self.window
        return (
            w is not None
            and self.day.status in (Day.Status.SCHEDULED, Day.Status.OPEN)
            and w.opens_at <= self.now < w.closes_at
        )

    @property
    def not_yet(self) -> bool:
        return self.window is not None and self.now < self.window.opens_at

    @property
    def draw_only_checked_in(self) -> bool:
        return self.window is not None and self.window.draw_checked_in_only


def checkin_state(day: Day) -> CheckInState:
    window = CheckInWindow.objects.filter(day=day).first()
    return CheckInState(
        day=day,
        window=window,
        checked_in=CheckIn.objects.filter(day=day).count() if window else 0,
        field=len(day_field(day)) if window else 0,
        now=timezone.now(),
    )


def checked_in_ids(day: Day) -> set[int] | None:
    """The players the draw may seat when ``day``'s window says so (``None``: no such rule)."""
    if not CheckInWindow.objects.filter(day=day, draw_checked_in_only=True).exists():
        return None
    return set(CheckIn.objects.filter(day=day).values_list("player_id", flat=True))


SEARCH_MAX = 40  # how many players the desk's search shows at once


def desk_search(day: Day, text: str) -> QuerySet[Player]:
    """The day's field found by the desk: every word a part of the name, or the membership
    number (or its start), first by name."""
    players = Player.objects.filter(pk__in=day_field(day)).select_related("person")
    words = text.split()
    for word in words:
        if word.isascii() and word.isdigit():
            players = players.filter(Q(person__number__startswith=word) | Q(name__icontains=word))
        else:
            players = players.filter(name__icontains=word)
    return players.order_by("name", "pk")


def day_field_players(day: Day) -> QuerySet[Player]:
    """The day's field as a queryset (what the desk may check in)."""
    return Player.objects.filter(pk__in=day_field(day))


def no_shows(day: Day) -> QuerySet[Player]:
    """The day's field not checked in."""
    return (
        Player.objects.filter(pk__in=day_field(day))
        .exclude(checkins__day=day)
        .select_related("person")
        .order_by("name", "pk")
    )


# ------------------------------------------------------------------- the hall and the players


def checkin_day(event_id: int) -> Day | None:
    """The day players check in for now: the first day of the event not yet closing that has a
    check-in window (between days, the next day's)."""
    return (
        Day.objects.filter(
            event_id=event_id,
            status__in=(Day.Status.SCHEDULED, Day.Status.OPEN),
            checkin_window__isnull=False,
        )
        .select_related("event", "checkin_window")
        .order_by("number")
        .first()
    )


def _times_key(event_id: int) -> str:
    return f"checkin-times-{event_id}"


TIMES_SECONDS = 300  # how long the windows' times are kept in the cache (forgotten when set)


def checkin_phase(event_id: int) -> str:
    """Where the clock stands against the event's check-in windows ("" without any; one letter
    a window: b before, o open, a after): part of the hall's and the players' pages' versions,
    so that a page kept by version shows "Check in now" from the minute the window opens and
    not after it closes, without a change to any row. The windows' times are kept in the
    cache (a poll of every phone reads them), forgotten whenever a window is set."""
    key = _times_key(event_id)
    times = cache.get(key)
    if times is None:
        times = [
            (o.timestamp(), c.timestamp())
            for o, c in CheckInWindow.objects.filter(day__event_id=event_id)
            .order_by("day__number")
            .values_list("opens_at", "closes_at")
        ]
        cache.set(key, times, TIMES_SECONDS)
    now = timezone.now().timestamp()
    return "".join("b" if now < o else "o" if now < c else "a" for o, c in times)


@dataclass(frozen=True)
class PlayerCheckIn:
    """What a player's own page says of check-in."""

    day: Day
    state: CheckInState
    done: CheckIn | None
    plays: bool  # in the day's field


def player_checkin(player: Player) -> PlayerCheckIn | None:
    """The check-in a player's page shows (``None``: no window for a coming day)."""
    day = checkin_day(player.event_id)
    if day is None:
        return None
    done = CheckIn.objects.filter(day=day, player=player).first()
    return PlayerCheckIn(
        day=day,
        state=checkin_state(day),
        done=done,
        plays=done is not None or player.pk in day_field(day),
    )
