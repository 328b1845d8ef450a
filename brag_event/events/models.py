"""Events and their days. A day carries its rules (RULES §2); a hand copies them when it starts."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from brag_event.engine import MONEY_MAX, Rules

from .zones import default_time_zone, validate_time_zone

# The day's rules that are amounts of money, in the order pages show them; then the others.
RULE_AMOUNTS = ("ante", "min_bet", "max_bet", "max_raise", "house_fee", "table_min", "table_max")
RULE_FIELDS = (
    *RULE_AMOUNTS,
    "seats",
    "blind_allowed",
    "see_cost",
    "pot_limit",
    "rake_percent",
    "rake_cap",
    "cover_allowed",
    "rebuy_needs_consent",
    "rebuy_pays_fee",
)
# The day's floor procedures, set and copied with its rules but not the engine's: they say how
# the staff work, not how a hand is played, so they are not frozen onto a hand nor replayed
# (the engine stays the rules of the game; ``floor.awards`` reads them from the day).
FLOOR_FIELDS = ("award_confirm_from",)
LARGE_POT_ANTES = 5
"""A large-pot amount this many antes or fewer above nothing is warned of: nearly every pot
would wait for a supervisor."""
DAY_SETTINGS = (*RULE_FIELDS, *FLOOR_FIELDS)


class Event(models.Model):
    # The event's identity in its tamper-evident record (every brag-day/3 root and the money
    # record start from it). A UUID, not the name (an organiser edits it) nor the row's id (a
    # restore or a copy of the database may renumber it): fixed at creation, never edited.
    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    name = models.CharField(max_length=120, unique=True)
    currency = models.CharField(
        max_length=12, default="MB", help_text="Label of the money, e.g. MB"
    )
    time_zone = models.CharField(
        max_length=64,
        default=default_time_zone,
        validators=[validate_time_zone],
        help_text="Where the event is played (IANA name, e.g. Europe/Paris): every page and "
        "export of the event shows its times in this zone",
    )
    starting_money = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="What a player is registered with unless the organiser says otherwise "
        "(empty: none set, every registration names its amount)",
    )
    # Whether each day's close waits for every table's chips to be counted (issue 31). On for a
    # new event: the count is what catches a dealer's entry mistake or chips moved by hand, and
    # skipping it is then a decision on the record (a waiver with a reason), not a default.
    count_at_close = models.BooleanField(
        default=True,
        help_text="Each day's close waits until every table's chips are counted and every "
        "difference is ruled (or the count is waived, with a reason)",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A past event brought in from a results exchange file (closing.exchange, issue 32): every
    # day closed, its results as the file gave them. Read-only: nothing is played, registered,
    # ruled or paid on it (``events.states.refuse_if_imported``), and its standings are its
    # days' results (``standings.selectors.standings``), since no money moved here.
    imported_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="Imported from a results exchange file: a past event, read-only",
    )
    imported_from = models.CharField(
        max_length=200,
        blank=True,
        editable=False,
        help_text="Where the results file said it came from (its software and site)",
    )
    version = models.PositiveBigIntegerField(
        default=0,
        editable=False,
        help_text="Bumped by every event-wide change the standings and the dashboard show "
        "(see tables.versions)",
    )

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(starting_money__gte=0), name="event_starting_money_not_negative"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def imported(self) -> bool:
        """A past event imported from a results exchange file (read-only)."""
        return self.imported_at is not None


class Day(models.Model):
    """A day of play. Its life (``status``) runs one way: scheduled → open → closing → closed,
    and only through the services (``events.services.day_open``, ``closing.services``): a day
    opens once the day before it has closed; hands, buy-ins, re-buys, tables and moves happen
    only while it is open; closing takes it out of play and returns every stack."""

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        OPEN = "open", "Open"
        CLOSING = "closing", "Closing"
        CLOSED = "closed", "Closed"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="days")
    number = models.PositiveSmallIntegerField()
    date = models.DateField(null=True, blank=True)
    status = models.CharField(
        max_length=10,
        choices=Status.choices,
        default=Status.SCHEDULED,
        help_text="Changed only by opening and closing the day",
    )

    ante = models.PositiveIntegerField(help_text="Paid by every dealt-in player before the deal")
    min_bet = models.PositiveIntegerField(help_text="Smallest first bet of a hand (open terms)")
    max_bet = models.PositiveIntegerField(help_text="Largest first bet of a hand (open terms)")
    max_raise = models.PositiveIntegerField(help_text="Largest increase over the current stake")
    house_fee = models.PositiveIntegerField(help_text="Paid to the house on every buy-in or re-buy")
    table_min = models.PositiveIntegerField(help_text="Least money to sit down with (after fee)")
    table_max = models.PositiveIntegerField(help_text="Most money to sit down with (after fee)")
    seats = models.PositiveSmallIntegerField(default=6)
    blind_allowed = models.BooleanField(default=True)
    see_cost = models.CharField(
        max_length=6, choices=[("double", "double"), ("equal", "equal")], default="double"
    )
    pot_limit = models.BooleanField(default=False, help_text="Raises also limited to the pot")
    rake_percent = models.PositiveSmallIntegerField(default=0)
    rake_cap = models.PositiveIntegerField(null=True, blank=True)
    cover_allowed = models.BooleanField(default=True)
    rebuy_needs_consent = models.BooleanField(default=True)
    rebuy_pays_fee = models.BooleanField(default=True)
    award_confirm_from = models.PositiveBigIntegerField(
        null=True,
        blank=True,
        validators=[
            MinValueValidator(1, "At least 1 (or leave it empty: never)."),
            MaxValueValidator(MONEY_MAX, f"At most {MONEY_MAX:,}: no amount may be larger."),
        ],
        help_text="A pot of this amount or more waits for a second member of staff to "
        "confirm it before the next hand (empty: never)",
    )
    qualify_rule = models.CharField(
        max_length=10,
        choices=[("afford", "everyone who can afford the next day"), ("top", "the top N")],
        default="afford",
        help_text="Who qualifies for the next day when this day closes",
    )
    qualify_top = models.PositiveIntegerField(
        null=True, blank=True, help_text="N for 'the top N' (among those who can afford it)"
    )
    record_root = models.CharField(
        max_length=64,
        blank=True,
        editable=False,
        help_text="The day's published root over its hands' records (set at close)",
    )
    # The day's own chain in the tamper-evident record (hands.chain): the records of the day
    # that belong to no hand. Its next sequence number and its last hash ("" before any).
    record_seq = models.PositiveIntegerField(default=1, editable=False)
    record_head = models.CharField(max_length=64, blank=True, editable=False)
    # The hall's clock: the time of the next break and of the day's end, in the event's time
    # zone, on the day's date (set in the console; blank: not said).
    break_at = models.TimeField(null=True, blank=True, help_text="Next break at (hall clock)")
    ends_at = models.TimeField(null=True, blank=True, help_text="The day ends at (hall clock)")
    # How the published root is computed (``engine.chain``): 3 names the event and the day and
    # takes the event's money record as it stood at the close (its seq and hash then). Days
    # closed before version 3 keep the version their root was published with.
    record_version = models.PositiveSmallIntegerField(default=3, editable=False)
    record_money_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    record_money_head = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="day_number_unique"),
            models.CheckConstraint(condition=Q(min_bet__gte=1), name="day_min_bet_positive"),
            models.CheckConstraint(condition=Q(min_bet__lte=F("max_bet")), name="day_min_le_max"),
            models.CheckConstraint(
                condition=Q(table_min__lte=F("table_max")), name="day_table_min_le_max"
            ),
            models.CheckConstraint(
                condition=Q(seats__gte=2) & Q(seats__lte=10), name="day_seats_range"
            ),
            models.CheckConstraint(condition=Q(rake_percent__lte=100), name="day_rake_le_100"),
            models.CheckConstraint(
                condition=Q(award_confirm_from__isnull=True) | Q(award_confirm_from__gte=1),
                name="day_award_confirm_from_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} — day {self.number}"

    def rules_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in RULE_FIELDS}

    def award_confirm_warning(self) -> str | None:
        """Words when the large-pot amount is within ``LARGE_POT_ANTES`` antes: nearly every
        pot would wait for a second member of staff."""
        amount, ante = self.award_confirm_from, self.ante
        if amount is None or not ante or amount > LARGE_POT_ANTES * ante:
            return None
        return (
            f"Pots from {amount:,} wait for a supervisor, and the ante is {ante:,}: that is "
            f"within {LARGE_POT_ANTES} antes, so nearly every pot will wait. Raise the amount, "
            "or leave it empty for never."
        )

    def settings_dict(self) -> dict[str, Any]:
        """The rules and the floor's settings (``DAY_SETTINGS``): what the console sets, logs
        and copies to the days after."""
        return {name: getattr(self, name) for name in DAY_SETTINGS}

    def clean_fields(self, exclude: Any = None) -> None:
        # The rules are checked by the engine in ``clean`` (every field, one sentence a
        # problem), not also by the fields' generic range checks with a second message.
        super().clean_fields(exclude={*(exclude or ()), *RULE_FIELDS})

    def clean(self) -> None:
        """The day's rules, checked by the engine's ``Rules.problems``: each problem on the
        field it is about (the admin's and the console's forms show it there)."""
        errors: dict[str, list[str]] = {}
        for problem in Rules.problems(self.rules_dict()):
            messages = errors.setdefault(problem.field, [])
            if problem.message not in messages:
                messages.append(problem.message)
        if errors:
            raise ValidationError(errors)

    def rules(self) -> Rules:
        return Rules(**self.rules_dict())

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.OPEN

    @property
    def status_hint(self) -> str:
        """What the day's state means, in words ("no new hands; …"), true of the day now: a
        scheduled day says whether it can open yet (the day before it closed), a closed day
        whether another follows."""
        if self.status == self.Status.SCHEDULED:
            before = (
                Day.objects.filter(event_id=self.event_id, number__lt=self.number)
                .order_by("-number")
                .values_list("number", "status")
                .first()
            )
            if before is None:
                return "not open yet. It can be opened now."
            if before[1] == self.Status.CLOSED:
                return f"not open yet. Day {before[0]} has closed: it can be opened now."
            return f"not open yet. It opens once day {before[0]} has closed."
        if self.status == self.Status.CLOSING:
            waiting = DayClose.objects.filter(day_id=self.pk, status=DayClose.Status.COUNTING)
            if waiting.exists():
                return "no new hands; the tables' chips are being counted before the close."
        if self.status == self.Status.CLOSED:
            later = Day.objects.filter(event_id=self.event_id, number__gt=self.number).exists()
            if not later:
                return "the standings are final: the event is over."
        return STATUS_HINT[self.status]

    @property
    def status_text(self) -> str:
        """The day's state in words, for pages and the API: "Closing: no new hands; …"."""
        return f"{self.get_status_display()}: {self.status_hint}"


