"""What every resource of the API uses: who acts, a body parsed (``valid``), a versioned JSON
read (``json_answer``), a table of the caller's, pagination, and the one error shape with the
schema class that adds it to every operation (``ContractSchema``, the settings'
DEFAULT_SCHEMA_CLASS)."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from brag_event.core.actors import Actor
from brag_event.core.conditional import versioned_answer

from .. import roles
from .fields import unknown_id

# Who acts, from which device (the tablet's token by name): the one builder, ``core.actors``.
actor = Actor.from_request


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    """The body, parsed; its ids resolved within the request's event (``EventScopedId``): an id
    that names nothing there is refused as ``unknown_<model>``, any other problem is
    ``invalid_input``."""
    serializer = serializer_class(data=request.data, context={"request": request})
    if not serializer.is_valid():
        raise unknown_id(serializer.errors) or serializers.ValidationError(serializer.errors)
    return dict(serializer.validated_data)


def json_answer(
    request: Request, *, key: str, version: str, data: Any, private: bool = True
) -> HttpResponse:
    """A JSON read that changes only with ``version`` (``core.conditional``): 304, the cached
    body, or ``data()`` rendered as DRF's renderer renders any other answer."""
    return versioned_answer(
        request,
        key=key,
        version=version,
        render=lambda: JSONRenderer().render(data()),
        content_type="application/json",
        private=private,
    )


def table_for(request: Request, table_id: int) -> Any:
    return get_object_or_404(roles.tables_for(request.user), pk=table_id)


class Page(LimitOffsetPagination):
    default_limit = 100
    max_limit = 1000


def paged(request: Request, view: APIView, rows: QuerySet[Any], shape: Any) -> Response:
    pager = Page()
    page = pager.paginate_queryset(rows, request, view=view) or []
    return pager.get_paginated_response([shape(r) for r in page])


ROLES = [roles.ORGANISER, roles.SUPERVISOR, roles.DEALER, roles.PLAYER, roles.PUBLIC]


def nullable_int(**kwargs: Any) -> serializers.IntegerField:
    return serializers.IntegerField(allow_null=True, **kwargs)


class ErrorDetail(serializers.Serializer):
    code = serializers.CharField(help_text="Stable: docs/error-codes.md lists every one")
    message = serializers.CharField(help_text="In words, for people")
    details = serializers.DictField(
        child=serializers.JSONField(),
        help_text="What the code needs: a field's name, a limit, a stale hand's state…",
    )


class ErrorOut(serializers.Serializer):
    """Every refusal and failure of the API (4xx and 5xx) has this shape."""

    error = ErrorDetail()


ERRORS = {
    400: "Refused: the input's shape or the rules (details.field names the field)",
    401: "Not authenticated: log in or send a device token",
    403: "Your role may not do this (or the CSRF token is missing)",
    404: "Not found, or not yours to see",
    405: "Method not allowed",
    406: "Not acceptable: this API answers JSON only",
    413: "The body is too large",
    415: "Unsupported media type: send JSON",
    429: "Too many attempts, or the login is locked",
    500: "Something went wrong on the server; nothing was saved",
    503: "Busy or the database is away; nothing was saved: send it again (Retry-After)",
}


WRITE_ERRORS = {
    409: "Conflict: the hand moved on (details.hand is its current state), or the state refuses",
    422: "The Idempotency-Key was used for another request",
}


NOT_MODIFIED = OpenApiResponse(
    description="Not modified: the request's If-None-Match names the answer's current ETag "
    "(no body)."
)


class ContractSchema(AutoSchema):
    """drf-spectacular's schema, plus the one error shape for every 4xx and 5xx an operation
    may answer (writes: 409 and 422 too), and the ``Idempotency-Key`` header of every write
    that takes one."""

    def get_override_parameters(self) -> list[Any]:
        parameters: list[Any] = list(super().get_override_parameters())
        handler = getattr(self.view, self.method.lower(), None)
        if getattr(handler, "takes_idempotency_key", False):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters

    def _get_response_bodies(self, direction: Any = "response") -> dict[str, Any]:
        bodies: dict[str, Any] = super()._get_response_bodies(direction)
        errors = dict(ERRORS)
        if self.method != "GET":
            errors.update(WRITE_ERRORS)
        for code, description in sorted(errors.items()):
            if str(code) not in bodies:
                bodies[str(code)] = self._get_response_for_code(
                    OpenApiResponse(ErrorOut, description=description), str(code)
                )
        return bodies


def page_of(item: type[serializers.Serializer], name: str) -> type[serializers.Serializer]:
    """A ``LimitOffsetPagination`` page of ``item``."""
    fields = {
        "count": serializers.IntegerField(),
        "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True),
        "results": item(many=True),
    }
    return type(name, (serializers.Serializer,), fields)


PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="At most this many (100 unless said; ≤ 1000)"),
    OpenApiParameter("offset", int, description="Skip this many"),
]


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    str,
    OpenApiParameter.HEADER,
    description="The ETag of the answer you hold: 304 if it is still current",
)


IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    str,
    OpenApiParameter.HEADER,
    description="1–200 printable characters, unique per user: a retry gets the first answer",
)
