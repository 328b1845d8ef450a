"""The Content-Security-Policy of every answer (django-csp; the policy is
``settings.CONTENT_SECURITY_POLICY``), with the one widening the tablet needs.

The tablet's pages run the offline engine: Pyodide (WebAssembly) in a module Web Worker started
from a ``blob:`` URL (``static/tablet/offline/engine-client.js`` starts it from the script's
text, so that it starts from the tablet's own copy when the network is gone). A worker started
from a ``blob:`` URL runs under the policy of the page that started it, so the tablet's pages
(the ``tablet`` URL namespace) add ``blob:`` to ``worker-src`` and ``script-src`` (the worker
imports Pyodide's cached modules from ``blob:`` URLs too) and ``'wasm-unsafe-eval'`` to
``script-src`` (compiling WebAssembly: without it Chromium refuses ``WebAssembly.compile``).
A ``blob:`` URL can only be made by a script that already runs on this origin. Every other page
keeps the strict policy."""

from __future__ import annotations

from typing import Any

from csp.constants import WASM_UNSAFE_EVAL
from csp.middleware import CSPMiddleware, PolicyParts
from django.http import HttpRequest
from django.http.response import HttpResponseBase

TABLET_NAMESPACE = "tablet"
TABLET_WIDENING: dict[str, Any] = {
    "script-src": ["blob:", WASM_UNSAFE_EVAL],
    "worker-src": ["blob:"],
}


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware; the tablet's pages get ``TABLET_WIDENING`` on top."""

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        match = getattr(request, "resolver_match", None)
        if match is not None and TABLET_NAMESPACE in match.namespaces and parts.update is None:
            parts.update = TABLET_WIDENING
        return parts