STATUS_HINT: dict[str, str] = {
    Day.Status.SCHEDULED: "not open yet. It opens once the day before it has closed.",
    Day.Status.OPEN: "hands are being played.",
    Day.Status.CLOSING: "no new hands; every stack is going back to its player.",
    Day.Status.CLOSED: "the standings are final and the next day's players are known.",
}


class Announcement(models.Model):
    """A line the organisers type in the console for the hall's screen and the players' pages;
    shown until taken down (``events.hall``)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="announcements")
    text = models.CharField(max_length=200)
    posted_at = models.DateTimeField(auto_now_add=True)
    posted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    removed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-posted_at", "-id"]
        indexes = [models.Index(fields=["event", "removed_at"], name="announcement_shown")]

    def __str__(self) -> str:
        return self.text


class DayRulesChange(models.Model):
    """Append-only log of every change to a day's rules."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="rule_changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    # A default, not ``auto_now_add``: a change on the money record is chained before its row
    # is written (the table is append-only), with this time in the entry.
    changed_at = models.DateTimeField(default=timezone.now)
    before = models.JSONField()
    after = models.JSONField()
    reason = models.CharField(max_length=200, blank=True)
    # A change made while the day is open that decides whether pots wait (its large-pot amount,
    # ``floor.services.day_award_from_change``) is an entry of the event's money record
    # (``floor.record``): its seq and hash.
    record_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    record_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["changed_at", "id"]


