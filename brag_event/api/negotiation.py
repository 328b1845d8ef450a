"""Content negotiation for a JSON-only API."""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request

_JSON_OR_ANY = frozenset({"", "*/*", "application/json", "application/json, */*"})


class JsonNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, minus its work for the common case: every answer of this API is
    JSON, so a request that accepts JSON (no ``Accept``, ``*/*`` or ``application/json`` — what
    the tablets send) gets the JSON renderer at once. Any other ``Accept`` goes through DRF's
    full negotiation, which answers 406 where JSON is not acceptable."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        renderers = list(renderers)
        accept = request.META.get("HTTP_ACCEPT", "").strip()
        if (
            accept in _JSON_OR_ANY
            and format_suffix is None
            and not request.query_params.get(self.settings.URL_FORMAT_OVERRIDE or "format")
            and len(renderers) == 1
            and renderers[0].media_type == "application/json"
        ):
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
