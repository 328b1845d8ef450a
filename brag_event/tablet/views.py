"""The dealer's tablet: server-rendered shells; everything they show comes from the API
(``/api/v1/``), so the tablet follows exactly the rules the engine enforces.

The pages need no server-side login: the page's script signs in (a session with CSRF, or a
device token kept on the tablet) and asks the API, which enforces every role."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import ensure_csrf_cookie

from brag_event.core.forms import takes

from . import vendor
from .offline import SHELL, engine_zip, offline_version, runtime_cache

HOME = "/tablet/"


class LoginQuery(forms.Form):
    """``?next=``: where to go after logging in — a path of this site, or the tablet's home."""

    next = forms.CharField(required=False, max_length=2000)

    def __init__(self, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request

    def clean_next(self) -> str:
        target = self.cleaned_data["next"]
        safe = (
            target.startswith("/")
            and url_has_allowed_host_and_scheme(
                target,
                allowed_hosts={self.request.get_host()},
                require_https=self.request.is_secure(),
            )
            # A path only: no scheme, no host, nothing a browser would read as another site.
            and not target.startswith(("//", "/\\"))
        )
        return target if safe else HOME


@takes(query=LoginQuery)
@ensure_csrf_cookie
def login(request: HttpRequest) -> HttpResponse:
    query = LoginQuery(request.GET, request=request)
    target = query.cleaned_data["next"] if query.is_valid() else HOME
    return render(request, "tablet/login.html", {"next": target or HOME})


@takes()
@ensure_csrf_cookie
def tables(request: HttpRequest) -> HttpResponse:
    return render(request, "tablet/tables.html")


@takes()
@ensure_csrf_cookie
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    _data, version = engine_zip()
    context = {
        "table_id": table_id,
        "engine_version": version,
        "runtime_cache": runtime_cache(vendor.lock(), version),
    }
    return render(request, "tablet/table.html", context)


@takes()
def engine(request: HttpRequest, version: str) -> HttpResponse:
    """The rules engine as the tablet's browser runs it (brag_event/engine, zipped from the
    source). Its name is its content's hash: kept for good; an old name is gone (404)."""
    data, current = engine_zip()
    if version != current:
        raise Http404("This version of the engine is not served any more.")
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@takes()
def service_worker(request: HttpRequest) -> HttpResponse:
    """The tablet's service worker (``templates/tablet/sw.js``): at ``/tablet/sw.js`` so that
    its scope is the tablet's pages. It names what it keeps and the versions of its caches;
    the browser checks it again at most once a day (``Cache-Control``, ``updateViaCache``)."""
    _data, engine_version = engine_zip()
    pin = vendor.lock()
    shell: dict[str, bytes] = {}
    for name in SHELL:
        found = finders.find(name)
        if isinstance(found, str):
            with open(found, "rb") as handle:
                shell[name] = handle.read()
    shell_version, _runtime = offline_version(shell, pin["integrity"], engine_version)
    runtime = [static(f"vendor/pyodide/{name}") for name in sorted(pin["files"])]
    runtime.append(reverse("tablet:engine", args=[engine_version]))
    config = {
        "shell": f"brag-shell-{shell_version}",
        "runtime": runtime_cache(pin, engine_version),
        "pages": [reverse("tablet:tables")],
        "shell_files": [static(name) for name in SHELL],
        "runtime_files": runtime,
        # Pyodide's files kept by an older runtime cache of the same Pyodide are reused.
        "runtime_reuse": f"brag-runtime-{pin['version']}-",
        "static": settings.STATIC_URL
        if settings.STATIC_URL.startswith("/")
        else "/" + settings.STATIC_URL,
        "engine": reverse("tablet:engine", args=["x"]).rsplit("/", 1)[0] + "/",
    }
    # Our own paths only; JSON is valid JavaScript (no "</script>" concern: not in HTML).
    context = {"config": json.dumps(config, indent=1)}
    response = render(request, "tablet/sw.js", context, content_type="text/javascript")
    response["Cache-Control"] = "max-age=86400"
    response["Service-Worker-Allowed"] = HOME
    return response


@takes()
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the tablet's page can be added to the home screen and opens
    full-screen, on the dealer's tables."""
    icons = [
        {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("icons/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    body = {
        "name": "Brag Event · dealer's tablet",
        "short_name": "Brag tablet",
        "id": HOME,
        "start_url": HOME,
        "scope": HOME,
        "display": "fullscreen",
        "display_override": ["fullscreen", "standalone"],
        "orientation": "any",
        "background_color": "#f4f2ec",
        "theme_color": "#1d5a3a",
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "public, max-age=3600"
    return response
