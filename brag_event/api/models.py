"""Device tokens for tablets, and the idempotency records that make retries safe."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q


def token_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


KEY_UNIQUE = "idempotency_key_per_user"  # violated by a second use of an Idempotency-Key


class DeviceToken(models.Model):
    """A tablet's credential: acts as ``user``; only the hash of the key is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="device_tokens"
    )
    name = models.CharField(max_length=80, help_text="Which device, e.g. 'Table 3 tablet'")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=8, editable=False, help_text="First characters, to tell")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @staticmethod
    def new_key() -> str:
        return secrets.token_urlsafe(32)

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class IdempotencyRecord(models.Model):
    """The first response to a write with an ``Idempotency-Key``, replayed to retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=200)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=300)
    fingerprint = models.CharField(max_length=64, help_text="Hash of method, path and body")
    status_code = models.PositiveSmallIntegerField(default=0)
    response = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name=KEY_UNIQUE),
            models.CheckConstraint(condition=~Q(key=""), name="idempotency_key_not_empty"),
        ]
        # The prune's range (``api.services.idempotency_prune``).
        indexes = [models.Index(fields=["created_at"], name="idempotency_created_at")]
