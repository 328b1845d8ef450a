"""Players registered for an event."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from brag_event.core.models import LedgerCachedModel
from brag_event.events.models import Event


class Player(LedgerCachedModel):
    ledger_cached = ("balance",)

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="players")
    name = models.CharField(max_length=80)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="player",
    )
    balance = models.BigIntegerField(
        default=0, editable=False, help_text="Cached from the ledger: money held off the table"
    )
    registered_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["event", "name"], name="player_name_unique"),
            models.CheckConstraint(condition=models.Q(balance__gte=0), name="player_balance_gte_0"),
        ]

    def __str__(self) -> str:
        return self.name
