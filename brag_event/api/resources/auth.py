"""Device tokens (organisers) and the browser session's login (the authentication classes
themselves: ``api.auth``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, login, logout
from django.db.models import QuerySet
from django.shortcuts import get_object_or_404
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_protect, ensure_csrf_cookie
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.access.selectors import staff_manageable
from brag_event.core.errors import ServiceError
from brag_event.core.security import LOCKED_CODE, lockout_message
from brag_event.tables.shifts import shift_sign_out

from .. import roles
from ..idempotency import idempotent
from ..models import DeviceToken
from ..permissions import Can
from ..services import token_issue, token_revoke
from .common import ROLES, actor, valid
from .fields import USER, EventScopedId

# ------------------------------------------------------------------ inputs


def _manageable(request: Request) -> QuerySet[Any]:
    return staff_manageable(request.user).filter(is_active=True)


class TokenIn(serializers.Serializer):
    user = EventScopedId(
        model=USER,
        among=_manageable,
        message="No such active user.",
        help_text="The user the device acts as",
    )
    name = serializers.CharField(max_length=80)


class LoginIn(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=200, trim_whitespace=False)


# ------------------------------------------------------------------ answers


class TokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    user = serializers.CharField()
    prefix = serializers.CharField()
    active = serializers.BooleanField()
    last_used_at = serializers.DateTimeField(allow_null=True)


class TokensOut(serializers.Serializer):
    tokens = TokenOut(many=True)


class TokenIssuedOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    key = serializers.CharField(
        allow_null=True, help_text="Shown once; null when the request is a replay (same key)"
    )


class TokenRevokedOut(serializers.Serializer):
    id = serializers.IntegerField()
    active = serializers.BooleanField()


class OkOut(serializers.Serializer):
    ok = serializers.BooleanField()


class LoggedInOut(serializers.Serializer):
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=ROLES)


# ------------------------------------------------------------------ views


class Tokens(APIView):
    permission_classes = [Can("tokens.manage")]

    @extend_schema(responses={200: TokensOut}, summary="Device tokens (organisers)")
    def get(self, request: Request) -> Response:
        # An organiser of some events sees the tokens of those events' staff only.
        mine = staff_manageable(request.user)
        tokens = DeviceToken.objects.filter(user__in=mine).select_related("user")
        return Response(
            {
                "tokens": [
                    {
                        "id": t.pk,
                        "name": t.name,
                        "user": t.user.get_username(),
                        "prefix": t.prefix,
                        "active": t.is_active,
                        "last_used_at": t.last_used_at.isoformat() if t.last_used_at else None,
                    }
                    for t in tokens
                ]
            }
        )

    @extend_schema(request=TokenIn, responses={201: TokenIssuedOut}, summary="Issue a device token")
    @idempotent(redact=("key",))
    def post(self, request: Request) -> Response:
        data = valid(TokenIn, request)  # a user the caller manages (``TokenIn``)
        token, key = token_issue(user_id=data["user"].pk, name=data["name"], by=actor(request))
        # The key is shown once, here; only its hash is stored.
        return Response({"id": token.pk, "name": token.name, "key": key}, status=201)


class TokenRevoke(APIView):
    permission_classes = [Can("tokens.manage")]

    @extend_schema(request=None, responses={200: TokenRevokedOut}, summary="Revoke a device token")
    @idempotent
    def post(self, request: Request, token_id: int) -> Response:
        mine = DeviceToken.objects.filter(user__in=staff_manageable(request.user))
        token = token_revoke(token=get_object_or_404(mine, pk=token_id), by=actor(request))
        return Response({"id": token.pk, "active": token.is_active})


class Csrf(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: OkOut}, summary="Sets the CSRF cookie for browser sessions")
    @method_decorator(ensure_csrf_cookie)
    def get(self, request: Request) -> Response:
        return Response({"ok": True})


class Login(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_scope = "login"

    @extend_schema(request=LoginIn, responses={200: LoggedInOut}, summary="Browser session login")
    @method_decorator(csrf_protect)
    def post(self, request: Request) -> Response:
        data = valid(LoginIn, request)
        # Django's request, not DRF's: django-axes counts the attempt and marks a lockout on it.
        http = request._request
        user = authenticate(http, username=data["username"], password=data["password"])
        if getattr(http, "axes_locked_out", False):
            raise ServiceError(
                LOCKED_CODE,
                lockout_message(),
                details={"retry_after": int(settings.AXES_COOLOFF_TIME.total_seconds())},
                status=429,
            )
        if user is None:
            raise ServiceError("bad_credentials", "Wrong username or password.", status=401)
        login(request._request, user)
        return Response({"username": user.get_username(), "role": roles.role_of(user)})


class Logout(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=None, responses={200: OkOut})
    def post(self, request: Request) -> Response:
        shift_sign_out(by=actor(request))  # a dealer signing out of the tablet ends their shift
        logout(request._request)
        return Response({"ok": True})
