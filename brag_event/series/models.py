"""A series: events grouped, each player of each event scoring points by their finishing place
in its final results (``points``: the organiser's table, place 1 first)."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from brag_event.events.models import Event


class Series(models.Model):
    name = models.CharField(max_length=80, unique=True)
    points = models.JSONField(
        help_text="Points for each finishing place, first place first: [25, 18, 15, …]"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name


class SeriesEvent(models.Model):
    """An event counted in a series."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="series_entries")
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["added_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["series", "event"], name="series_event_unique")
        ]

    def __str__(self) -> str:
        return f"{self.event} in {self.series}"
