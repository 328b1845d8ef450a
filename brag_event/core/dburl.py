"""``DATABASE_URL`` with libpq's multi-host form, for a primary and its standby (issue 46).

``postgres://brag:pw@db-a:5432,db-b:5432/brag?target_session_attrs=read-write`` lists the
machines PostgreSQL may be on; libpq tries them in order and keeps the first that accepts
writes, so after the standby is promoted every new connection (Django's next one, after its
health check finds the old one dead) reaches the new primary with no restart.

dj-database-url reads ``host1,host2`` but not ``host1:port1,host2:port2`` (it refuses the URL):
this splits the hosts and ports out, lets dj-database-url read the rest (a URL with the first
host), and hands libpq both lists as ``HOST`` and ``PORT`` (``"db-a,db-b"``, ``"5432,5432"``),
which Django's PostgreSQL backend passes on as they are. Written here because no maintained
URL parser for Django reads libpq's multi-host form."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

import dj_database_url

# Seconds libpq waits for each host before it tries the next: a machine that went away (no
# "connection refused", only silence) costs this much per new connection until it is removed
# from the URL. libpq's own default is to wait for ever.
MULTI_HOST_CONNECT_TIMEOUT = 3


def _host_port(part: str) -> tuple[str, str]:
    if part.startswith("["):  # [IPv6]:port
        host, _, rest = part[1:].partition("]")
        return host, rest.removeprefix(":")
    host, _, port = part.rpartition(":") if ":" in part else (part, "", "")
    return host, port


def database_config(url: str, **kwargs: Any) -> dict[str, Any]:
    """Django's ``DATABASES`` entry for ``url`` (keyword arguments as dj-database-url's)."""
    parts = urlsplit(url)
    userinfo, at, hostlist = parts.netloc.rpartition("@")
    if parts.scheme not in {"postgres", "postgresql", "pgsql"} or "," not in hostlist:
        return dict(dj_database_url.parse(url, **kwargs))
    pairs = [_host_port(p) for p in hostlist.split(",")]
    hosts = [h for h, _ in pairs]
    if any(not h for h in hosts):
        raise ValueError("DATABASE_URL lists an empty host among its hosts")
    ports = [p for _, p in pairs]
    for p in ports:
        if p and not p.isdigit():
            raise ValueError(f"DATABASE_URL has a port that is not a number: {p!r}")
    first = f"[{hosts[0]}]" if ":" in hosts[0] else hosts[0]
    single = urlunsplit(parts._replace(netloc=f"{userinfo}{at}{first}"))
    config: dict[str, Any] = dict(dj_database_url.parse(single, **kwargs))
    config["HOST"] = ",".join(hosts)
    # libpq takes one port for every host, or one per host.
    config["PORT"] = ",".join(p or "5432" for p in ports) if any(ports) else ""
    config.setdefault("OPTIONS", {}).setdefault("connect_timeout", MULTI_HOST_CONNECT_TIMEOUT)
    return config
