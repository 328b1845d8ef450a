"""Audit log of every change made by a person: who, when, what, from which device."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditEntry(models.Model):
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    event = models.ForeignKey(
        "events.Event", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(auto_now_add=True)
    verb = models.CharField(max_length=60, help_text="What was done, e.g. hand.action")
    target = models.CharField(max_length=120, blank=True, help_text="What it was done to")
    data = models.JSONField(default=dict, blank=True)
    device = models.CharField(max_length=200, blank=True, help_text="Device, IP and user agent")

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor} {self.verb} {self.target}"
