"""The event set-up's forms: a new event (from the FLASH preset or from scratch) and a day's date
and rules. Each rule set is checked in ``clean()`` by the engine's rules
(``Rules.problems``), its refusal shown on the field it names."""

from __future__ import annotations

from typing import Any

from django import forms

from brag_event.core.forms import LongSelect, WholeNumberField
from brag_event.core.words import at_most
from brag_event.engine import MONEY_MAX, Rules
from brag_event.events.models import DAY_SETTINGS, RULE_FIELDS
from brag_event.events.setup import CURRENCY_MAX, DAYS_MAX, NAME_MAX, RULE_LABELS
from brag_event.events.zones import default_time_zone, zone_choices

from .forms import money_field

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")

# The form's sections, in the order the page shows them.
RULE_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Betting", ("ante", "min_bet", "max_bet", "max_raise", "see_cost", "pot_limit")),
    ("The table", ("table_min", "table_max", "house_fee", "seats")),
    ("Re-buys", ("rebuy_needs_consent", "rebuy_pays_fee")),
    ("Options", ("blind_allowed", "cover_allowed", "rake_percent", "rake_cap")),
    ("The floor", ("award_confirm_from",)),
)

HELP = {
    "ante": "Paid by every dealt-in player before the deal.",
    "min_bet": "Smallest first bet of a hand.",
    "max_bet": "Largest first bet of a hand.",
    "max_raise": "Largest increase over the current stake.",
    "house_fee": "Paid to the house on every buy-in (and re-buy, if ticked below).",
    "table_min": "Least a player sits down with (after the fee).",
    "table_max": "Most a player sits down with (after the fee).",
    "rake_cap": "Empty: no cap.",
    "award_confirm_from": "A pot of this amount or more waits for a second member of staff "
    "(a supervisor who did not deal it) before the next hand. Empty: never.",
}


def _money(name: str, *, required: bool = True) -> WholeNumberField:
    field = money_field(label=RULE_LABELS[name], required=required)
    field.help_text = HELP.get(name, "")
    return field


