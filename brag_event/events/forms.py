"""The day's form for the admin and the organisers' console.

Its rules are checked once, by the engine (``Day.clean`` → ``Rules.problems``); the problems the
form's own number fields find first (a negative amount, not a whole number) are said in the
engine's words too, so a problem reads the same wherever it is found."""

from __future__ import annotations

from django import forms

from brag_event.engine import rule_message

from .models import RULE_FIELDS, Day

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
