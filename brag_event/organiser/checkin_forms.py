"""The check-in page's inputs: the day's window (its times in the event's zone, the zone the
page is shown in), the desk's search, a player checked in, a late arrival seated."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from brag_event.access.scoping import EventScopedChoiceField
from brag_event.core.words import at_most
from brag_event.events.models import Day
from brag_event.players.checkin import day_field_players

SEARCH_TEXT_MAX = 60


class CheckInWindowForm(forms.Form):
    opens_at = forms.DateTimeField(
        label="Check-in opens",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        error_messages={"invalid": "Give a date and a time, such as 2026-11-28 18:00."},
    )
    closes_at = forms.DateTimeField(
        label="Check-in closes",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        error_messages={"invalid": "Give a date and a time, such as 2026-11-28 18:30."},
    )
    draw_checked_in_only = forms.BooleanField(
        label="The seating draw seats only the players checked in", required=False
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens, closes = data.get("opens_at"), data.get("closes_at")
        if opens and closes and closes <= opens:
            self.add_error("closes_at", ValidationError("Check-in must close after it opens."))
        return data


class DeskQuery(forms.Form):
    """``?q=``: the desk's search, by name or membership number."""

    q = forms.CharField(
        label="Find a player",
        required=False,
        max_length=SEARCH_TEXT_MAX,
        error_messages={"max_length": at_most("A search", SEARCH_TEXT_MAX)},
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "autocomplete": "off",
                "placeholder": "name or membership number",
                "data-desk-search": "",
            }
        ),
    )


class _OnePlayer(forms.Form):
    player = EventScopedChoiceField(model="players.Player", widget=forms.HiddenInput)

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].scope(day.event_id, among=day_field_players(day))  # type: ignore[attr-defined]


class DeskCheckInForm(_OnePlayer):
    """A player of the day's field checked in at the desk."""


class LateSeatForm(_OnePlayer):
    """A player checked in after the draw, seated where balancing chooses."""