class RulesFields(forms.Form):
    """Every rule of a day (``RULE_FIELDS``), checked whole by the engine's rules."""

    ante = _money("ante")
    min_bet = _money("min_bet")
    max_bet = _money("max_bet")
    max_raise = _money("max_raise")
    see_cost = forms.ChoiceField(
        label=RULE_LABELS["see_cost"],
        choices=[("double", "double the stake (blind players half)"), ("equal", "the stake")],
    )
    pot_limit = forms.BooleanField(label=RULE_LABELS["pot_limit"], required=False)
    table_min = _money("table_min")
    table_max = _money("table_max")
    house_fee = _money("house_fee")
    seats = WholeNumberField(label=RULE_LABELS["seats"], min_value=2, max_value=10)
    rebuy_needs_consent = forms.BooleanField(
        label=RULE_LABELS["rebuy_needs_consent"], required=False
    )
    rebuy_pays_fee = forms.BooleanField(label=RULE_LABELS["rebuy_pays_fee"], required=False)
    blind_allowed = forms.BooleanField(label=RULE_LABELS["blind_allowed"], required=False)
    cover_allowed = forms.BooleanField(label=RULE_LABELS["cover_allowed"], required=False)
    rake_percent = WholeNumberField(label=RULE_LABELS["rake_percent"], min_value=0, max_value=100)
    rake_cap = _money("rake_cap", required=False)
    award_confirm_from = WholeNumberField(
        label=RULE_LABELS["award_confirm_from"],
        min_value=1,
        max_value=MONEY_MAX,
        required=False,
        help_text=HELP["award_confirm_from"],
        error_messages={
            "min_value": "At least 1 (or leave it empty: never).",
            "max_value": f"At most {MONEY_MAX:,}: no amount may be larger.",
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rake_cap"].initial = None
        for name in ("ante", "min_bet", "max_bet", "max_raise", "house_fee"):
            self.fields[name].initial = None

    def clean_award_confirm_from(self) -> int | None:
        value = self.cleaned_data.get("award_confirm_from")
        return None if value is None else int(value)

    def clean_rake_cap(self) -> int | None:
        value = self.cleaned_data.get("rake_cap")
        return None if value is None else int(value)

    def rules(self) -> dict[str, Any]:
        """The rules and the floor's settings as the services take them (after
        ``is_valid()``)."""
        return {name: self.cleaned_data[name] for name in DAY_SETTINGS}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if any(name in self.errors for name in RULE_FIELDS):
            return cleaned  # a field is wrong already: say that first
        # The engine's one check (``Rules.problems``): each problem on the field it is about,
        # in the engine's own sentence, as the model's ``clean`` shows it in the admin.
        shown: set[tuple[str, str]] = set()
        for problem in Rules.problems({name: cleaned.get(name) for name in RULE_FIELDS}):
            where = problem.field if problem.field in self.fields else None
            if (str(where), problem.message) not in shown:
                shown.add((str(where), problem.message))
                self.add_error(where, problem.message)
        return cleaned

    def groups(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in RULE_GROUPS]


class LargePotForm(forms.Form):
    """The large-pot amount of a day in play (``floor.services.day_award_from_change``): the
    floor's procedure, changed during the day; why, for the log."""

    award_confirm_from = WholeNumberField(
        label=RULE_LABELS["award_confirm_from"],
        min_value=1,
        max_value=MONEY_MAX,
        required=False,
        help_text=HELP["award_confirm_from"],
        error_messages={
            "min_value": "At least 1 (or leave it empty: never).",
            "max_value": f"At most {MONEY_MAX:,}: no amount may be larger.",
        },
    )
    reason = forms.CharField(
        label="Why (for the log)",
        required=False,
        max_length=200,
        error_messages={"max_length": at_most("The reason", 200)},
        widget=forms.TextInput(attrs={"placeholder": "e.g. the ante went up"}),
    )

    def clean_award_confirm_from(self) -> int | None:
        value = self.cleaned_data.get("award_confirm_from")
        return None if value is None else int(value)


class DaySetupForm(RulesFields):
    """A scheduled day's date and rules, and why they change."""

    date = forms.DateField(label="Date", required=False, widget=DATE_INPUT)
    reason = forms.CharField(
        label="Why (for the log)",
        required=False,
        max_length=200,
        error_messages={"max_length": at_most("The reason", 200)},
        widget=forms.TextInput(attrs={"placeholder": "e.g. the house fee agreed with the club"}),
    )


def _event_name() -> forms.CharField:
    return forms.CharField(
        label="Event name",
        max_length=NAME_MAX,
        error_messages={"max_length": at_most("An event's name", NAME_MAX)},
    )


def _currency() -> forms.CharField:
    return forms.CharField(
        label="Name of the money",
        max_length=CURRENCY_MAX,
        error_messages={"max_length": at_most("The money's name", CURRENCY_MAX)},
        initial="MB",
        help_text="e.g. MB",
    )


def _start() -> forms.DateField:
    return forms.DateField(
        label="Date of day 1", required=False, widget=DATE_INPUT, help_text="The days follow it."
    )


def _time_zone() -> forms.ChoiceField:
    return forms.ChoiceField(
        label="Time zone",
        choices=zone_choices,
        widget=LongSelect,
        required=False,  # not sent: the settings' TIME_ZONE
        initial=default_time_zone,
        help_text="Where the event is played: every page and export shows its times in it.",
        error_messages={"invalid_choice": "Choose a time zone from the list (Europe/London, say)."},
    )


def starting_money_field() -> WholeNumberField:
    """An event's starting money: required, never taken as 0 when left empty."""
    field = money_field(label="Starting money of each player", required=True)
    field.help_text = "What a player is registered with unless you say otherwise."
    field.error_messages["required"] = "Say how much money each player starts with."
    return field


class EventPresetForm(forms.Form):
    """A new event with the FLASH event sheet's three days."""

    name = _event_name()
    currency = _currency()
    start = _start()
    time_zone = _time_zone()
    starting_money = starting_money_field()


SCRATCH_INITIAL: dict[str, Any] = {
    "seats": 6,
    "rake_percent": 0,
    "see_cost": "double",
    "blind_allowed": True,
    "cover_allowed": True,
    "rebuy_needs_consent": True,
    "rebuy_pays_fee": True,
}


class EventScratchForm(RulesFields):
    """A new event from scratch: how many days, and the rules every day starts with (each day's
    own rules are then changed on its page until it opens)."""

    name = _event_name()
    currency = _currency()
    start = _start()
    time_zone = _time_zone()
    starting_money = starting_money_field()
    days = WholeNumberField(
        label="Days",
        min_value=1,
        max_value=DAYS_MAX,
        initial=3,
        error_messages={
            "min_value": "An event has at least one day.",
            "max_value": f"An event has at most {DAYS_MAX} days.",
        },
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("initial", SCRATCH_INITIAL)
        super().__init__(*args, **kwargs)
