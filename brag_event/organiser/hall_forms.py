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
