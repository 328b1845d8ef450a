"""The public pages' query strings, and the one button a player presses (check in)."""

from __future__ import annotations

from django import forms

from brag_event.core.forms import WholeNumberField


class StandingsQuery(forms.Form):
    """``?day=N``: one day's standings (the whole event without it); ``?big=1``: the hall's big
    screen."""

    day = WholeNumberField(min_value=1, max_value=1000, required=False)
    big = forms.BooleanField(required=False)


class SeriesQuery(forms.Form):
    """``?big=1``: a series' standings on the hall's big screen."""

    big = forms.BooleanField(required=False)


class PlayerCheckInForm(forms.Form):
    """A player checking in from their own page: the button alone (the link is the key)."""
