"""Authentication for tablets: ``Authorization: Token <key>`` with an organiser-issued key."""

from __future__ import annotations

from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import ValidationError
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

from brag_event.core import sql
from brag_event.players.models import Player

from .models import DeviceToken, token_hash
from .roles import group_flags_sql, remember_role_from_flags


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


@cache
def _token_sql() -> tuple[str, list[Any]]:
    user_model = get_user_model()
    flags, flag_params = group_flags_sql("u.id")
    player = Player._meta
    query = (
        f"SELECT {sql.columns(DeviceToken, 't')}, {sql.columns(user_model, 'u')}, "  # nosec B608
        f"p.{sql.qn('id')}, {flags} "
        f"FROM {sql.table(DeviceToken)} t "
        f"JOIN {sql.table(user_model)} u ON u.{sql.qn('id')} = t.{sql.qn('user_id')} "
        f"LEFT JOIN {sql.qn(player.db_table)} p ON p.{sql.qn('user_id')} = u.{sql.qn('id')} "
        f"WHERE t.{sql.qn('key_hash')} = %s AND t.{sql.qn('revoked_at')} IS NULL"
    )
    return query, flag_params


def _token_with_user(key_hash: str) -> DeviceToken | None:
    """The live token with its user, the user's role and whether they play, in one hand-written
    query: every tablet request starts here (see ``core.sql`` for why it is not the ORM's)."""
    user_model = get_user_model()
    query, flag_params = _token_sql()
    (rows,) = sql.run_batch([(query, [*flag_params, key_hash])])
    row = rows[0] if rows else None
    if row is None:
        return None
    token, at = sql.hydrate(DeviceToken, row)
    user, at = sql.hydrate(user_model, row, at)
    has_player = row[at] is not None
    if not has_player:
        user_model.player.related.set_cached_value(user, None)  # type: ignore[attr-defined]
    remember_role_from_flags(user, row[at + 1 :], has_player)
    token.user = user
    return token


class RoleAwareModelBackend(ModelBackend):
    """Django's model backend, but the user of a session arrives with their role and player in
    one hand-written query, as a token's does (every signed-in page starts here)."""

    def get_user(self, user_id: Any) -> Any:
        user = _session_user(user_id)
        if user is None or not self.user_can_authenticate(user):
            return None
        return user


@cache
def _session_user_sql() -> tuple[str, list[Any]]:
    user_model = get_user_model()
    flags, flag_params = group_flags_sql("u.id")
    query = (
        f"SELECT {sql.columns(user_model, 'u')}, {sql.columns(Player, 'p')}, "  # nosec B608
        f"{flags} "
        f"FROM {sql.table(user_model)} u "
        f"LEFT JOIN {sql.table(Player)} p ON p.{sql.qn('user_id')} = u.{sql.qn('id')} "
        f"WHERE u.{sql.qn('id')} = %s"
    )
    return query, flag_params


@cache
def _player_pk_index() -> int:
    return Player._meta.concrete_fields.index(Player._meta.pk)


def _session_user(user_id: Any) -> Any:
    """The session's user with their player (or none) and their role, or ``None``: what
    ``select_related("player")`` with the role's annotations gave, without the ORM compiling
    that query on every request (see ``core.sql``)."""
    user_model = get_user_model()
    try:
        pk = user_model._meta.pk.to_python(user_id)  # type: ignore[union-attr]
    except ValidationError:
        return None
    if not isinstance(pk, int) or not sql.possible_id(pk):
        return None
    query, flag_params = _session_user_sql()
    (rows,) = sql.run_batch([(query, [*flag_params, pk])])
    if not rows:
        return None
    row = rows[0]
    user, at = sql.hydrate(user_model, row)
    player: Player | None = None
    if row[at + _player_pk_index()] is not None:
        player, at = sql.hydrate(Player, row, at)
        Player.user.field.set_cached_value(player, user)  # type: ignore[attr-defined]
    else:
        at += len(Player._meta.concrete_fields)
    user_model.player.related.set_cached_value(user, player)  # type: ignore[attr-defined]
    remember_role_from_flags(user, row[at:], player is not None)
    return user
