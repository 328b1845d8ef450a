"""The day's form for the admin and the organisers' console, and the event's for the admin.

Its rules are checked once, by the engine (``Day.clean`` → ``Rules.problems``); the problems the
form's own number fields find first (a negative amount, not a whole number) are said in the
engine's words too, so a problem reads the same wherever it is found."""

from __future__ import annotations

from django import forms

from brag_event.core.errors import ServiceError
from brag_event.engine import rule_message

from .models import RULE_FIELDS, Day, Event
from .states import refuse_count_setting_mid_close

# The number fields' own checks, in the engine's words (Django's validators, its messages).
RULE_ERROR_MESSAGES = {
    name: {
        "min_value": rule_message(name, "negative"),
        "invalid": rule_message(name, "whole"),
        "required": rule_message(name, "required"),
    }
    for name in RULE_FIELDS
}


class DayForm(forms.ModelForm):
    """A day with its rules; each rule problem is reported on the field it is about."""

    class Meta:
        model = Day
        fields = "__all__"
        error_messages = RULE_ERROR_MESSAGES


class EventForm(forms.ModelForm):
    """An event in the admin. Whether its closes wait for the chip count cannot change while a
    day's close is under way (``states.refuse_count_setting_mid_close``): said on the field."""

    class Meta:
        model = Event
        fields = "__all__"

    def clean_count_at_close(self) -> bool:
        value = bool(self.cleaned_data.get("count_at_close"))
        event = self.instance
        if event.pk is not None and value != Event.objects.get(pk=event.pk).count_at_close:
            try:
                refuse_count_setting_mid_close(event)
            except ServiceError as err:
                raise forms.ValidationError(err.message, code=err.code) from None
        return value
