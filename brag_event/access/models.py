"""Staff of one event: a user who organises, supervises or deals for that event only."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class StaffRole(models.Model):
    """``user`` is ``role`` for ``event`` — and, through this row, for no other event.

    The groups "organiser", "supervisor" and "dealer" stay what they were: the same role for
    every event (the site's own staff; a global organiser creates events)."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", "organiser"
        SUPERVISOR = "supervisor", "floor supervisor"
        DEALER = "dealer", "dealer"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_roles"
    )
    event = models.ForeignKey("events.Event", on_delete=models.CASCADE, related_name="staff")
    role = models.CharField(max_length=20, choices=Role.choices)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "event"], name="one_staff_role_per_event"),
        ]
        ordering = ["event", "role", "user"]

    def __str__(self) -> str:
        return f"{self.user} — {self.get_role_display()} of event {self.event_id}"
