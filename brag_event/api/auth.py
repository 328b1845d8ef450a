"""Authentication for tablets: ``Authorization: Token <key>`` with an organiser-issued key."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from .models import DeviceToken, token_hash
from .roles import remember_role, role_annotations


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
        token = _token_with_user(token_hash(key))
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("The token is not valid or was revoked.")
        now = timezone.now()
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            DeviceToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return self.keyword


def _token_with_user(key_hash: str) -> DeviceToken | None:
    """The live token with its user, the user's role and whether they play, in one query:
    every tablet request starts here."""
    token = (
        DeviceToken.objects.select_related("user__player")
        .annotate(**role_annotations("user_id"))
        .filter(key_hash=key_hash, revoked_at__isnull=True)
        .first()
    )
    if token is not None:
        remember_role(token.user, token)
    return token


class RoleAwareModelBackend(ModelBackend):
    """Django's model backend, but the user of a session arrives with their role and player in
    the same query (see ``roles.role_annotations``)."""

    def get_user(self, user_id: Any) -> Any:
        model = get_user_model()
        user = (
            model._default_manager.select_related("player")
            .annotate(**role_annotations("pk"))
            .filter(pk=user_id)
            .first()
        )
        if user is None or not self.user_can_authenticate(user):
            return None
        remember_role(user, user)
        return user
