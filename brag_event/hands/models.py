"""Hands: a frozen copy of the rules and table, and an append-only log of actions.

A hand's state is always the engine's replay of its log (voided actions left out)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from brag_event.players.models import Player
from brag_event.tables.in_play import IN_PROGRESS as HAND_IN_PLAY
from brag_event.tables.models import Table

ACTION_SEQ_UNIQUE = "action_seq_unique"  # violated by a second action with one (hand, seq)


class Hand(models.Model):
    class Status(models.TextChoices):
        # The stored value is the tables' (tables.in_play asks whether a hand is in play).
        IN_PROGRESS = HAND_IN_PLAY, "In progress"
        SETTLED = "settled", "Settled"

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    dealer_seat = models.PositiveSmallIntegerField()
    rules = models.JSONField(help_text="The day's rules, frozen when the hand started")
    seats = models.JSONField(help_text="Seats as dealt: [{seat, player, player_id, stack, …}]")
    dealt_players = models.ManyToManyField(
        Player, related_name="hands_dealt", blank=True, help_text="Players dealt into the hand"
    )
    carried_pot = models.BigIntegerField(default=0)
    carried_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    shuffle_before = models.BooleanField(default=False)
    accounts = models.JSONField(
        default=dict, blank=True, help_text="Ledger account ids of the hand's places (a cache)"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.IN_PROGRESS)
    next_seq = models.PositiveIntegerField(default=1, help_text="Sequence of the next action")
    result = models.JSONField(null=True, blank=True, help_text="The engine's outcome")
    chain_head = models.CharField(
        max_length=64, blank=True, help_text="The last hash of the hand's record (hands.chain)"
    )
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    started_at = models.DateTimeField(auto_now_add=True)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_unique"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="in_progress"),
                name="one_live_hand_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.number} at table {self.table.number}"


# What a dealer's entry says, the part of an action that replays the hand (the rest of a row is
# who entered it, when, from which device, and its chain hash).
ENTRY_FIELDS = ("seq", "seat", "action", "amount", "hand_choice", "cards")


class HandAction(models.Model):
    """One entry of a hand's log. Append-only: a void is a separate record."""

    hand = models.ForeignKey(Hand, on_delete=models.PROTECT, related_name="actions")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=10)
    amount = models.BigIntegerField(null=True, blank=True)
    hand_choice = models.CharField(max_length=3, blank=True, help_text="old/new for two hands")
    cards = models.CharField(max_length=40, blank=True)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    device = models.CharField(max_length=120, blank=True)
    entered_at = models.DateTimeField(auto_now_add=True)
    hash = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the previous record's hash and this one"
    )

    class Meta:
        ordering = ["hand", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "seq"], name=ACTION_SEQ_UNIQUE),
        ]

    def __str__(self) -> str:
        return f"#{self.seq} {self.action} seat {self.seat}"


class ActionVoid(models.Model):
    """A supervisor's void of an action, with the reason."""

    action = models.OneToOneField(HandAction, on_delete=models.PROTECT, related_name="void")
    reason = models.CharField(max_length=200)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    voided_at = models.DateTimeField(auto_now_add=True)
    seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="The hand's sequence number the void took"
    )
    hash = models.CharField(
        max_length=64, blank=True, help_text="SHA-256 of the previous record's hash and this one"
    )
