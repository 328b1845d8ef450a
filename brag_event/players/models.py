"""Players registered for an event."""

from __future__ import annotations

import uuid
import zlib
from typing import Any

from django.conf import settings
from django.db import connection, models

from brag_event.core.models import LedgerCachedModel
from brag_event.events.models import Event

from .names import (
    GROUP_MAX,
    KEY_MAX,
    NAME_MAX,
    name_key,
    player_group_clean,
    player_name_clean,
)

NUMBER_FIRST = 1001  # the first membership number given automatically
CLUB_MAX = GROUP_MAX  # a person's club becomes their entries' group (Player.group) whole


class Person(models.Model):
    """Someone who plays: registered once, entered into any number of events (each entry a
    ``Player``, which holds that event's money). ``people.py`` registers, matches and merges."""

    name = models.CharField(max_length=NAME_MAX)
    name_key = models.CharField(
        max_length=KEY_MAX,
        editable=False,
        db_index=True,
        help_text="The name as names are compared (players.names.name_key): not unique, two "
        "people may share a name",
    )
    number = models.PositiveIntegerField(
        unique=True,
        help_text="Membership number: stable, unique, given automatically when none is said; "
        "a label of this installation's (another numbers its people on its own)",
    )
    uid = models.UUIDField(
        default=uuid.uuid4,
        unique=True,
        editable=False,
        help_text="Who the person is wherever their results go: carried by the results "
        "exchange file, which finds them by it in another installation (docs/people.md)",
    )
    club = models.CharField(max_length=CLUB_MAX, blank=True, help_text="Club or group")
    email = models.EmailField(blank=True, help_text="Seen by organisers only")
    phone = models.CharField(max_length=40, blank=True, help_text="Seen by organisers only")
    created_at = models.DateTimeField(auto_now_add=True)
    merged_into = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="merged",
        help_text="A duplicate merged into another person (people.person_merge): its entries "
        "moved there; kept so its old number still finds them",
    )

    class Meta:
        ordering = ["name", "number"]
        verbose_name_plural = "people"

    def __str__(self) -> str:
        return f"{self.name} (no. {self.number})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name = player_name_clean(self.name)
        self.name_key = name_key(self.name)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields and "name_key" not in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        if self.number is None:
            self.number = person_number_next()
        super().save(*args, **kwargs)


# The transaction-level advisory lock that draws membership numbers one registration at a time.
NUMBER_LOCK = zlib.crc32(b"players.person.number") & 0x7FFFFFFF


def person_number_next(count: int = 1) -> int:
    """The first of ``count`` free membership numbers after the highest given. On PostgreSQL
    the draw holds a lock until the caller's transaction ends, so registrations at once take
    turns (without it, every one of a crowd draws the same number and all but one lose, round
    after round); SQLite lets one writer in at a time anyway. A number given by hand meanwhile
    is still refused by the unique index, which ``people`` draws again."""
    if connection.vendor == "postgresql" and connection.in_atomic_block:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [NUMBER_LOCK])
    top = Person.objects.aggregate(m=models.Max("number"))["m"]
    return max(int(top or 0) + 1, NUMBER_FIRST)


