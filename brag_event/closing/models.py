"""The end-of-day count (bag and tag, issue 31): each table's chips counted seat by seat while
the day is out of play, every difference from the recorded stack ruled, or the day's count
waived by the organiser with a reason. The close (``closing.services``) waits for it.

A count is kept as entered: a ruling is written once on its seat's row (never changed after),
and a correction's money is a ledger transfer on the event's money record
(``closing.count``). Each table's count, each ruling and each waiver is an entry of that record
too, and each request to close is an entry of the day's own chain (``closing.record``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from brag_event.events.models import Day
from brag_event.ledger.models import Transfer
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

_USER = settings.AUTH_USER_MODEL


class TableCount(models.Model):
    """A table's chips counted at the close: one per table, with a row per seated player."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="table_counts")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="count")
    counted_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    counted_at = models.DateTimeField(auto_now_add=True)
    # The count (with its seats' figures) on the event's money record (closing.record).
    record_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    record_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["table__number"]

    def __str__(self) -> str:
        return f"Count of {self.table}"


class SeatCount(models.Model):
    """One seat's count: what the records said, what was counted, and — if they differ — the
    ruling: the records stand (the count was wrong) or the stack is corrected to the count."""

    class Ruling(models.TextChoices):
        NONE = "", "Not ruled"
        ACCEPT = "accept", "Records stand"
        CORRECT = "correct", "Stack corrected"

    class Source(models.TextChoices):
        NONE = "", "—"
        COUNT = "count", "The chips the count set aside"
        HOUSE = "house", "The house"

    table_count = models.ForeignKey(TableCount, on_delete=models.PROTECT, related_name="seats")
    seat = models.OneToOneField(Seat, on_delete=models.PROTECT, related_name="count")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded = models.BigIntegerField()
    counted = models.BigIntegerField()
    ruling = models.CharField(max_length=8, choices=Ruling.choices, blank=True, default="")
    # Where a raised stack's chips came from (a lowered stack's go to the count's account).
    source = models.CharField(max_length=8, choices=Source.choices, blank=True, default="")
    reason = models.CharField(max_length=200, blank=True)
    ruled_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ruled_at = models.DateTimeField(null=True, blank=True)
    transfer = models.OneToOneField(
        Transfer, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The ruling on the event's money record (closing.record): its seq and hash.
    rule_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    rule_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["seat__number"]
        constraints = [
            models.CheckConstraint(condition=Q(counted__gte=0), name="count_not_negative"),
            models.CheckConstraint(
                name="count_ruling_complete",
                condition=Q(ruling="")
                | Q(ruling="accept", transfer=None)
                | Q(ruling="correct", transfer__isnull=False),
            ),
        ]

    @property
    def difference(self) -> int:
        return self.counted - self.recorded

    @property
    def open(self) -> bool:
        """A difference not yet ruled."""
        return self.difference != 0 and not self.ruling

    def __str__(self) -> str:
        return f"Count of {self.seat}: {self.counted} (recorded {self.recorded})"


class CountWaiver(models.Model):
    """The organiser's decision to close a day without its count, with the reason."""

    day = models.OneToOneField(Day, on_delete=models.PROTECT, related_name="count_waiver")
    reason = models.CharField(max_length=200)
    waived_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    waived_at = models.DateTimeField(auto_now_add=True)
    # The waiver on the event's money record (closing.record).
    record_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    record_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    def __str__(self) -> str:
        return f"Count of {self.day} waived"


class CloseRequest(models.Model):
    """A request to close a day that moved its close on — taking the day out of play (the close
    then waits for the count, or is queued) or, once the count is done, queueing it — as an
    entry of the day's own chain (``closing.record``): whether the day's count is required, and
    the tables with players seated then. The audit checks that a close that went ahead with the
    count required had every one of those tables counted and every difference ruled, or the
    count waived."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="close_requests")
    count = models.BooleanField(help_text="The day's count was required")
    queued = models.BooleanField(help_text="The close went ahead (else it waited for the count)")
    tables = models.JSONField(help_text="The tables with players seated: [table number, …]")
    requested_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    requested_at = models.DateTimeField(auto_now_add=True)
    seq = models.PositiveIntegerField(null=True, blank=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["day", "seq"]

    def __str__(self) -> str:
        return f"Close of {self.day} asked"
