"""The double-entry, append-only ledger.

Every money movement is one :class:`Transfer` from one account to another of a positive amount.
An account's balance is what came in minus what went out; the issuer's balance is therefore minus
everything ever issued, and all balances of an event sum to zero. Corrections are reversing
transfers that name what they reverse; nothing is updated or deleted (database triggers refuse
it)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q

from brag_event.events.models import Event
from brag_event.players.models import Player
from brag_event.tables.models import Seat, Table


class Account(models.Model):
    class Kind(models.TextChoices):
        ISSUER = "issuer", "Issuer"
        PLAYER = "player", "Player balance"
        STACK = "stack", "Seat stack"
        POT = "pot", "Pot"
        CARRIED = "carried", "Carried pot"
        HOUSE = "house", "House"
        # The chips the end-of-day count found missing from the stacks, less those it found
        # over (closing.count): never below zero — a stack is raised from it only as far as
        # it holds (or from the house).
        COUNT = "count", "Count differences"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="accounts")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT)
    seat = models.ForeignKey(Seat, null=True, blank=True, on_delete=models.PROTECT)
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.PROTECT)
    hand = models.ForeignKey("hands.Hand", null=True, blank=True, on_delete=models.PROTECT)
    pot_index = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["event"], condition=Q(kind="issuer"), name="one_issuer_per_event"
            ),
            models.UniqueConstraint(
                fields=["event"], condition=Q(kind="house"), name="one_house_per_event"
            ),
            models.UniqueConstraint(
                fields=["event"], condition=Q(kind="count"), name="one_count_account_per_event"
            ),
            models.UniqueConstraint(
                fields=["player"], condition=Q(kind="player"), name="one_balance_per_player"
            ),
            models.UniqueConstraint(
                fields=["seat"], condition=Q(kind="stack"), name="one_stack_per_seat"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(kind="carried"), name="one_carried_per_table"
            ),
            models.UniqueConstraint(
                fields=["hand", "pot_index"], condition=Q(kind="pot"), name="one_account_per_pot"
            ),
            models.CheckConstraint(
                name="account_kind_refs",
                condition=(
                    Q(
                        kind__in=["issuer", "house", "count"],
                        player=None,
                        seat=None,
                        table=None,
                        hand=None,
                    )
                    | Q(kind="player", player__isnull=False, seat=None, hand=None)
                    | Q(kind="stack", seat__isnull=False, hand=None)
                    | Q(kind="carried", table__isnull=False, hand=None)
                    | Q(kind="pot", hand__isnull=False, pot_index__isnull=False)
                ),
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLAYER:
            return f"balance of {self.player}"
        if self.kind == self.Kind.STACK:
            return f"stack of {self.seat}"
        if self.kind == self.Kind.POT:
            return f"pot {self.pot_index} of {self.hand}"
        if self.kind == self.Kind.CARRIED:
            return f"carried pot of {self.table}"
        return f"{self.get_kind_display()} of {self.event}"


class Transfer(models.Model):
    class Kind(models.TextChoices):
        ISSUE = "issue", "Starting money issued"
        BUY_IN = "buy_in", "Buy-in"
        REBUY = "rebuy", "Re-buy"
        HOUSE_FEE = "house_fee", "House fee"
        ANTE = "ante", "Ante"
        CARRY_IN = "carry_in", "Carried pot into a hand"
        BET = "bet", "Bet"
        SEE = "see", "See"
        COVER = "cover", "Cover"
        POT_WON = "pot_won", "Pot won"
        RAKE = "rake", "Rake"
        CARRY = "carry", "Pot carried forward"
        REFUND = "refund", "Given back (misdeal)"
        LEAVE = "leave", "Left the table"
        REVERSAL = "reversal", "Reversal"
        COUNT = "count", "Count correction"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="transfers")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    source = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="outgoing")
    target = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="incoming")
    amount = models.BigIntegerField()
    hand = models.ForeignKey(
        "hands.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="transfers"
    )
    action = models.ForeignKey(
        "hands.HandAction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="transfers",
    )
    reverses = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="reversed_by"
    )
    memo = models.CharField(max_length=200, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A transfer that belongs to no hand is an entry of the event's money record
    # (ledger.record): its seq there and its stored hash (a hand's transfers are proved by the
    # hand's replay instead).
    record_seq = models.PositiveIntegerField(null=True, blank=True)
    # A database default: the benchmark seed's bulk copies of hands' transfers omit it.
    record_hash = models.CharField(max_length=64, blank=True, default="", db_default="")

    class Meta:
        ordering = ["id"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="transfer_amount_positive"),
            models.CheckConstraint(
                condition=~Q(source=F("target")), name="transfer_between_two_accounts"
            ),
            models.CheckConstraint(
                condition=Q(reverses__isnull=True) | Q(kind="reversal"),
                name="only_reversals_reverse",
            ),
        ]
        indexes = [models.Index(fields=["event", "kind"])]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.amount}: {self.source} → {self.target}"


class MoneyRecord(models.Model):
    """The head of an event's money record (``ledger.record``): a hash chain over every
    transfer that belongs to no hand and every seat taken or left. A row of its own, locked by
    each entry, so that the event's row (the hot lock of docs/architecture.md, "Versions") is
    not: only the event's off-hand money steps wait on each other, never its hands.

    ``before_transfer`` and ``before_seat``: the rows written before the record existed (ids up
    to these) are not on it; both are in the record's genesis, so moving them breaks it."""

    event = models.OneToOneField(
        Event, primary_key=True, on_delete=models.PROTECT, related_name="money_record"
    )
    next_seq = models.PositiveIntegerField(default=1)
    head = models.CharField(max_length=64)
    before_transfer = models.BigIntegerField(default=0)
    before_seat = models.BigIntegerField(default=0)


class LedgerCheck(models.Model):
    """A run of the ledger audit (``ledger.audit``), kept so that the organisers' dashboard can
    raise an alert without auditing on every page view. Celery beat runs it every few minutes."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="ledger_checks")
    at = models.DateTimeField(auto_now_add=True)
    ok = models.BooleanField()
    lines = models.JSONField(default=list)

    class Meta:
        ordering = ["-at"]
        get_latest_by = "at"


class AuditedHand(models.Model):
    """A settled hand that the periodic ledger check replayed cleanly, with its fingerprint then:
    its log sequence (it moves on every action and every void) and the count and last id of its
    actions and of its transfers (``ledger.audit.FINGERPRINT``). The periodic check does not
    replay it again while the fingerprint is unchanged; the day close and ``audit_ledger``
    replay every hand regardless."""

    hand = models.OneToOneField(
        "hands.Hand", primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    next_seq = models.PositiveIntegerField()
    actions = models.PositiveIntegerField()
    last_action = models.BigIntegerField()
    transfers = models.PositiveIntegerField()
    last_transfer = models.BigIntegerField()
    audited_at = models.DateTimeField(auto_now=True)