class Player(LedgerCachedModel):
    """A person's entry into one event: the event's money, seats and results are the entry's."""

    ledger_cached = ("balance",)

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="players")
    person = models.ForeignKey(
        Person,
        on_delete=models.PROTECT,
        related_name="entries",
        help_text="Who this is (a player saved without one gets a new person of the name)",
    )
    name = models.CharField(max_length=NAME_MAX)
    name_key = models.CharField(
        max_length=KEY_MAX,
        editable=False,
        help_text="The name as names are compared (players.names.name_key): unique in an "
        "event unless the organiser confirmed two different people",
    )
    look_alike_confirmed = models.BooleanField(
        default=False,
        editable=False,
        help_text="Registered though the name looks the same as another player's of the "
        "event: the organiser confirmed two different people (shown with their numbers)",
    )
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    group = models.CharField(
        max_length=GROUP_MAX,
        blank=True,
        default="",
        help_text="A club, household or group the player belongs to (optional): the seating "
        "draw keeps players of one group at different tables (tables.seating)",
    )
    balance = models.BigIntegerField(
        default=0, editable=False, help_text="Cached from the ledger: money held off the table"
    )
    registered_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="Withdrawn from the event (players.roster): never drawn or seated again; "
        "their money stays theirs in the ledger",
    )
    removed_at = models.DateTimeField(
        null=True,
        blank=True,
        editable=False,
        help_text="Registered by mistake and removed before playing (players.imports): "
        "withdrawn, their money taken back by reversing entries, their name free again",
    )
    link_generation = models.PositiveIntegerField(
        default=1,
        editable=False,
        help_text="Which of the player's private links opens their page (players.links): "
        "replacing the link from the console makes every earlier one answer that it was replaced",
    )
    import_batch = models.ForeignKey(
        "ImportBatch",
        null=True,
        blank=True,
        editable=False,
        on_delete=models.PROTECT,
        related_name="players",
        help_text="The CSV import that registered the player, if one did",
    )
    # Who the player is — their person when registered — on the event's money record
    # (players.record): the entry's seq and hash. A merge of people is an entry of its own.
    person_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    person_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["name"]
        constraints = [
            # A removed player's name is free again (a corrected file can register it).
            models.UniqueConstraint(
                fields=["event", "name_key"],
                condition=models.Q(removed_at__isnull=True, look_alike_confirmed=False),
                name="player_name_key_unique_unconfirmed",
            ),
            # A person is entered into an event once.
            models.UniqueConstraint(
                fields=["event", "person"],
                condition=models.Q(removed_at__isnull=True),
                name="player_person_event_unique",
            ),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="player_balance_gte_0"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        # Whoever saves a player (a service, the admin), the name is stored clean and its key
        # follows it.
        self.name = player_name_clean(self.name)
        self.name_key = name_key(self.name)
        self.group = player_group_clean(self.group)
        fields = kwargs.get("update_fields")
        if fields is not None and "name" in fields and "name_key" not in fields:
            kwargs["update_fields"] = [*fields, "name_key"]
        if self.person_id is None:
            self.person = Person.objects.create(name=self.name, club=self.group)
        super().save(*args, **kwargs)


class PersonMerge(models.Model):
    """A merge of two people (``people.person_merge``) as it touched one event: the entries of
    that event it moved from the person removed to the person kept, on the event's money record
    (``players.record``). A merge that moved entries of several events has a row for each."""

    kept = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    removed = models.ForeignKey(Person, on_delete=models.PROTECT, related_name="+")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="person_merges")
    players = models.JSONField(help_text="The event's players moved: [player id, …]")
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    merged_at = models.DateTimeField(auto_now_add=True)
    seq = models.PositiveIntegerField(null=True, blank=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["merged_at", "id"]

    def __str__(self) -> str:
        return f"Person {self.removed_id} merged into {self.kept_id} ({self.event})"


class ImportBatch(models.Model):
    """A CSV file of players, parsed and kept between its preview and its confirmation (so
    the confirmation registers exactly the rows the organiser saw), then the players it
    registered — undone together while none of them has played."""

    class Status(models.TextChoices):
        PREVIEWED = "previewed", "previewed"
        CONFIRMED = "confirmed", "imported"
        UNDONE = "undone", "undone"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="import_batches")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PREVIEWED)
    file_name = models.CharField(max_length=200, blank=True)
    encoding = models.CharField(max_length=40, help_text="How the file's text was read")
    separator = models.CharField(max_length=12, help_text="comma, semicolon or tab")
    columns = models.JSONField(
        default=dict, help_text="What each column was read as: name, money or ignored"
    )
    default_money = models.BigIntegerField(
        null=True,
        blank=True,
        help_text="The event's starting money, given to every row when the file has no money "
        "column (else empty)",
    )
    rows = models.JSONField(
        default=list,
        help_text="Every row as previewed: line, name, money, and the reason it is refused "
        "(empty when it will be registered)",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"import {self.pk} ({self.file_name or 'pasted'})"


class Standing(models.Model):
    """A player's day, maintained as hands start and settle (not summed from the ledger on
    every request): hands played and won, and the money held when the day began."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="standings")
    day = models.ForeignKey("events.Day", on_delete=models.PROTECT, related_name="standings")
    hands_played = models.PositiveIntegerField(default=0)
    hands_won = models.PositiveIntegerField(default=0)
    start_total = models.BigIntegerField(
        default=0, help_text="Balance plus table stacks when the player's day began"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "day"], name="standing_player_day_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} on {self.day}"


class StandingSnapshot(models.Model):
    """The standings as they were when a day closed."""

    day = models.ForeignKey("events.Day", on_delete=models.PROTECT, related_name="snapshot")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    rank = models.PositiveIntegerField()
    total = models.BigIntegerField()
    change = models.BigIntegerField()
    hands_played = models.PositiveIntegerField()
    hands_won = models.PositiveIntegerField()
    qualified = models.BooleanField(default=False, help_text="Qualified for the next day")
    position = models.PositiveIntegerField(
        default=0, help_text="The row's place in the day's order (0: kept before the order was)"
    )
    mark = models.CharField(
        max_length=16,
        blank=True,
        help_text="The player's mark at the close (players.results.MARKS; empty: kept before "
        "marks were)",
    )
    out_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Out at an earlier cut: the day after which"
    )

    class Meta:
        ordering = ["day", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["day", "player"], name="snapshot_day_player_unique")
        ]


class Qualification(models.Model):
    """A player allowed to be seated on a day (day 1: everyone registered)."""

    day = models.ForeignKey("events.Day", on_delete=models.PROTECT, related_name="qualified")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="qualifications")
    reason = models.CharField(max_length=120, blank=True)
    # A player let back in (``qualify.player_requalify``): who, when, and the entry of ``day``'s
    # own chain it is (its seq and hash). A close's qualifiers are in its standings entry.
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(null=True, blank=True)
    seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    hash = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["day", "player"], name="qualification_unique")
        ]


class CheckInWindow(models.Model):
    """When a day's qualifiers check in (``players.checkin``): from their own page between
    ``opens_at`` and ``closes_at``, at the desk from ``opens_at`` until the day closes. With
    ``draw_checked_in_only`` the day's seating draw seats only the players checked in."""

    day = models.OneToOneField(
        "events.Day", on_delete=models.PROTECT, related_name="checkin_window"
    )
    opens_at = models.DateTimeField()
    closes_at = models.DateTimeField()
    draw_checked_in_only = models.BooleanField(
        default=True, help_text="The seating draw seats only the players checked in"
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    set_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(closes_at__gt=models.F("opens_at")),
                name="checkin_window_closes_after_it_opens",
            )
        ]


class CheckIn(models.Model):
    """A player checked in for a day: once (the unique constraint; ``player_check_in`` answers
    a second desk with the first one's row), on the day's own chain (its seq and hash): it
    decides who the draw seats."""

    class How(models.TextChoices):
        PAGE = "page", "from their own page"
        DESK = "desk", "at the desk"

    day = models.ForeignKey("events.Day", on_delete=models.PROTECT, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="checkins")
    how = models.CharField(max_length=4, choices=How.choices)
    at = models.DateTimeField()
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    hash = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["day", "player"], name="checkin_once_a_day")]
