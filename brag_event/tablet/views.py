"""The dealer's tablet: server-rendered shells; everything they show comes from the API
(``/api/v1/``), so the tablet follows exactly the rules the engine enforces.

The pages need no server-side login: the page's script signs in (a session with CSRF, or a
device token kept on the tablet) and asks the API, which enforces every role."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie


@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/login.html")


@ensure_csrf_cookie
def tables(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/tables.html")


@ensure_csrf_cookie
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    return render(request, "tablet/table.html", {"table_id": table_id})
