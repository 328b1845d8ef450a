"""Django's Redis cache, with one redis-py client per connection pool.

Django's ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` for every cache operation,
and redis-py's constructor (its table of some 170 response callbacks) costs more than the
command it then sends: profiled on the action path, it was a tenth of an action's CPU (each
request does several cache operations: the write throttle, the idempotency of the tablet's
entries, the kept renderings). A client is safe to share (redis-py's clients take a connection
from the pool for each command, and the pool starts afresh in a forked process). Everything
else is Django's: the settings name this backend where they named Django's."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class PooledClient(RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # not in the stubs
        client = self._clients.get(id(pool))
        if client is None:
            client = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            self._clients[id(pool)] = client
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = PooledClient
