"""Nothing of the console is kept by a browser or a cache on the way (``ConsoleNoStore``)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

CONSOLE_PREFIX = "/organiser/"  # the console's pages, the floor's, the integrity monitor's


class ConsoleNoStore:
    """Every answer under ``/organiser/`` — the console's pages, its CSV, JSON lines and PDF
    exports, the dashboard's live part — says ``Cache-Control: no-store, private`` (Django's
    ``add_never_cache_headers``): players' money, names and the ledger are not left in a shared
    computer's browser cache for the next person at it, nor in a proxy's. The dashboard's live
    part still answers 304 to the ETag its script sends (it keeps the ETag itself)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.path_info.startswith(CONSOLE_PREFIX):
            add_never_cache_headers(response)
        return response
