"""The console's page for the hall: announcements (post, take down) and the day's clock (next
break, end of the day), with a link to the hall's screen. Thin: forms, services, a page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone

from brag_event.core.errors import ServiceError
from brag_event.core.forms import bad_request, posted_form, takes
from brag_event.core.words import counted
from brag_event.events.hall import (
    announcement_post,
    announcement_remove,
    announcements_shown,
    day_clock_set,
)
from brag_event.events.models import Event
from brag_event.notify.feed import (
    feed_entry_remove,
    feed_settings,
    feed_settings_set,
)
from brag_event.notify.models import FeedEntry
from brag_event.notify.services import announcement_tell, outbox_summary
from brag_event.players.selectors import current_day

from .access import organiser_only
from .forms import service_error_on
from .hall_forms import (
    AnnouncementForm,
    AnnouncementRemoveForm,
    DayClockForm,
    FeedEntryRemoveForm,
    FeedSettingsForm,
)
from .views import actor

HALL_FORMS: dict[str, type[forms.Form]] = {
    "announce": AnnouncementForm,
    "remove": AnnouncementRemoveForm,
    "clock": DayClockForm,
    "feed": FeedSettingsForm,
    "feed_remove": FeedEntryRemoveForm,
}


@takes(post=HALL_FORMS)
@organiser_only
def hall(request: HttpRequest, event_id: int) -> HttpResponse:
    """Announcements and the day's clock for the hall's screen and the players' pages."""
    event = get_object_or_404(Event, pk=event_id)
    day = current_day(event)
    announce = AnnouncementForm()
    conf = feed_settings(event.pk)
    feed = FeedSettingsForm(initial={"delay_minutes": conf.delay_minutes, "big_pot": conf.big_pot})
    clock = DayClockForm(
        initial={"break_at": day.break_at, "ends_at": day.ends_at} if day else None
    )
    status = 200
    if request.method == "POST":
        which = posted_form(request, HALL_FORMS)
        if which is None:
            return bad_request(request)
        status = 400
        if which == "announce":
            announce = AnnouncementForm(request.POST)
            if announce.is_valid():
                try:
                    with transaction.atomic():  # the announcement and its notices, or neither
                        posted = announcement_post(
                            event=event, text=announce.cleaned_data["text"], by=actor(request)
                        )
                        told = 0
                        if announce.cleaned_data["tell"]:
                            told = announcement_tell(
                                event_id=event.pk, announcement_id=posted.pk, text=posted.text
                            )
                except ServiceError as err:
                    service_error_on(announce, err)
                else:
                    said = "Announced on the hall's screen and players' pages."
                    if announce.cleaned_data["tell"]:
                        said += f" Sent to {counted(told, 'player')} who asked for announcements."
                    messages.success(request, said)
                    return redirect("organiser:hall", event.pk)
        elif which == "remove":
            removing = AnnouncementRemoveForm(request.POST, event=event)
            if not removing.is_valid():
                return bad_request(request, removing)
            try:
                announcement_remove(
                    announcement=removing.cleaned_data["announcement"], by=actor(request)
                )
            except ServiceError as err:
                messages.error(request, err.message)
            else:
                messages.success(request, "Announcement taken down.")
            return redirect("organiser:hall", event.pk)
        elif which == "feed":
            feed = FeedSettingsForm(request.POST)
            if feed.is_valid():
                try:
                    feed_settings_set(event=event, **feed.cleaned_data, by=actor(request))
                except ServiceError as err:
                    service_error_on(feed, err)
                else:
                    messages.success(request, "The public feed's settings are saved.")
                    return redirect("organiser:hall", event.pk)
        elif which == "feed_remove":
            taking = FeedEntryRemoveForm(request.POST, event=event)
            if not taking.is_valid():
                return bad_request(request, taking)
            try:
                feed_entry_remove(entry=taking.cleaned_data["entry"], by=actor(request))
            except ServiceError as err:
                messages.error(request, err.message)
            else:
                messages.success(request, "Feed entry taken down.")
            return redirect("organiser:hall", event.pk)
        elif which == "clock":
            clock = DayClockForm(request.POST)
            if day is None:
                return bad_request(request)
            if clock.is_valid():
                try:
                    day_clock_set(
                        day=day,
                        break_at=clock.cleaned_data["break_at"],
                        ends_at=clock.cleaned_data["ends_at"],
                        by=actor(request),
                    )
                except ServiceError as err:
                    service_error_on(clock, err)
                else:
                    messages.success(request, f"Day {day.number}'s clock set.")
                    return redirect("organiser:hall", event.pk)
    context: dict[str, Any] = {
        "event": event,
        "day": day,
        "announcements": announcements_shown(event.pk),
        "announce": announce,
        "clock": clock,
        "feed": feed,
        "feed_entries": _feed_entries(event),
        "outbox": outbox_summary(event_id=event.pk),
        "now": timezone.now(),
    }
    return render(request, "organiser/hall.html", context, status=status)


def _feed_entries(event: Event) -> list[FeedEntry]:
    """The feed's latest entries, shown or still waiting, for taking one down (as written by
    the public feed's last read or Celery beat's ``feed.refresh``: this page writes nothing)."""
    return list(FeedEntry.objects.filter(event=event, removed_at__isnull=True)[:20])
