"""One rendering of a public answer's new version at a time (``core.conditional``): a request
that finds another process rendering gets the previous version under that version's own ETag;
private answers, and public ones with nothing kept, are always rendered for the version read."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.http import HttpResponse
from django.test import RequestFactory

from brag_event.core.conditional import etag_of, versioned_answer

KEY = "standings-7"

pytestmark = pytest.mark.django_db  # the cache of the test settings is Django's database cache


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


class Renderer:
    def __init__(self, body: bytes) -> None:
        self.body = body
        self.calls = 0

    def __call__(self) -> bytes:
        self.calls += 1
        return self.body


def ask(version: str, render: Renderer, *, private: bool = False, etag: str = "") -> HttpResponse:
    headers = {"If-None-Match": etag} if etag else {}
    request = RequestFactory().get("/api/v1/events/7/standings/", headers=headers)
    return versioned_answer(
        request,
        key=KEY,
        version=version,
        render=render,
        content_type="application/json",
        private=private,
    )


def test_a_new_version_is_rendered_once_and_kept_and_the_lock_is_released() -> None:
    first = Renderer(b'{"v": 1}')
    answer = ask("1.1", first)
    assert (answer.status_code, answer.content) == (200, b'{"v": 1}')
    assert answer["ETag"] == '"standings-7@1.1"'
    again = Renderer(b"never")
    assert ask("1.1", again).content == b'{"v": 1}' and again.calls == 0
    assert cache.get(f"{KEY}:rendering") is None


def test_while_another_process_renders_the_previous_version_is_served_under_its_own_etag() -> None:
    ask("1.1", Renderer(b'{"v": 1}'))
    assert cache.add(f"{KEY}:rendering", "1.2", 5)  # another worker is rendering 1.2
    waiting = Renderer(b'{"v": 2}')
    answer = ask("1.2", waiting)
    assert waiting.calls == 0
    assert (answer.status_code, answer.content) == (200, b'{"v": 1}')
    assert answer["ETag"] == etag_of(KEY, "1.1") != etag_of(KEY, "1.2")
    # A client that already holds that previous version gets a 304 for it.
    held = ask("1.2", waiting, etag=etag_of(KEY, "1.1"))
    assert (held.status_code, held["ETag"], waiting.calls) == (304, etag_of(KEY, "1.1"), 0)
    # The rendering ends: from then on, the new version.
    cache.delete(f"{KEY}:rendering")
    assert ask("1.2", waiting).content == b'{"v": 2}' and waiting.calls == 1


def test_with_nothing_kept_or_for_a_private_answer_the_version_read_is_rendered() -> None:
    assert cache.add(f"{KEY}:rendering", "1.1", 5)
    fresh = Renderer(b'{"v": 1}')
    assert ask("1.1", fresh).content == b'{"v": 1}' and fresh.calls == 1  # nothing to fall back on
    private = Renderer(b'{"v": 2}')
    answer = ask("1.2", private, private=True)
    assert (answer.content, answer["ETag"], private.calls) == (b'{"v": 2}', etag_of(KEY, "1.2"), 1)


def test_a_rendering_that_fails_releases_the_lock() -> None:
    ask("1.1", Renderer(b'{"v": 1}'))

    def broken() -> bytes:
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        versioned_answer(
            RequestFactory().get("/"),
            key=KEY,
            version="1.2",
            render=broken,
            content_type="application/json",
            private=False,
        )
    assert cache.get(f"{KEY}:rendering") is None
    assert ask("1.2", Renderer(b'{"v": 2}')).content == b'{"v": 2}'
