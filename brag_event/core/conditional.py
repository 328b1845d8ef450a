"""Answers that change only when something happens: an ``ETag`` made of the answer's version
(``tables.versions``), ``304 Not Modified`` to a client that already has it, and the rendered
answer kept in Django's cache (Redis in production, local memory under ``make run``) so that
the hundreds of clients polling the same version cost one rendering.

One cache entry per answer — ``(version, body)`` under the answer's key — is overwritten by
the next version, so the cache holds the latest answers only, and an entry is used only when
its version is exactly the one just read. A broken or missing cache is a miss, never an error:
the answer is rendered as if there were no cache."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control

log = logging.getLogger(__name__)

KEEP_SECONDS = 3600  # an answer nobody asks for again leaves the cache after this


def _cached(key: str, version: str) -> bytes | None:
    try:
        found = cache.get(key)
    except Exception:  # the cache is an optimisation: Redis down is a miss (logged)
        log.warning("cache read failed for %s", key, exc_info=True)
        return None
    if isinstance(found, tuple) and len(found) == 2 and found[0] == version:
        return bytes(found[1])
    return None


def _keep(key: str, version: str, body: bytes) -> None:
    try:
        cache.set(key, (version, body), KEEP_SECONDS)
    except Exception:
        log.warning("cache write failed for %s", key, exc_info=True)


def etag_of(key: str, version: str) -> str:
    """The ETag of the answer ``key`` at ``version``."""
    return f'"{key}@{version}"'


def versioned_answer(
    request: HttpRequest,
    *,
    key: str,
    version: str,
    render: Callable[[], bytes],
    content_type: str,
    private: bool,
) -> HttpResponse:
    """The answer ``key`` at ``version``: ``304`` if the request's ``If-None-Match`` names it,
    else the cached body of that version, else ``render()`` (stored for the next client).

    ``version`` must have been read *before* anything ``render`` reads. ``private``: the answer
    is for the signed-in user's eyes (``Cache-Control: private``); public answers may be kept by
    shared caches, but every cache must ask again each time (``no-cache``)."""
    etag = etag_of(key, version)
    headers = HttpResponse(content_type=content_type)
    headers["ETag"] = etag
    if private:
        patch_cache_control(headers, no_cache=True, private=True)
    else:
        patch_cache_control(headers, no_cache=True, public=True)
    # Django's evaluation of the preconditions (RFC 9110 §13.2.2): a 304 for GET and HEAD,
    # carrying the ETag and Cache-Control of ``headers``; ``headers`` itself when they pass.
    answer = get_conditional_response(request, etag=etag, response=headers)
    if answer is not None and answer is not headers:
        return answer
    body = _cached(key, version)
    if body is None:
        body = render()
        _keep(key, version, body)
    headers.content = body
    return headers
