"""Answers that change only when something happens: an ``ETag`` made of the answer's version
(``tables.versions``), ``304 Not Modified`` to a client that already has it, and the rendered
answer kept in Django's cache so that many clients polling one version cost one rendering.

A broken or missing cache is a miss, never an error. A new version of a public answer is rendered
by one process at a time; the others answer the previous version under its own ETag meanwhile
(docs/architecture.md, "Conditional answers").
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response, patch_cache_control

log = logging.getLogger(__name__)

KEEP_SECONDS = 3600  # an answer nobody asks for again leaves the cache after this
# How long a rendering may hold its lock: far above a rendering's time (tens of ms), short
# enough that a process that died while rendering delays nobody for long.
RENDER_LOCK_SECONDS = 5


def _kept(key: str) -> tuple[str, bytes] | None:
    """The ``(version, body)`` kept under ``key``, if any."""
    try:
        found = cache.get(key)
    except Exception:  # the cache is an optimisation: Redis down is a miss (logged)
        log.warning("cache read failed for %s", key, exc_info=True)
        return None
    if isinstance(found, tuple) and len(found) == 2:
        return str(found[0]), bytes(found[1])
    return None


def _render_lock(key: str, version: str) -> bool:
    """Whether this process may render ``version`` of ``key``: no other one is at it. A broken
    cache says yes (everyone renders, as with no cache)."""
    try:
        return bool(cache.add(f"{key}:rendering", version, RENDER_LOCK_SECONDS))
    except Exception:
        log.warning("cache lock failed for %s", key, exc_info=True)
        return True


def _render_unlock(key: str) -> None:
    try:
        cache.delete(f"{key}:rendering")
    except Exception:
        log.warning("cache unlock failed for %s", key, exc_info=True)


def _keep(key: str, version: str, body: bytes) -> None:
    try:
        cache.set(key, (version, body), KEEP_SECONDS)
    except Exception:
        log.warning("cache write failed for %s", key, exc_info=True)


def etag_of(key: str, version: str) -> str:
    """The ETag of the answer ``key`` at ``version``."""
    return f'"{key}@{version}"'


def keep_on_commit(*, key: str, version: str, body: bytes) -> str:
    """Keep ``body`` as the answer ``key`` at ``version`` once the current transaction commits
    (rolled back: nothing is kept, so no version ever names what did not happen); its ETag."""
    transaction.on_commit(lambda: _keep(key, version, body))
    return etag_of(key, version)


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
    kept = _kept(key)
    if kept is not None and kept[0] == version:
        headers.content = kept[1]
        return headers
    if private or kept is None:
        body = render()
        _keep(key, version, body)
    elif _render_lock(key, version):
        try:
            body = render()
            _keep(key, version, body)
        finally:
            _render_unlock(key)
    else:  # another process renders this version: the previous one, under its own ETag
        stale_etag = etag_of(key, kept[0])
        headers["ETag"] = stale_etag
        answer = get_conditional_response(request, etag=stale_etag, response=headers)
        if answer is not None and answer is not headers:
            return answer
        body = kept[1]
    headers.content = body
    return headers
