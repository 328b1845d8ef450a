"""Device tokens: issued by organisers to tablets, revoked at will. Only a key's hash is kept."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.utils import timezone

from brag_event.audit.models import Verb
from brag_event.audit.services import audit_record
from brag_event.core.actors import Actor
from brag_event.core.errors import ServiceError
from brag_event.core.transactions import service_transaction

from .models import DeviceToken, token_hash


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
