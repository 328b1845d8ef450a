"""The end-of-day count's forms (``closing.count``): a table's count, one field per seated
player; a ruling on a difference; the organiser's waiver."""

from __future__ import annotations

from typing import Any

from django import forms

from brag_event.access.scoping import EventScopedChoiceField
from brag_event.closing.count import REASON_MAX
from brag_event.closing.models import SeatCount
from brag_event.core.forms import WholeNumberField
from brag_event.core.words import at_most
from brag_event.engine import MONEY_MAX
from brag_event.tables.models import Seat, Table

SEATS_MAX = 10  # a seat's number runs from 1 to 10 (tables.Seat)


def _count_field(number: int) -> WholeNumberField:
    return WholeNumberField(
        label=f"Seat {number}",
        min_value=0,
        max_value=MONEY_MAX,
        required=False,
        error_messages={
            "required": "Enter the chips counted at this seat (0 if none).",
            "min_value": "A count is 0 or more.",
            "max_value": f"At most {MONEY_MAX:,}: no amount may be larger.",
            "invalid": "A count is a whole number of chips.",
        },
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )


class TableCountForm(forms.Form):
    """A table's physical count: a field for every seat (1 to 10), of which only the seated
    players' are shown and required. The recorded stacks are not shown: the count is blind."""

    def __init__(
        self, *args: Any, seats: list[Seat], names: dict[int, str] | None = None, **kwargs: Any
    ) -> None:
        """``names``: player id → the name as the event's lists say it (two Harvey Prices
        told apart, ``players.selectors.event_names_shown``)."""
        super().__init__(*args, **kwargs)
        seated = {s.number: s for s in seats}
        names = names or {}
        for n in range(1, SEATS_MAX + 1):
            name = f"seat_{n}"
            if n in seated:
                field = self.fields[name]
                field.required = True
                player = seated[n].player
                field.label = f"Seat {n} · {names.get(player.pk, player.name)}"
            else:
                del self.fields[name]

    def counts(self) -> dict[int, int]:
        return {
            int(name.removeprefix("seat_")): int(value) for name, value in self.cleaned_data.items()
        }


# A field for every seat a table can have (the page and the hostile-input test read them from
# ``base_fields``); each form keeps only its seated players'.
TableCountForm.base_fields.update({f"seat_{n}": _count_field(n) for n in range(1, SEATS_MAX + 1)})


class CountRulingForm(forms.Form):
    """A ruling on one seat's difference."""

    seat_count = EventScopedChoiceField(model="closing.SeatCount", widget=forms.HiddenInput)
    ruling = forms.ChoiceField(
        label="Ruling",
        choices=[
            ("accept", "The records stand (the count was wrong)"),
            ("correct", "Correct the stack to the count"),
        ],
        widget=forms.RadioSelect,
        error_messages={"required": "Choose a ruling."},
    )
    source = forms.ChoiceField(
        label="A stack raised takes its chips from",
        choices=[
            ("count", "the chips the count set aside"),
            ("house", "the house"),
        ],
        required=False,
        initial="count",
        widget=forms.RadioSelect,
    )
    reason = forms.CharField(
        label="Why (kept on the record)",
        max_length=REASON_MAX,
        error_messages={
            "required": "Say why, in a few words.",
            "max_length": at_most("The reason", REASON_MAX),
        },
        widget=forms.TextInput(attrs={"placeholder": "e.g. recounted twice; chips passed by hand"}),
    )

    def __init__(self, *args: Any, table: Table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat_count"].scope(  # type: ignore[attr-defined]
            table.day.event_id, among=SeatCount.objects.filter(table_count__table=table)
        )


class CountWaiveForm(forms.Form):
    """Closing the day without its count: the organiser's reason, and a yes."""

    reason = forms.CharField(
        label="Why the day closes without its count (kept in the audit log)",
        max_length=REASON_MAX,
        error_messages={
            "required": "Say why the count is waived.",
            "max_length": at_most("The reason", REASON_MAX),
        },
        widget=forms.TextInput(attrs={"placeholder": "e.g. the hall closes at midnight"}),
    )
    confirm = forms.BooleanField(
        label="Yes, close this day without counting the tables still to count",
        error_messages={"required": "Tick the box to confirm."},
    )
