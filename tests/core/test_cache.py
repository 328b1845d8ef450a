"""The Redis cache backend (``core.cache``): Django's, keeping one redis-py client per pool."""

from __future__ import annotations

import pytest

from brag_event.core.cache import RedisCache
from tests.worker import REDIS, redis_up, require


@pytest.fixture
def redis_cache() -> RedisCache:
    require(redis_up(), f"no Redis at {REDIS}")
    cache = RedisCache(REDIS, {"KEY_PREFIX": "test-core-cache", "TIMEOUT": 60})
    cache.clear()
    return cache


def test_it_answers_as_djangos_backend_does(redis_cache: RedisCache) -> None:
    c = redis_cache
    assert c.get("missing", "default") == "default"
    c.set("answer", ("v1", b"body"))
    assert c.get("answer") == ("v1", b"body")
    assert c.add("answer", "other") is False and c.add("lock", 1, 5) is True
    assert c.incr("lock") == 2
    c.delete("answer")
    assert c.get("answer") is None


def test_one_client_serves_every_operation(redis_cache: RedisCache) -> None:
    c = redis_cache
    inner = c._cache  # type: ignore[attr-defined]  # Django's client, not in the stubs
    first = inner.get_client(write=True)
    c.set("a", 1)
    c.get("a")
    assert inner.get_client() is first and inner.get_client(write=True) is first


def test_a_redis_that_does_not_answer_raises_for_each_operation() -> None:
    """As Django's backend does: the callers (core.conditional, the throttles) treat the error
    as a miss; a client kept does not keep a broken connection either."""
    away = RedisCache("redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 1}})
    for _ in range(2):
        with pytest.raises(Exception, match=r"(?i)connect"):
            away.get("anything")
