"""gunicorn configuration for Brag Event.

    gunicorn -c deploy/gunicorn.conf.py brag_event.wsgi:application

Every setting that differs between machines comes from the environment (the systemd unit reads
``/etc/brag-event/env``; compose passes ``deploy/env.example``'s variables):

- ``GUNICORN_BIND``: address to listen on, default ``127.0.0.1:8000`` (nginx on the same
  machine). Several addresses: comma-separated. A web node behind a remote nginx binds its
  private address, e.g. ``10.0.0.11:8000``; in a container ``0.0.0.0:8000``.
- ``GUNICORN_WORKERS``: worker processes, default ``cores + 1``.
- ``GUNICORN_TIMEOUT``: seconds a worker may spend on one request before it is killed
  (default 30).
- ``GUNICORN_GRACEFUL_TIMEOUT``: seconds a stopping worker gets to finish its request
  (default 30; systemd's ``TimeoutStopSec`` and compose's ``stop_grace_period`` are longer).
- ``GUNICORN_MAX_REQUESTS``: replace a worker after this many requests, with a jitter of up to
  10 % so that they are not all replaced at once (default 0: never; see "recycling" below).
- ``GUNICORN_FORWARDED_ALLOW_IPS``: the proxies whose ``X-Forwarded-*`` headers are trusted
  (default ``127.0.0.1,::1``: nginx on loopback). Set it to nginx's address when nginx runs on
  another machine or in another container.
- ``GUNICORN_LOG_LEVEL``: default ``info``; ``GUNICORN_ACCESS_LOG``: default ``-`` (stdout,
  i.e. the journal), empty to turn the access log off.

Choosing the workers
--------------------
An action on the API is CPU-bound Python: the API benchmark (``make bench-api``,
docs/performance.md) measures gunicorn's and PostgreSQL's CPU per action. The default is
**cores + 1 sync workers with --preload**: on 2 cores, with PostgreSQL on the same machine,
3 workers reached a 10–12 % higher share of pgbench's rate than 5 (2 × cores + 1) in alternating
runs — fewer processes competing for the cores means fewer context switches and warmer caches, and
one worker more than the cores covers the time a worker waits for PostgreSQL. Sync workers
are one request per process: a slow request never queues behind another one in the same
process, and the GIL is never shared, which is what keeps the tail latency (p99) down when the
cores are busy. Threads (``gthread``) do not add CPU (measured slower here). With PostgreSQL on
another machine, try ``GUNICORN_WORKERS`` = 2 × cores + 1. The tablets and the standings
pages hold no long requests (the pages poll every few seconds), so nothing here needs an
asynchronous worker.

When the cores of one machine are saturated (CPU per action × actions/s ≈ cores), add web
nodes behind nginx's upstream (see ``deploy/nginx/brag-event.conf`` and docs/operations.md)
rather than workers. Each worker holds one PostgreSQL connection (``conn_max_age=60``): keep
``workers × web nodes + Celery worker processes`` below PostgreSQL's ``max_connections``.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from typing import Any


def _int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


# --- sockets
bind = [
    address.strip()
    for address in os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")
    if address.strip()
]
backlog = 2048

# --- workers (see "Choosing the workers" above)
workers = _int("GUNICORN_WORKERS", multiprocessing.cpu_count() + 1)
worker_class = "sync"
# Import Django and the whole project (the engine's 741-value strength table too) once in the
# arbiter, then fork: workers start in milliseconds and share those pages copy-on-write. Code
# changes therefore need a restart (systemctl restart brag-web), not a HUP.
preload_app = True


# --- before the forks: the app warmed up, its objects out of the collector's sight.
# (1) Django imports the URLconf, compiles templates and reads the static manifest on first use:
#     done once here (brag_event.core.warmup), not on every new worker's first requests.
# (2) gc.freeze(), Python's documented recipe for a process that forks without exec: the
#     preloaded objects move to a permanent generation, so a worker's full collections no longer
#     walk them (about 80 ms each, measured with the app loaded) nor write to their pages.
# With recycling off (below), these took make bench-event's ×1 p99s from about 1.2 s to under
# 75 ms (docs/performance.md).
def when_ready(server: Any) -> None:
    if server.cfg.preload_app:
        from brag_event.core.warmup import warm_up

        count = warm_up()
        server.log.info("Warmed up before forking: URLconf, %d templates, static manifest", count)
    gc.freeze()


def pre_fork(server: Any, worker: Any) -> None:
    gc.freeze()  # whatever the arbiter made since, before each (re)spawned worker


# --- timeouts
timeout = _int("GUNICORN_TIMEOUT", 30)
graceful_timeout = _int("GUNICORN_GRACEFUL_TIMEOUT", 30)
# Behind nginx, which keeps its own connections to the clients: a short keep-alive is enough.
keepalive = 5

# --- recycling: off by default (gunicorn's own default). A replaced worker costs the requests
# around it: under make bench-event's load at ×1, replacing each worker every 2,000 requests
# (about once a minute each) took the p99 from about 80 ms to 105-135 ms, even with the
# warm-up above, and about 0.2 of a core. The same run measures the workers' resident memory:
# flat (under a megabyte over the minute, docs/performance.md), so there is no leak to bound. Set
# GUNICORN_MAX_REQUESTS (e.g. 50000) if a worker's memory is ever seen to grow.
max_requests = _int("GUNICORN_MAX_REQUESTS", 0)
max_requests_jitter = max(0, max_requests // 10)

# --- proxying: trust X-Forwarded-For / X-Forwarded-Proto only from nginx.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1,::1")

# --- logging: to stdout/stderr, which systemd's journal and docker collect.
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
errorlog = "-"
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
# Client address (as forwarded by nginx), request line, status, bytes, and the time the request
# took: %(M)s in milliseconds, %(D)s in microseconds.
access_log_format = (
    '%({x-forwarded-for}i)s %(h)s "%(r)s" %(s)s %(B)s %(M)sms %(D)sus "%(a)s" pid=%(p)s'
)
# A player's private link (/p/<token>/) is written with its token masked, in every field a format
# can name (brag_event/core/accesslog.py; nginx's access log does the same).
logger_class = "brag_event.core.accesslog.MaskedLinksLogger"

# --- process
proc_name = "brag-web"
# Worker heartbeat files in memory, not on a disk that may stall.
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
