"""The organisers' forms: every field an organiser fills in, with its type, range and message.

The pages render them field by field (errors in place, what was typed kept); services still check
everything again, and a service's refusal is shown on the field it names."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile

from brag_event.access.scoping import (
    Events,
    EventScopedChoiceField,
    EventScopedMultipleChoiceField,
    rows_of_events,
)
from brag_event.access.selectors import dealers_of
from brag_event.closing.exchange.services import MAX_BYTES as RESULTS_FILE_BYTES
from brag_event.core.errors import ServiceError
from brag_event.core.forms import WholeNumberField
from brag_event.core.words import at_most
from brag_event.engine import MONEY_MAX
from brag_event.events.models import Day, Event
from brag_event.players.csv_file import MAX_ROWS as MAX_IMPORT_ROWS
from brag_event.players.imports import DIFFERENT, NEW, SAME, SKIP, row_question
from brag_event.players.models import CLUB_MAX, ImportBatch, Player
from brag_event.players.names import (
    GROUP_MAX,
    GROUP_TOO_LONG,
    NAME_MAX,
    NAME_TOO_LONG,
    player_group_clean,
    player_name_clean,
)
from brag_event.players.people import NUMBER_MAX, person_described, person_matches
from brag_event.players.roster import SEARCH_MAX
from brag_event.players.selectors import event_names_shown
from brag_event.tables.models import SeatingDraw, Table

MAX_IMPORT_BYTES = 512 * 1024
USER = settings.AUTH_USER_MODEL


# Too long a value: each limit said its one way (core.words.at_most), as the services say it.
NAME_LIMIT = {"max_length": NAME_TOO_LONG}  # the field takes more: the limit is on the clean name
REASON_LIMIT = {"max_length": at_most("The reason", 200)}


def money_field(*, label: str, minimum: int = 0, required: bool = False) -> WholeNumberField:
    return WholeNumberField(
        label=label,
        min_value=minimum,
        max_value=MONEY_MAX,
        required=required,
        initial=None if required else 0,
        error_messages={
            "max_value": f"At most {MONEY_MAX:,}: no amount may be larger.",
            "min_value": f"At least {minimum}.",
        },
    )


def service_error_on(form: forms.BaseForm, err: ServiceError) -> None:
    """Show a service's refusal on the field it names, else above the form."""
    name = err.details.get("field")
    form.add_error(name if name in form.fields else None, err.message)


def group_field() -> forms.CharField:
    return forms.CharField(
        label="Club or group",
        required=False,
        max_length=GROUP_MAX * 3,  # before it is cleaned; the limit is GROUP_MAX
        error_messages={"max_length": GROUP_TOO_LONG},
        help_text="Optional. Players of one club or household are drawn to different tables. "
        "Left empty for someone already registered: their club.",
    )


def group_cleaned(form: forms.Form) -> str:
    group = player_group_clean(form.cleaned_data.get("group") or "")
    if len(group) > GROUP_MAX:
        raise ValidationError(GROUP_TOO_LONG, code="max_length")
    return group


def number_field(*, label: str = "Membership number", required: bool = False) -> WholeNumberField:
    return WholeNumberField(
        label=label,
        min_value=1,
        max_value=NUMBER_MAX,
        required=required,
        error_messages={
            "max_value": f"A membership number is at most {NUMBER_MAX:,}.",
            "min_value": "A membership number is at least 1.",
        },
    )


RETURNING_NEW = "new"


