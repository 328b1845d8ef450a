"""Device tokens: issued by organisers to tablets, revoked at will. Only a key's hash is kept.
And the idempotency records' prune."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction

from .models import DeviceToken, IdempotencyRecord, token_hash


@service_transaction
def token_issue(*, user_id: int, name: str, by: Actor | None) -> tuple[DeviceToken, str]:
    """A new token for ``user_id``; the key is returned once and never stored."""
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        raise ServiceError("unknown_user", "No such active user.", details={"field": "user"})
    clean = " ".join(str(name).split())[:80]
    if not clean:
        raise ServiceError("invalid_name", "Name the device, e.g. 'Table 3 tablet'.")
    key = DeviceToken.new_key()
    token = DeviceToken.objects.create(
        user=user,
        name=clean,
        key_hash=token_hash(key),
        prefix=key[:6],
        created_by=by.user if by and by.user_id else None,
    )
    audit_record(
        by=by, verb=Verb.TOKEN_ISSUE, subject=token, target=token.name, data={"user": user.pk}
    )
    return token, key


@service_transaction
def token_revoke(*, token: DeviceToken, by: Actor | None) -> DeviceToken:
    """Revoke a token (revoking twice changes nothing)."""
    token = DeviceToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_record(by=by, verb=Verb.TOKEN_REVOKE, subject=token, target=token.name)
    return token


PRUNE_BATCH = 5000  # rows per transaction: a prune never holds a long lock


def idempotency_prune(*, now: datetime | None = None) -> int:
    """Delete the idempotency records older than ``BRAG_IDEMPOTENCY_DAYS`` (7 days); how many.
    A record only answers a retry of its request, and no tablet retries a week-old entry (its
    day is closed, its queue long sent or dropped). A key used again after its record is gone
    runs as a new request. Safe to run at any time, and again: it deletes in short batches."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.BRAG_IDEMPOTENCY_DAYS)
    deleted = 0
    while True:
        with transaction.atomic():
            ids = list(
                IdempotencyRecord.objects.filter(created_at__lt=cutoff)
                .order_by("created_at")
                .values_list("pk", flat=True)[:PRUNE_BATCH]
            )
            if not ids:
                return deleted
            deleted += IdempotencyRecord.objects.filter(pk__in=ids).delete()[0]