class DayClose(models.Model):
    """The closing of a day, run as a Celery task: no new hands, every stack back to its
    player's balance, a ledger audit, a standings snapshot and the next day's qualifiers. One
    per day; running it again does nothing once it is done."""

    class Status(models.TextChoices):
        COUNTING = "counting", "Waiting for the count"
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    day = models.OneToOneField(Day, on_delete=models.PROTECT, related_name="closing")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="Percent done")
    step = models.CharField(max_length=120, blank=True)
    report = models.JSONField(default=dict, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    runs = models.PositiveIntegerField(default=0, help_text="How many times a worker ran it")
    # The close's row is its job's outbox (``closing.tasks``): whether the job reached the job
    # queue, and when; a close whose job did not is sent again by the periodic sweep, or by
    # the next look at its page, once the queue is back.
    dispatched_at = models.DateTimeField(
        null=True, blank=True, help_text="When its job last reached the job queue"
    )
    queue_error = models.CharField(
        max_length=200, blank=True, help_text="Why its job could not reach the job queue"
    )
    # The day's standings as the close took them — every snapshot row and the qualifiers it
    # wrote — as one entry of the day's own chain (``closing.record``), under its root.
    standings = models.JSONField(
        null=True, blank=True, editable=False, help_text="The entry's fields, as chained"
    )
    standings_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    standings_hash = models.CharField(max_length=64, blank=True, editable=False)
    standings_sealed = models.BooleanField(
        default=False,
        editable=False,
        help_text="The entry is on the event's money record, not the day's own chain: a day "
        "closed before standings were chained, or imported from a results file",
    )

    def __str__(self) -> str:
        return f"Close of {self.day}: {self.status}"