class PlayerRegisterForm(forms.Form):
    """Entering a person into the event: someone new (name, and a membership number and club
    if known), or a returning person — found by number, or chosen among the people whose name
    looks the same (``returning``, offered once the name has been looked up)."""

    name = forms.CharField(label="Name", max_length=NAME_MAX * 3, error_messages=NAME_LIMIT)
    starting_money = money_field(label="Starting money", required=True)
    number = number_field(label="Membership number (optional)")
    # One club field: someone new's club (Person.club) and this entry's group (Player.group);
    # left empty for a returning person, the entry's group is their club (docs/people.md).
    group = group_field()
    returning = forms.ChoiceField(
        label="Is this someone already registered?",
        choices=[],
        required=False,
        widget=forms.RadioSelect,
    )
    look_alike_confirmed = forms.BooleanField(
        label="They are two different people: register this one too",
        required=False,
    )

    clean_group = group_cleaned

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["number"].help_text = "Leave it empty for someone new: one is given."
        name = player_name_clean(str(self.data.get("name", ""))) if self.is_bound else ""
        matches = person_matches(name=name, event=event) if name else []
        self.fields["returning"].choices = [  # type: ignore[attr-defined]
            (str(p.pk), person_described(p)) for p in matches
        ] + [(RETURNING_NEW, "Someone new")]
        # The page offers the choice and the confirmation only once a name asks for them.
        self.asks_returning = bool(matches) and bool(self.data.get("returning"))
        self.asks_look_alike = bool(self.data.get("look_alike_confirmed"))
        field = self.fields["starting_money"]
        field.initial = event.starting_money
        field.error_messages["required"] = "Say how much money the player starts with."
        if event.starting_money is not None:
            field.help_text = f"The event's starting money is {event.starting_money:,}."

    def clean_name(self) -> str:
        name = player_name_clean(self.cleaned_data["name"])
        if not name:
            raise ValidationError("A player needs a name.", code="required")
        if len(name) > NAME_MAX:
            raise ValidationError(NAME_TOO_LONG, code="max_length")
        return name


