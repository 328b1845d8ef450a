"""The floor pages' inputs (``core.forms``: every page declares them)."""

from __future__ import annotations

from typing import Any

from django import forms

from brag_event.access.scoping import EventScopedMultipleChoiceField
from brag_event.core.forms import WholeNumberField
from brag_event.core.words import at_most
from brag_event.floor.models import Penalty
from brag_event.players.models import Player


class TakeForm(forms.Form):
    pass


class MisdealForm(forms.Form):
    reason = forms.CharField(
        label="Why is it a misdeal?",
        max_length=200,
        error_messages={"max_length": at_most("The reason", 200)},
    )


class RulingForm(forms.Form):
    what_happened = forms.CharField(
        label="What happened",
        max_length=500,
        error_messages={"max_length": at_most("What happened", 500)},
        widget=forms.Textarea,
    )
    players = EventScopedMultipleChoiceField(
        model="players.Player", label="Players involved", required=False
    )
    decision = forms.CharField(
        label="Decision",
        max_length=500,
        error_messages={"max_length": at_most("The decision", 500)},
        widget=forms.Textarea,
    )
    penalty = forms.ChoiceField(
        label="Penalty", required=False, choices=[("", "none"), *Penalty.Kind.choices]
    )
    missed_hands = WholeNumberField(
        label="Missed hands (for that penalty)", required=False, min_value=1, max_value=50
    )

    def __init__(self, *args: Any, event_id: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = self.fields["players"]
        players.scope(event_id, among=Player.objects.order_by("name"))  # type: ignore[attr-defined]
        players.label_from_instance = lambda p: p.name  # type: ignore[attr-defined]


class AwardConfirmForm(forms.Form):
    """A large pot's second confirmation: the first post asks, the button of the question
    ("Yes, confirm …", which sends ``confirm``) confirms."""

    confirm = forms.BooleanField(required=False)


class LiftForm(forms.Form):
    reason = forms.CharField(
        label="Why is it lifted?",
        max_length=200,
        error_messages={"max_length": at_most("The reason", 200)},
    )
