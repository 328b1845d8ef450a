"""The integrity monitor's records: each run with its flags, and the tablets' refused entries."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from brag_event.events.models import Day, Event
from brag_event.hands.models import Hand
from brag_event.tables.models import Table


class IntegrityRun(models.Model):
    """One run of the monitor over an event's settled hands (``integrity.services``)."""

    class Trigger(models.TextChoices):
        PERIODIC = "periodic", "periodic check"
        DAY_CLOSE = "day_close", "after the day's close"
        MANUAL = "manual", "on request"

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="integrity_runs")
    trigger = models.CharField(max_length=10, choices=Trigger.choices)
    day = models.ForeignKey(
        Day, null=True, blank=True, on_delete=models.PROTECT, help_text="The day whose close ran it"
    )
    alpha = models.FloatField(help_text="False-alarm rate allowed per check and run")
    hands = models.PositiveIntegerField(help_text="Settled hands analysed")
    fingerprint = models.CharField(
        max_length=200, help_text="What the run saw (hands, voids, refusals): unchanged, no rerun"
    )
    tests = models.JSONField(default=dict, help_text="How many tests each check ran")
    overview = models.JSONField(default=dict, help_text="Figures of every check, for the page")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    seconds = models.FloatField(default=0.0, help_text="How long the run took")

    class Meta:
        ordering = ["-at", "-id"]
        get_latest_by = ["at", "id"]

    def __str__(self) -> str:
        return f"Integrity run {self.pk} of {self.event}"


class IntegrityFlag(models.Model):
    """A test whose p-value fell below its threshold: what was seen, in plain words, and the
    hands behind it."""

    run = models.ForeignKey(IntegrityRun, on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=10, help_text="The check: cards, folds, flows or dealers")
    subject = models.CharField(max_length=200, help_text="Who or what, in words")
    subject_key = models.JSONField(help_text="The ids behind the subject")
    p_value = models.FloatField()
    threshold = models.FloatField()
    numbers = models.JSONField(default=dict)
    hands = models.JSONField(default=list, help_text="Ids of the hands behind the flag")
    explanation = models.TextField()
    advice = models.TextField()

    class Meta:
        ordering = ["run", "p_value", "id"]

    def __str__(self) -> str:
        return f"{self.kind}: {self.subject}"


class RefusedEntry(models.Model):
    """A tablet's entry that was refused (an illegal action, wrong cards, a stale screen). The
    refused request's own transaction is rolled back whole; this record is written after it,
    on its own, so the floor can see which dealers' entries keep being refused. Append-only."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="+")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="refusals"
    )
    seq = models.PositiveIntegerField(null=True, blank=True, help_text="The expected_seq sent")
    action = models.CharField(max_length=12, blank=True, help_text="What was tried")
    code = models.CharField(max_length=60)
    status = models.PositiveSmallIntegerField()
    message = models.CharField(max_length=300, blank=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    device = models.CharField(max_length=200, blank=True)
    at = models.DateTimeField(auto_now_add=True)
    # A burst: the same refusal sent again and again by the same device (a retrying client, a
    # script) is one entry counted, not one row each (``integrity.services.refusal_record``).
    # The only change the database lets through: the count and its last time, growing.
    count = models.PositiveIntegerField(default=1, help_text="Identical refusals in this burst")
    last_at = models.DateTimeField(null=True, blank=True, help_text="The burst's latest refusal")

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["table", "at"])]

    def __str__(self) -> str:
        return f"{self.code} at {self.table}" + (f" ×{self.count}" if self.count > 1 else "")

    @property
    def counts(self) -> bool:
        """A refused entry counts against the dealer when the entry itself was wrong (400); a
        stale screen (409) is another device's or the network's doing."""
        return self.status == 400
