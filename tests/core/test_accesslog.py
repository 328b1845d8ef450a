"""Players' link tokens masked in the logs (brag_event/core/accesslog.py): gunicorn's access log
through its logger class, Django's own log through a filter."""

from __future__ import annotations

import logging
from datetime import timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn.config import Config
from hypothesis import given
from hypothesis import strategies as st

from brag_event.core.accesslog import MaskedLinksFilter, MaskedLinksLogger, links_masked

SIGNATURE = "1xXInI:LnItbxd9od41pINEwczxyfs9R91wLq_0VfQk-yO_ylE"


@pytest.mark.parametrize(
    ("text", "logged"),
    [
        # A link: its payload (whose link, which generation) kept, its signature masked.
        (f"/p/MQ:{SIGNATURE}/", "/p/MQ:***/"),
        (f"/p/WzEyLDJd:{SIGNATURE}/?utm=x", "/p/WzEyLDJd:***/?utm=x"),
        (f"/p/.eJyLNjQ0MjA0:{SIGNATURE}/", "/p/.eJyLNjQ0MjA0:***/"),
        (f"GET /p/MQ:{SIGNATURE}/ HTTP/1.1", "GET /p/MQ:***/ HTTP/1.1"),
        # The Referer of a request from the page.
        (f"https://brag.example.org/p/MQ:{SIGNATURE}/", "https://brag.example.org/p/MQ:***/"),
        # No readable payload: the whole token.
        ("/p/MQ%3A1xXInI%3ALnItbxd9od41pI/", "/p/***/"),
        ("/p/not-a-token/", "/p/***/"),
        (":abc", ":abc"),
        ("/p/:abc/", "/p/***/"),
        ("/p/MQ:/", "/p/***/"),
        # Two in one field; nothing else touched.
        (f"/p/MQ:{SIGNATURE}/ from /p/Mg:{SIGNATURE}/", "/p/MQ:***/ from /p/Mg:***/"),
        ("/standings/3/?day=2", "/standings/3/?day=2"),
        ("/p/", "/p/"),
        ("-", "-"),
    ],
)
def test_links_masked(text: str, logged: str) -> None:
    assert links_masked(text) == logged


@given(st.text(alphabet="ABCabc019_-.:%", min_size=1, max_size=30), st.text(max_size=20))
def test_no_token_survives(token: str, rest: str) -> None:
    """Whatever a link's path segment is, it is logged as ``***`` or as ``<payload>:***``
    (the payload as it was, no colon in it), never with what follows its colon."""
    masked = links_masked(f"GET /p/{token}/{rest}")
    segment = masked.split("/p/", 1)[1].split("/", 1)[0]
    payload, colon, signature = token.partition(":")
    assert segment in ("***", f"{payload}:***"), (token, masked)
    if segment != "***":
        assert colon and signature and ":" not in payload


def test_gunicorns_access_log_masks_every_field() -> None:
    logger = MaskedLinksLogger(Config())
    path = f"/p/MQ:{SIGNATURE}/"
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": path,
        "PATH_INFO": path,
        "QUERY_STRING": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "HTTP_REFERER": f"https://brag.example.org{path}",
    }
    request = SimpleNamespace(headers=[("REFERER", environ["HTTP_REFERER"])])
    response = SimpleNamespace(status="410 Gone", sent=1183, headers=[])
    atoms = logger.atoms(response, request, environ, timedelta(milliseconds=6))
    assert atoms["r"] == "GET /p/MQ:***/ HTTP/1.1"
    assert atoms["U"] == "/p/MQ:***/"
    assert atoms["f"] == atoms["{referer}i"] == "https://brag.example.org/p/MQ:***/"
    assert atoms["{raw_uri}e"] == "/p/MQ:***/"
    assert not [k for k, v in atoms.items() if SIGNATURE in str(v)]
    assert (atoms["s"], atoms["B"], atoms["M"]) == ("410", 1183, 6)  # the rest as it was


def test_djangos_log_masks_links_in_a_message(caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("tests.accesslog")
    masking = MaskedLinksFilter()
    log.addFilter(masking)
    try:
        with caplog.at_level(logging.ERROR, logger="tests.accesslog"):
            log.error("%s: %s", "Internal Server Error", f"/p/MQ:{SIGNATURE}/")
            log.error("Internal Server Error: %s", "/standings/3/")
    finally:
        log.removeFilter(masking)
    assert [r.getMessage() for r in caplog.records] == [
        "Internal Server Error: /p/MQ:***/",
        "Internal Server Error: /standings/3/",
    ]


def test_the_settings_mask_djangos_log() -> None:
    from django.conf import settings

    config: dict[str, Any] = settings.LOGGING
    assert "masked_links" in config["handlers"]["console"]["filters"]
    assert config["filters"]["masked_links"]["()"].endswith(".MaskedLinksFilter")
