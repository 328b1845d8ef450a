"""Players' private links kept out of the logs.

A player's page is ``/p/<token>/`` (``players.links``), and whoever holds the token sees the page:
an access log that wrote it down would hand the page to everyone who reads the log. The token is
Django's signed value, ``<payload>:<when signed>:<signature>``: the payload names the player and
the link's generation and is no secret (anyone can decode it; nobody can change it without the
secret key); the signature is what opens the page. So the logs keep the payload, which says whose
link and which generation a request was for, and write ``***`` in place of the rest —
``/p/WzEyLDJd:***/``; a token with no readable payload (a colon sent as ``%3A``, a made-up one) is
masked whole: ``/p/***/``.

gunicorn's access log does this through ``MaskedLinksLogger`` (``deploy/gunicorn.conf.py``), for
every field a format can name (the request line, the path, the ``Referer`` and the other
headers); nginx's access log does the same with a ``map`` (``deploy/nginx/brag-event.conf``);
Django's own log through ``MaskedLinksFilter`` (``settings.LOGGING``: a 500's
"Internal Server Error: /p/…/"). Nothing here imports Django: gunicorn loads it before the app.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

MASK = "***"

# ``/p/`` and the path segment after it (up to a slash, query, fragment, quote or space).
_LINK = re.compile(r"(?P<head>/p/)(?P<token>[^/?#&\s\"']+)")


def _masked(match: re.Match[str]) -> str:
    payload, colon, signature = match["token"].partition(":")
    kept = f"{payload}:" if colon and payload and signature else ""
    return f"{match['head']}{kept}{MASK}"


def links_masked(text: str) -> str:
    """``text`` with every player's link token in it masked (all after its payload, or all of
    it)."""
    if "/p/" not in text:
        return text
    return _LINK.sub(_masked, text)


class MaskedLinksLogger(Logger):
    """gunicorn's logger, whose access log masks players' link tokens in every field."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        return {k: links_masked(v) if isinstance(v, str) else v for k, v in found.items()}


class MaskedLinksFilter(logging.Filter):
    """A logging filter that masks players' link tokens in a record's message (its arguments
    merged in first). Tracebacks are left as they are: they show code, not requests."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = links_masked(message)
        if masked != message:
            record.msg, record.args = masked, None
        return True
