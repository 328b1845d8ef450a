"""Tables of a day and the seats on them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from brag_event.core.models import LedgerCachedModel
from brag_event.events.models import Day
from brag_event.players.models import Player


class Table(LedgerCachedModel):
    ledger_cached = ("carried_pot",)

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    button = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Seat that deals the next hand (none: draw)"
    )
    shuffle_next = models.BooleanField(default=True, help_text="Shuffle before the next deal")
    carried_pot = models.BigIntegerField(default=0, editable=False)
    carried_seat = models.PositiveSmallIntegerField(null=True, blank=True, editable=False)
    dealers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="dealer_tables"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Versions of what is read of the table, bumped in the transaction of each change (see
    # tables.versions): everything its tablet shows, and its share of the standings. A new
    # table starts at 1, so that the event's sum of versions (the dashboard's) moves with it.
    version = models.PositiveBigIntegerField(default=1, editable=False)
    standings_version = models.PositiveBigIntegerField(default=0, editable=False)

    class Meta:
        ordering = ["day", "number"]
        constraints = [
            models.UniqueConstraint(fields=["day", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(carried_pot__gte=0), name="table_carried_gte_0"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} ({self.day})"


class Seat(LedgerCachedModel):
    ledger_cached = ("stack",)

    """One player's stay at a seat: from buy-in until they leave."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    stack = models.BigIntegerField(default=0, editable=False, help_text="Cached from the ledger")
    buy_in = models.PositiveIntegerField(help_text="The amount bought in with (re-buys repeat it)")
    sitting_out = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)
    # The seat taken and left on the event's money record (ledger.record): the entries' seq and
    # stored hash. A seat never changes table, number or player: the record says who sat where.
    sit_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    sit_hash = models.CharField(max_length=64, blank=True, editable=False)
    leave_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    leave_hash = models.CharField(max_length=64, blank=True, editable=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=Q(left_at__isnull=True),
                name="seat_taken_once",
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(left_at__isnull=True), name="player_one_table"
            ),
            models.CheckConstraint(condition=Q(stack__gte=0), name="seat_stack_gte_0"),
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=10), name="seat_number_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at table {self.table.number} seat {self.number}"

    @property
    def is_seated(self) -> bool:
        return self.left_at is None


class RebuyConsent(models.Model):
    """A seated player's recorded agreement to another player's re-buy."""

    rebuy_seat = models.ForeignKey(Seat, on_delete=models.PROTECT, related_name="rebuys")
    transfer_id = models.BigIntegerField(help_text="The re-buy transfer this consent belongs to")
    consenting = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT
    )
    at = models.DateTimeField(auto_now_add=True)


class SeatingDraw(models.Model):
    """A day's seating draw: the seed it was drawn with (so it can be drawn again and give the
    same tables) and the plan it produced."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="draws")
    seed = models.CharField(max_length=64)
    plan = models.JSONField(help_text="[{table, seats: [{seat, player, name, amount}]}]")
    excluded = models.JSONField(default=list, help_text="Players left out, with the reason")
    apart = models.JSONField(
        default=dict,
        help_text="Clubs and groups kept apart: {groups: how many had two or more players, "
        "shared: [{group, players, tables, at: [{table, names}]}] those that had to share}",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    applied_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"Draw {self.seed} for {self.day}"


class DealerShift(models.Model):
    """A dealer at a table, from signing in on its tablet to signing out or being relieved
    (another dealer signing in there, or the same dealer at another table): who dealt which
    hands when (``tables.shifts``)."""

    class End(models.TextChoices):
        SIGNED_OUT = "signed_out", "signed out"
        RELIEVED = "relieved", "relieved by the next dealer"
        MOVED = "moved", "signed in at another table"
        DAY_CLOSED = "day_closed", "the day closed"

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dealer_shifts"
    )
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="shifts")
    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="dealer_shifts")
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    ended_how = models.CharField(max_length=12, choices=End.choices, blank=True)
    # Its start and end on the event's money record (tables.record): each entry's seq and hash.
    start_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    start_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )
    end_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    end_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(ended_at__isnull=True), name="one_dealer_per_table"
            ),
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(ended_at__isnull=True), name="one_table_per_dealer"
            ),
            models.CheckConstraint(
                condition=Q(ended_at__isnull=True) | Q(ended_at__gte=models.F("started_at")),
                name="shift_ends_after_it_starts",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer} at table {self.table_id} from {self.started_at:%H:%M}"


class DealerRota(models.Model):
    """The dealers' rota of a day: from ``starts_at``, every ``minutes`` each dealer moves on to
    the next table (after the last, to a break when there are more dealers than tables);
    ``tables`` and ``dealers`` in the rota's order (ids). The plan itself is computed
    (``tables.rota.rota_plan``), never stored twice."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="rotas")
    starts_at = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField()
    changes = models.PositiveSmallIntegerField(help_text="How many turns the rota covers")
    tables = models.JSONField(help_text="Table ids, in the rota's order")
    dealers = models.JSONField(help_text="Dealer (user) ids, in the rota's order")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Rota of {self.day} from {self.starts_at:%H:%M}, every {self.minutes} min"
