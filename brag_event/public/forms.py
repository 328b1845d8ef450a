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


class NoticesForm(forms.Form):
    """What a player wants to hear, and where (their own page's settings)."""

    form = forms.CharField(required=False, widget=forms.HiddenInput)
    email = forms.EmailField(
        required=False,
        max_length=254,
        label="Email address",
        help_text="Leave it empty to get no emails.",
    )
    kinds = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Tell me about",
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        from brag_event.notify.models import Kind

        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["kinds"].choices = Kind.choices  # type: ignore[attr-defined]


class PushForm(forms.Form):
    """The browser's Web Push subscription, sent by the page's script (empty endpoint: stop)."""

    form = forms.CharField(required=False, widget=forms.HiddenInput)
    endpoint = forms.URLField(required=False, max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(required=False, max_length=200)
    auth = forms.CharField(required=False, max_length=100)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("endpoint") and not (data.get("p256dh") and data.get("auth")):
            raise forms.ValidationError("This browser's subscription came without its keys.")
        return data


class UnsubscribeForm(forms.Form):
    """RFC 8058's one-click body (``List-Unsubscribe=One-Click``), or the page's button."""

    List_Unsubscribe = forms.CharField(required=False, max_length=20)
