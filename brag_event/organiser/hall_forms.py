"""The console's forms for the hall: an announcement, taking one down, the day's clock."""

from __future__ import annotations

from typing import Any

from django import forms

from brag_event.access.scoping import EventScopedChoiceField
from brag_event.core.words import at_most
from brag_event.events.hall import ANNOUNCEMENT_MAX
from brag_event.events.models import Event


class AnnouncementForm(forms.Form):
    text = forms.CharField(
        label="Announcement",
        max_length=ANNOUNCEMENT_MAX,
        error_messages={"max_length": at_most("An announcement", ANNOUNCEMENT_MAX)},
        widget=forms.TextInput(attrs={"size": 60, "autocomplete": "off"}),
        help_text="One line, shown on the hall's screen and every player's page until taken down.",
    )
    tell = forms.BooleanField(
        required=False,
        label="Also send it to the players who asked for announcements (email, notifications)",
    )


class FeedSettingsForm(forms.Form):
    delay_minutes = forms.IntegerField(
        label="Delay during play (minutes)",
        min_value=0,
        max_value=240,
        help_text="What happens at the tables appears in the public feed this much later.",
    )
    big_pot = forms.IntegerField(
        label="Big pots from",
        min_value=0,
        max_value=10**12,
        help_text="Pots of at least this amount appear in the feed; 0 for none.",
    )


class FeedEntryRemoveForm(forms.Form):
    entry = EventScopedChoiceField(model="notify.FeedEntry", widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["entry"].scope(event)  # type: ignore[attr-defined]


class AnnouncementRemoveForm(forms.Form):
    announcement = EventScopedChoiceField(model="events.Announcement", widget=forms.HiddenInput)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["announcement"].scope(event)  # type: ignore[attr-defined]


class DayClockForm(forms.Form):
    break_at = forms.TimeField(
        label="Next break at", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
    ends_at = forms.TimeField(
        label="Day ends at", required=False, widget=forms.TimeInput(attrs={"type": "time"})
    )
