"""The console's series forms: a series' name and points table, an event to add or take out."""

from __future__ import annotations

from typing import Any

from django import forms

from brag_event.core.errors import ServiceError
from brag_event.core.words import at_most
from brag_event.events.models import Event
from brag_event.series.points import points_parse
from brag_event.series.services import NAME_MAX


class PointsField(forms.CharField):
    """The points per finishing place as typed, "25, 18, 15, 12, 10": a list of whole numbers,
    first place first (``series.points.points_parse`` says what it refuses, in words)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 600)
        kwargs.setdefault("label", "Points by finishing place")
        kwargs.setdefault(
            "help_text", "First place first, separated by commas: 25, 18, 15, 12, 10, 8, 6, 4, 2, 1"
        )
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Any:
        text = super().to_python(value)
        if not text:
            return text
        try:
            return points_parse(text)
        except ServiceError as err:
            raise forms.ValidationError(err.message, code=err.code) from None


class SeriesForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_MAX,
        label="Name of the series",
        error_messages={"max_length": at_most("A series' name", NAME_MAX)},
    )
    points = PointsField(initial="25, 18, 15, 12, 10, 8, 6, 4, 2, 1")


class SeriesPointsForm(forms.Form):
    points = PointsField()


class SeriesEventForm(forms.Form):
    event = forms.ModelChoiceField(
        queryset=Event.objects.order_by("-created_at"),
        label="Event",
        empty_label="Choose an event",
        error_messages={"invalid_choice": "That event no longer exists: choose another."},
    )