class PlayerImportForm(forms.Form):
    """A file of players (or its lines pasted): read and previewed, nothing registered yet."""

    csv = forms.FileField(label="File", required=False, allow_empty_file=True)
    csv_text = forms.CharField(
        label="Or paste it",
        required=False,
        strip=False,
        max_length=MAX_IMPORT_BYTES,
        widget=forms.Textarea(attrs={"rows": 4}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload: UploadedFile | None = cleaned.get("csv")
        data = (cleaned.get("csv_text") or "").encode("utf-8")
        name = ""
        if upload is not None:
            if (upload.size or 0) > MAX_IMPORT_BYTES:
                self.add_error("csv", f"The file is larger than {MAX_IMPORT_BYTES // 1024} KB.")
                return cleaned
            data = upload.read(MAX_IMPORT_BYTES + 1)
            name = str(upload.name or "")[:200]
        if not data.strip() and not self.errors:
            raise ValidationError(
                f"Nothing to import: choose a CSV file or paste its lines (at most "
                f"{MAX_IMPORT_ROWS:,} players).",
                code="required",
            )
        cleaned["data"] = data
        cleaned["file_name"] = name
        return cleaned


class ResultsImportForm(forms.Form):
    """A results exchange file (.json) to import as a past event (closing.exchange)."""

    file = forms.FileField(
        label="Results file (.json)",
        allow_empty_file=True,
        help_text="The file downloaded from the other installation's final results "
        "(“Download the results file”).",
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        upload: UploadedFile | None = cleaned.get("file")
        if upload is None:
            return cleaned
        if (upload.size or 0) > RESULTS_FILE_BYTES:
            self.add_error(
                "file", f"The file is larger than {RESULTS_FILE_BYTES // (1024 * 1024)} MB."
            )
            return cleaned
        cleaned["data"] = upload.read(RESULTS_FILE_BYTES + 1)
        cleaned["file_name"] = str(upload.name or "")[:200]
        return cleaned


class ImportConfirmForm(forms.Form):
    """Register the rows of a preview (the preview itself is kept on the server), with the
    organiser's answer for each row that asked a question (``decide_<line>``): which returning
    person it is or someone new; a look-alike name registered as a different person, or left
    out."""

    def __init__(self, *args: Any, batch: ImportBatch | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.questions: dict[int, str] = {}
        for row in batch.rows if batch is not None else []:
            question = row_question(row)
            if not question:
                continue
            line = int(row["line"])
            self.questions[line] = question
            if question == "match":
                choices = [
                    (f"{SAME}{m['person']}", f"Same person: {m['text']}") for m in row["matches"]
                ]
                choices += [(NEW, "Someone new"), (SKIP, "Leave out")]
            else:
                choices = [
                    (DIFFERENT, "Two different people: register"),
                    (SKIP, "Leave out"),
                ]
            self.fields[f"decide_{line}"] = forms.ChoiceField(
                label=f"Line {line}",
                choices=choices,
                required=False,
                # The rows' table is below the confirmation's form: its answers belong to it.
                widget=forms.RadioSelect(attrs={"form": "confirm-form"}),
            )

    def decisions(self) -> dict[int, str]:
        return {
            line: str(self.cleaned_data.get(f"decide_{line}") or "")
            for line in self.questions
            if self.cleaned_data.get(f"decide_{line}")
        }


class ImportUndoForm(forms.Form):
    """Undo an import (the page has said what that does)."""


class ImportPageQuery(forms.Form):
    """An import's page: ``?ask=undo`` asks whether to undo it, saying what that does."""

    ask = forms.ChoiceField(choices=[("", ""), ("undo", "undo")], required=False)


class PlayerLinkQuery(forms.Form):
    """A player's link page: ``?ask=replace`` asks whether to replace the link, saying what
    that does."""

    ask = forms.ChoiceField(choices=[("", ""), ("replace", "replace")], required=False)


class PlayerLinkReissueForm(forms.Form):
    """Replace a player's private link (the page has said what that does)."""


class PlayerRemoveForm(forms.Form):
    """Removing a player registered by mistake: the reason is needed, and the page asks once
    (the first post shows what will happen; ``confirm`` comes with "Yes, remove")."""

    reason = forms.CharField(
        label="Why (for the log)",
        max_length=200,
        error_messages={**REASON_LIMIT, "required": "Say why the player is removed."},
        widget=forms.TextInput(attrs={"placeholder": "e.g. registered twice under a nickname"}),
    )
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)


class StartingMoneyForm(forms.Form):
    starting_money = money_field(label="Starting money of each player", required=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["starting_money"].error_messages["required"] = (
            "Say how much money each player starts with."
        )


class IssueMoneyForm(forms.Form):
    player = EventScopedChoiceField(model="players.Player", label="Player", empty_label=None)
    amount = money_field(label="Amount", minimum=1, required=True)

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].scope(  # type: ignore[attr-defined]
            event, among=Player.objects.filter(removed_at__isnull=True).order_by("name", "pk")
        )
        shown = event_names_shown(event.pk)  # two Harvey Prices told apart by their numbers
        self.fields["player"].label_from_instance = lambda p: shown.get(p.pk, p.name)  # type: ignore[attr-defined]


class TokenIssueForm(forms.Form):
    name = forms.CharField(
        label="Device name",
        max_length=80,
        error_messages={"max_length": at_most("A device's name", 80)},
        widget=forms.TextInput(attrs={"placeholder": "Table 3 tablet"}),
    )
    user = EventScopedChoiceField(model=USER, label="Acts as", empty_label=None)

    def __init__(self, *args: Any, events: Events, users: Any, **kwargs: Any) -> None:
        """``users``: those the organiser manages, of ``events`` (theirs)."""
        super().__init__(*args, **kwargs)
        users = users.filter(is_active=True).order_by("username")
        self.fields["user"].scope(events, among=users)  # type: ignore[attr-defined]
        self.fields["user"].label_from_instance = lambda u: u.get_username()  # type: ignore[attr-defined]


QUALIFY_TOP_MAX = 100_000


class DayCloseForm(forms.Form):
    """Who plays the next day, chosen when the day is closed."""

    qualify_rule = forms.ChoiceField(
        label="Who plays the next day",
        choices=[("afford", "everyone who can afford the next day"), ("top", "the top N")],
        widget=forms.RadioSelect,
        required=False,  # not sent: the day's own rule
    )
    qualify_top = WholeNumberField(
        label="N", min_value=1, max_value=QUALIFY_TOP_MAX, required=False
    )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        missing = cleaned.get("qualify_rule") == "top" and not cleaned.get("qualify_top")
        if missing and "qualify_top" not in self.errors:
            self.add_error("qualify_top", "Say how many players go through (the top N).")
        if cleaned.get("qualify_rule") == "afford":
            cleaned["qualify_top"] = None
        return cleaned


class DayCloseConfirmForm(DayCloseForm):
    """The close page's form: the rule, then the same again with ``confirm`` ticked by the
    confirmation step's button ("Yes, close day N"). Only a confirmed post closes the day."""

    confirm = forms.BooleanField(required=False)


class ConfirmForm(forms.Form):
    """A step that cannot be undone: the first post shows what it will do and asks; only the
    confirmation's button ("Yes, …", which sends ``confirm``) does it."""

    confirm = forms.BooleanField(required=False)


class DayOpenForm(ConfirmForm):
    """Opening a day (its rules freeze)."""


class DayRulesCopyForm(ConfirmForm):
    """Copying a day's rules to the days after it that are not open yet."""


class RequalifyForm(forms.Form):
    """Letting a player back in past a cut: who, and why (kept in the audit log)."""

    player = EventScopedChoiceField(model="players.Player", label="Player", empty_label=None)
    reason = forms.CharField(
        label="Why (kept in the audit log)",
        max_length=200,
        error_messages=REASON_LIMIT,
        widget=forms.TextInput(
            attrs={"placeholder": "e.g. ruled back in by the tournament director"}
        ),
    )

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        players = Player.objects.filter(withdrawn_at__isnull=True)
        self.fields["player"].scope(  # type: ignore[attr-defined]
            day.event_id, among=players.exclude(qualifications__day=day).order_by("name")
        )


class SeatingDrawForm(forms.Form):
    seed = forms.CharField(
        label="Seed (optional)",
        max_length=64,
        error_messages={"max_length": at_most("A seed", 64)},
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "placeholder": "random"}),
    )


class SeatingApplyForm(forms.Form):
    draw = EventScopedChoiceField(model="tables.SeatingDraw", widget=forms.HiddenInput)
    confirm = forms.BooleanField(required=False)  # ConfirmForm: only a confirmed post applies

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["draw"].scope(day.event_id, among=SeatingDraw.objects.filter(day=day))  # type: ignore[attr-defined]


class SeatingQuery(forms.Form):
    """``?draw=<id>``: the draw shown (one of the day's)."""

    draw = EventScopedChoiceField(model="tables.SeatingDraw", required=False)

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["draw"].scope(day.event_id, among=SeatingDraw.objects.filter(day=day))  # type: ignore[attr-defined]


class BalanceApplyForm(forms.Form):
    proposal = forms.CharField(max_length=64, widget=forms.HiddenInput)


class DealersForm(forms.Form):
    table = EventScopedChoiceField(model="tables.Table", widget=forms.HiddenInput)
    dealers = EventScopedMultipleChoiceField(
        model=USER, required=False, widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].scope(day.event_id, among=Table.objects.filter(day=day))  # type: ignore[attr-defined]
        self.fields["dealers"].scope(day.event_id, among=dealers_of(day.event_id))  # type: ignore[attr-defined]


class DayDealersForm(forms.Form):
    """The dealers of every table of a day, in one form: one box per table and dealer, its value
    ``<table id>-<user id>`` (one field, so that its name is the same whatever the day)."""

    assign = forms.MultipleChoiceField(
        required=False, choices=[], widget=forms.CheckboxSelectMultiple
    )

    def __init__(
        self, *args: Any, day: Day, initial_dealers: dict[int, list[int]], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        # Its boxes: the day's tables and the event's dealers, as every id is (access.scoping).
        self.users = list(
            dealers_of(day.event_id).filter(pk__in=rows_of_events(USER, day.event_id).values("pk"))
        )
        self.tables = list(
            rows_of_events("tables.Table", day.event_id).filter(day=day).order_by("number")
        )
        self.fields["assign"].choices = [  # type: ignore[attr-defined]
            (f"{t.pk}-{u.pk}", u.get_username()) for t in self.tables for u in self.users
        ]
        self.initial["assign"] = [
            f"{table}-{user}" for table, users in initial_dealers.items() for user in users
        ]

    def rows(self) -> list[dict[str, Any]]:
        """For the page: each table with its boxes (user, value, checked)."""
        checked = set(
            self.data.getlist("assign")  # type: ignore[attr-defined]
            if self.is_bound
            else self.initial.get("assign", [])
        )
        return [
            {
                "table": t,
                "boxes": [
                    {"user": u, "value": f"{t.pk}-{u.pk}", "checked": f"{t.pk}-{u.pk}" in checked}
                    for u in self.users
                ],
            }
            for t in self.tables
        ]

    def chosen(self) -> dict[int, list[Any]]:
        """Each table's dealers (every table of the day: none ticked is nobody)."""
        users = {u.pk: u for u in self.users}
        out: dict[int, list[Any]] = {t.pk: [] for t in self.tables}
        for value in self.cleaned_data["assign"]:
            table, user = (int(part) for part in value.split("-"))
            out[table].append(users[user])
        return out


class UnlockForm(forms.Form):
    username = forms.CharField(max_length=255, strip=False)
    ip_address = forms.GenericIPAddressField()


class PlayerSearchQuery(forms.Form):
    """``?q=``: part of a name, compared as names are (``players.roster.players_search``)."""

    q = forms.CharField(label="Find a player", max_length=SEARCH_MAX, required=False)


class PlayerRenameForm(forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX * 3, error_messages=NAME_LIMIT)

    clean_name = PlayerRegisterForm.clean_name


class PlayerGroupForm(forms.Form):
    group = group_field()

    clean_group = group_cleaned


class PlayerWithdrawForm(forms.Form):
    reason = forms.CharField(
        label="Why (for the log)",
        max_length=200,
        error_messages=REASON_LIMIT,
        required=False,
        widget=forms.TextInput(attrs={"placeholder": "e.g. went home ill"}),
    )


class PlayerReinstateForm(forms.Form):
    """Taking a withdrawal back: nothing to fill in."""


class RotaForm(forms.Form):
    """The dealers' rota of a day: when it starts, how long a turn lasts, how many turns, and
    which dealers (they go round the tables in the order shown)."""

    starts_at = forms.TimeField(
        label="First turn at",
        input_formats=["%H:%M"],
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        error_messages={"invalid": "Say the time as hours and minutes, e.g. 14:00."},
    )
    minutes = WholeNumberField(
        label="Each dealer moves on every (minutes)",
        min_value=10,
        max_value=240,
        initial=30,
        error_messages={"min_value": "At least 10 minutes.", "max_value": "At most 240 minutes."},
    )
    changes = WholeNumberField(
        label="Turns",
        min_value=1,
        max_value=48,
        initial=16,
        help_text="How many turns the rota covers (16 turns of 30 minutes: 8 hours).",
        error_messages={"min_value": "At least one turn.", "max_value": "At most 48 turns."},
    )
    dealers = EventScopedMultipleChoiceField(
        model=USER,
        label="Dealers",
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose the dealers who deal today."},
    )

    def __init__(self, *args: Any, day: Day, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dealers"].scope(day.event_id, among=dealers_of(day.event_id))  # type: ignore[attr-defined]


class PeopleSearchQuery(forms.Form):
    """``?q=``: part of a name (compared as names are) or a membership number."""

    q = forms.CharField(label="Find a person", max_length=SEARCH_MAX, required=False)


class PersonEditForm(forms.Form):
    name = forms.CharField(label="Name", max_length=NAME_MAX * 3, error_messages=NAME_LIMIT)
    club = forms.CharField(
        label="Club or group",
        max_length=CLUB_MAX,
        required=False,
        error_messages={"max_length": GROUP_TOO_LONG},
    )
    email = forms.EmailField(label="Email (organisers only)", required=False)
    phone = forms.CharField(label="Phone (organisers only)", max_length=40, required=False)

    clean_name = PlayerRegisterForm.clean_name


class PersonMergeForm(forms.Form):
    """Merging a duplicate into the person of the page: the duplicate's membership number;
    the first post shows what will happen, only ``confirm`` merges."""

    number = number_field(label="Membership number of the duplicate", required=True)
    confirm = forms.BooleanField(required=False)
