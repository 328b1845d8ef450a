"""The floor (RULES §4b): misdeals, floor calls, rulings and the penalties they give, and the
shares of the pots still carried when a day closes. Every row is kept: a call is resolved, a
penalty is lifted, never deleted."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand, HandAction
from brag_event.players.disqualified import DISQUALIFIED
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table

_USER = settings.AUTH_USER_MODEL


class Misdeal(models.Model):
    """A supervisor's misdeal of a hand: the hand's log ends with its ``misdeal`` action."""

    hand = models.OneToOneField(Hand, on_delete=models.PROTECT, related_name="misdeal")
    action = models.OneToOneField(HandAction, on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200)
    refunds = models.JSONField(help_text="What each seat got back: {seat: amount}")
    declared_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    declared_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Misdeal of {self.hand}"


class FloorCall(models.Model):
    """A dealer's call for the floor, from a table's tablet."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        TAKEN = "taken", "Taken"
        RESOLVED = "resolved", "Resolved"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="floor_calls")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="floor_calls")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="floor_calls"
    )
    note = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    called_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    called_at = models.DateTimeField(auto_now_add=True)
    taken_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    taken_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["called_at", "id"]
        indexes = [models.Index(fields=["event", "status"])]

    def __str__(self) -> str:
        return f"Floor call at table {self.table.number}"


class Ruling(models.Model):
    """What the floor decided: what happened, who was involved, the decision; kept for ever."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="rulings")
    call = models.ForeignKey(
        FloorCall, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT)
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT)
    what_happened = models.CharField(max_length=500)
    decision = models.CharField(max_length=500)
    players = models.ManyToManyField(Player, related_name="rulings", blank=True)
    ruled_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    ruled_at = models.DateTimeField(auto_now_add=True)
    # Its entry in the tamper-evident record (hands.chain): the hand it is chained onto (its own
    # hand, or else its table's latest hand) — or, for a ruling that has no hand to go on or
    # is made while its day closes, its day's own chain — the seq it took there and its hash.
    chain_hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    chain_day = models.ForeignKey(
        Day, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    seq = models.PositiveIntegerField(null=True, blank=True)
    hash = models.CharField(max_length=64, blank=True)

    class Meta:
        ordering = ["ruled_at", "id"]

    def __str__(self) -> str:
        return f"Ruling {self.pk}"


class Penalty(models.Model):
    """A penalty a ruling gave one player. Missed hands count down as hands are dealt at the
    seat's table; a disqualification lasts for the event unless an organiser lifts it."""

    class Kind(models.TextChoices):
        WARNING = "warning", "Warning"
        MISSED_HANDS = "missed_hands", "Missed hands"
        # The stored value is the players' side's (players.disqualified reads who is out).
        DISQUALIFICATION = DISQUALIFIED, "Disqualification"

    ruling = models.ForeignKey(Ruling, on_delete=models.PROTECT, related_name="penalties")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="penalties")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    seat = models.ForeignKey(
        Seat, null=True, blank=True, on_delete=models.PROTECT, related_name="penalties"
    )
    hands = models.PositiveSmallIntegerField(default=0, help_text="N missed hands")
    hands_left = models.PositiveSmallIntegerField(default=0)
    day = models.ForeignKey(Day, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    lifted_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lifted_at = models.DateTimeField(null=True, blank=True)
    lift_reason = models.CharField(max_length=200, blank=True)
    # The lift's entry in its day's own chain (hands.chain): the seq it took and its hash —
    # lifts made before the event's money record took them.
    lift_seq = models.PositiveIntegerField(null=True, blank=True)
    lift_hash = models.CharField(max_length=64, blank=True)
    # The lift's entry on the event's money record (floor.record): every lift since.
    lift_record_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    lift_record_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                name="penalty_missed_hands_counted",
                condition=~Q(kind="missed_hands")
                | Q(hands__gte=1, hands_left__lte=models.F("hands")),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.player}"


class CarriedSplit(models.Model):
    """A pot still carried when its day closed, shared by the players dealt into the hand that
    left it carried (RULES §4b)."""

    day = models.ForeignKey(Day, on_delete=models.PROTECT, related_name="carried_splits")
    table = models.OneToOneField(Table, on_delete=models.PROTECT, related_name="carried_split")
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT)
    amount = models.BigIntegerField()
    shares = models.JSONField(
        help_text="[{player_id, player, seat, amount}] clockwise from the dealer"
    )
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Carried pot of {self.table} shared"


class AwardConfirmation(models.Model):
    """A large pot's second confirmation (the day's ``award_confirm_from``): a hand that settled
    with a pot of that amount or more to a winner waits here until a second member of staff —
    a supervisor or organiser of the event who did not enter the hand — confirms it; the
    table's next hand cannot start until then.

    The money moved when the hand settled (the ledger follows the engine, ``hands.money``): the
    confirmation is a check of the award, not a payment. A wrong award is corrected as any
    settled hand is, by a supervisor's undo (reversing entries), which withdraws the request.
    The confirmation is chained onto the hand's record (kind ``award_confirm``); the waiting and
    the withdrawal are entries of the event's money record (``award_wait``, ``award_withdraw``:
    ``floor.awards``)."""

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for a second member of staff"
        CONFIRMED = "confirmed", "Confirmed"
        WITHDRAWN = "withdrawn", "Withdrawn (the settlement was undone)"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="award_confirmations")
    settled_seq = models.PositiveIntegerField(help_text="The seq of the entry that settled it")
    awards = models.JSONField(
        help_text="The pots at or above the amount: [{pot, amount, seats, players}]"
    )
    amount = models.BigIntegerField(help_text="The largest of those pots")
    threshold = models.BigIntegerField(help_text="The day's amount when the hand settled")
    entered_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    asked_at = models.DateTimeField(auto_now_add=True)
    confirmed_by = models.ForeignKey(
        _USER, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    where = models.CharField(
        max_length=12, blank=True, help_text="floor (the confirmer's own device) or tablet"
    )
    device = models.CharField(max_length=200, blank=True)
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    # Its entry in the hand's tamper-evident record (hands.chain), once confirmed.
    seq = models.PositiveIntegerField(null=True, blank=True)
    hash = models.CharField(max_length=64, blank=True)
    # Its waiting (from the settle) and its withdrawal (by an undo) on the event's money record
    # (floor.awards): each entry's seq and hash.
    wait_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    wait_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )
    withdraw_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)
    withdraw_hash = models.CharField(
        max_length=64, blank=True, default="", db_default="", editable=False
    )

    class Meta:
        ordering = ["asked_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["hand"],
                condition=Q(status="waiting"),
                name="one_award_waiting_per_hand",
            ),
        ]
        indexes = [models.Index(fields=["table", "status"], name="award_waiting_at_table")]

    def __str__(self) -> str:
        return f"Award of {self.hand}: {self.status}"

    @property
    def words(self) -> str:
        """ "Pot of 640 to Anna Bell" (each pot at or above the amount, in words)."""
        return "; ".join(
            f"Pot of {a['amount']:,} to {' and '.join(a['players'])}" for a in self.awards
        )
