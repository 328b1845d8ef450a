"""The addresses printed for phones in the hall (the table sheets' QR codes and links).

A page's own request may have come over an address no phone can reach (``127.0.0.1`` under
``make run``, an internal host behind nginx), so a printed address starts with the public base URL
that phones reach: ``BRAG_PUBLIC_BASE_URL`` (docs/operations.md, "The public base URL"). Only
when it is unset — in development; production settings always have one — does it come from the
request."""

from __future__ import annotations

from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

if TYPE_CHECKING:  # settings import this module: nothing here may need configured settings
    from django.http import HttpRequest


def public_base_url_checked(value: str, *, name: str = "BRAG_PUBLIC_BASE_URL") -> str:
    """``value`` without a trailing slash ("" stays ""), or ImproperlyConfigured if it is not an
    http(s) address of a host (an optional port, no path, query or fragment)."""
    value = value.strip().rstrip("/")
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ImproperlyConfigured(f"{name} must be an http:// or https:// address: {value!r}")
    if parts.path or parts.query or parts.fragment:
        raise ImproperlyConfigured(
            f"{name} is a scheme and a host (and a port), without a path: {value!r}"
        )
    return value


def public_url(request: HttpRequest, path: str) -> str:
    """The address of ``path`` (which starts with "/") as phones in the hall reach it."""
    base: str = getattr(settings, "BRAG_PUBLIC_BASE_URL", "")
    if base:
        return base + path
    return request.build_absolute_uri(path)
