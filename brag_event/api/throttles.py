"""The API's throttles: DRF's, counting in the shared cache (Redis in production), and failing
open — a cache that cannot be reached lets the request through, with a logged warning, rather
than failing it. Lockouts after wrong passwords do not depend on them: django-axes keeps those
in the database. So a Redis outage costs the throttles, never a sign-in or an action.

* ``LoginThrottle`` (scope ``login``): the sign-in's attempts per address (DRF's
  ``ScopedRateThrottle`` on views that name a scope).
* ``WriteThrottle`` (scope ``write``): every write (``POST``, ``PUT``, ``PATCH``, ``DELETE``) per
  device token — per signed-in user for a browser session — at ``BRAG_WRITE_RATE`` (240 a
  minute: a dealer enters an action every few seconds, and a tablet's queue sent after a long
  drop of the Wi-Fi stays well under it). Above it: ``429 throttled`` with ``Retry-After``,
  nothing saved and nothing kept (no idempotency record, no refused entry): the tablet's queue
  waits that long and sends again."""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from .models import DeviceToken

log = logging.getLogger("brag_event.api")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _fail_open(throttle: SimpleRateThrottle, request: Request, view: Any) -> bool:
    try:
        return bool(SimpleRateThrottle.allow_request(throttle, request, view))
    except Exception as err:  # the cache is unreachable: count nothing, refuse nothing
        scope = throttle.scope
        log.warning("throttle %s let a request through: cache unavailable (%s)", scope, err)
        return True


class LoginThrottle(ScopedRateThrottle):
    """DRF's scoped throttle (the sign-in's ``login`` scope), counted atomically, failing open.

    Counted by hand rather than with DRF's history: DRF reads the list of past attempts, adds
    one and writes it back, so two processes answering at once both count from the same list
    and let one attempt more through (seen: 7 of 6, six clients on three gunicorn workers). Here
    each attempt is one atomic increment in the shared cache (Redis ``INCR``), in a window of
    the rate's length, weighed with the window before it (a sliding window, as nginx's and
    Cloudflare's limiters estimate it): a burst gets exactly the allowance, at any moment.
    Refused attempts count too — a client that keeps trying waits longer."""

    def allow_request(self, request: Request, view: Any) -> bool:
        # ScopedRateThrottle reads the view's scope and rate first (no cache involved).
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        allowance, length = self.num_requests, self.duration
        if allowance is None or length is None:
            return True  # no rate for the scope: no throttle (as DRF)
        try:
            return self._counted(allowance, length)
        except Exception as err:  # the cache is unreachable: count nothing, refuse nothing
            log.warning(
                "throttle %s let a request through: cache unavailable (%s)", self.scope, err
            )
            return True

    def _counted(self, allowance: int, length: int) -> bool:
        now = self.timer()
        window, into = divmod(now, length)
        current = f"{self.key}:{int(window)}"
        self.cache.add(current, 0, timeout=2 * length)
        count = int(self.cache.incr(current))
        before = int(self.cache.get(f"{self.key}:{int(window) - 1}", 0))
        weight = 1 - into / length
        if before * weight + count <= allowance:
            return True
        # Allowed again once the estimate falls to the allowance: in the next window, when the
        # share of this window's count still weighed leaves room for one more.
        self.retry_in = (length - into) + length * max(0.0, 1 - (allowance - 1) / count)
        return False

    def wait(self) -> float | None:
        return getattr(self, "retry_in", None)


class WriteThrottle(SimpleRateThrottle):
    """Writes per device token (or signed-in user), failing open. No rate set: no throttle."""

    scope = "write"

    def __init__(self) -> None:
        # The ``throttle`` cache (settings: Redis, or this process's memory without it).
        self.cache = caches["throttle"] if "throttle" in settings.CACHES else caches["default"]
        super().__init__()

    def get_rate(self) -> str | None:
        rate: str | None = self.THROTTLE_RATES.get(self.scope)
        return rate

    def get_cache_key(self, request: Request, view: Any) -> str | None:
        if request.method in SAFE_METHODS:
            return None
        auth = request.auth
        if isinstance(auth, DeviceToken):
            ident = f"token-{auth.pk}"
        elif request.user is not None and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            return None  # refused anyway (401/403), or the sign-in (its own throttle)
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def allow_request(self, request: Request, view: Any) -> bool:
        if self.rate is None or request.method in SAFE_METHODS:
            return True
        return _fail_open(self, request, view)
