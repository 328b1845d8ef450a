"""What the organisers say to the hall: announcements (shown on the hall's screen and on every
player's page until taken down) and the day's clock (the next break, the day's end). Each change
is logged and bumps ``Event.version``, so the pages that show it are rendered again."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction
from brag_event.core.words import at_most

from .models import Announcement, Day, Event
from .states import day_for_change, refuse_if_imported, refuse_once_closing
from .versions import event_changed
from .zones import zone

ANNOUNCEMENT_MAX = 200  # characters: one line, readable from across the hall


@service_transaction
def announcement_post(*, event: Event, text: str, by: Actor | None) -> Announcement:
    """Show ``text`` on the hall's screen and the players' pages, newest first; ``empty_text``
    or ``text_too_long`` (more than ``ANNOUNCEMENT_MAX`` characters) changes nothing."""
    refuse_if_imported(event, "its announcements")
    text = " ".join(text.split())
    if not text:
        raise ServiceError("empty_text", "Type the announcement first.")
    if len(text) > ANNOUNCEMENT_MAX:
        raise ServiceError(
            "text_too_long",
            f"{at_most('An announcement', ANNOUNCEMENT_MAX)[:-1]}; this one has {len(text)}.",
        )
    found = Announcement.objects.create(
        event=event, text=text, posted_by=by.user if by is not None and by.user_id else None
    )
    audit_record(
        by=by,
        verb=Verb.ANNOUNCEMENT_POST,
        subject=found,
        target=f"announcement: {text}",
        data={"announcement": found.pk, "text": text},
        event_id=event.pk,
    )
    event_changed(event.pk)
    return found


@service_transaction
def announcement_remove(*, announcement: Announcement, by: Actor | None) -> Announcement:
    """Take an announcement down (it stays in the audit log); ``already_removed`` if it is."""
    found = Announcement.objects.select_for_update(no_key=True).get(pk=announcement.pk)
    if found.removed_at is not None:
        raise ServiceError("already_removed", "That announcement was already taken down.")
    found.removed_at = timezone.now()
    found.save(update_fields=["removed_at"])
    audit_record(
        by=by,
        verb=Verb.ANNOUNCEMENT_REMOVE,
        subject=found,
        target=f"announcement: {found.text}",
        data={"announcement": found.pk},
        event_id=found.event_id,
    )
    event_changed(found.event_id)
    return found


def announcements_shown(event_id: int) -> list[Announcement]:
    """The announcements not taken down, newest first."""
    return list(Announcement.objects.filter(event_id=event_id, removed_at__isnull=True)[:5])


@service_transaction
def day_clock_set(
    *, day: Day, break_at: dt.time | None, ends_at: dt.time | None, by: Actor | None
) -> Day:
    """Set (or clear, with None) the time of the day's next break and of its end, in the
    event's time zone; the hall's screen counts down to them. Refused once the day closes;
    ``break_after_end`` if the break would come after the end."""
    day = day_for_change(day.pk)
    refuse_once_closing(day, "clock")
    if break_at is not None and ends_at is not None and break_at >= ends_at:
        raise ServiceError("break_after_end", "The break must come before the day's end.")
    day.break_at, day.ends_at = break_at, ends_at
    day.save(update_fields=["break_at", "ends_at"])
    audit_record(
        by=by,
        verb=Verb.DAY_CLOCK,
        subject=day,
        target=f"day {day.number}",
        data={
            "break_at": break_at.strftime("%H:%M") if break_at else None,
            "ends_at": ends_at.strftime("%H:%M") if ends_at else None,
        },
        event_id=day.event_id,
    )
    event_changed(day.event_id)
    return day


def clock_moment(day: Day, event: Event, at: dt.time | None) -> dt.datetime | None:
    """``at`` on the day's date (today's date in the event's zone when the day has none), as an
    aware datetime in the event's zone."""
    if at is None:
        return None
    where = zone(event.time_zone)
    date = day.date or timezone.now().astimezone(where).date()
    return dt.datetime.combine(date, at, tzinfo=where)
