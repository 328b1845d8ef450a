"""Authentication for tablets: ``Authorization: Token <key>`` with an organiser-issued key."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .models import DeviceToken, token_hash


class DeviceTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, DeviceToken] | None:
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Send 'Authorization: Token <key>'.")
        try:
            key = header[1].decode()
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("The token is not valid.") from None
        token = (
            DeviceToken.objects.select_related("user")
            .filter(key_hash=token_hash(key), revoked_at__isnull=True)
            .first()
        )
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("The token is not valid or was revoked.")
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword
