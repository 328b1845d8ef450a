"""What a public read costs the server, at Django and at nginx's cache (docs/operations.md,
"Public reads at the edge"): the standings API and page, and the public feed, asked
``--requests`` times over one kept-alive connection each way — from gunicorn directly (a
``304`` for the ETag, and the body from Django's cache) and through a private nginx
configured as deployed (``bench.nginx``: its ``304`` and its cached ``200``) — with the CPU
gunicorn's and nginx's processes spent, per request (from /proc: a tick is 10 ms, so nginx's
figures are upper bounds of a tick over the requests).

    DATABASE_URL=postgres://…/brag_x python -m bench.api_seed --tables 5 > seed.json
    DATABASE_URL=postgres://…/brag_x BRAG_CACHE_URL=redis://… python -m bench.edge_cost seed.json
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import ssl
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from .api import Server, group_cpu, pids_cpu
from .nginx import Nginx

Connect = Callable[[], http.client.HTTPConnection]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed", type=Path, help="bench.api_seed's output")
    parser.add_argument("--requests", type=int, default=400)
    args = parser.parse_args(argv)
    event = json.loads(args.seed.read_text().strip().splitlines()[-1])["event"]
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "brag_event.settings", "DJANGO_DEBUG": "false"}
    server = Server(env, workers=1, worker_class="sync", threads=1, preload=True)
    server.start()
    nginx = Nginx(Path(tempfile.mkdtemp(prefix="bench-edge-")), [server.port])
    nginx.start()
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # nginx's throw-away certificate

    def direct() -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)

    def edge() -> http.client.HTTPConnection:
        return http.client.HTTPSConnection("127.0.0.1", nginx.port, timeout=30, context=context)

    def run(label: str, connect: Connect, path: str, headers: dict[str, str]) -> None:
        conn = connect()
        conn.request("GET", path, headers=headers)
        conn.getresponse().read()
        g0, n0 = sum(group_cpu(server.pid).values()), sum(pids_cpu(nginx.pids()).values())
        t0 = time.perf_counter()
        statuses: Counter[int] = Counter()
        for _ in range(args.requests):
            conn.request("GET", path, headers=headers)
            answer = conn.getresponse()
            answer.read()
            statuses[answer.status] += 1
            if (answer.getheader("Connection") or "").lower() == "close":
                conn.close()
                conn = connect()
        wall = (time.perf_counter() - t0) / args.requests * 1000
        g1, n1 = sum(group_cpu(server.pid).values()), sum(pids_cpu(nginx.pids()).values())
        n = args.requests
        print(
            f"  {label:<54} gunicorn {1000 * (g1 - g0) / n:6.3f} ms, nginx "
            f"{1000 * (n1 - n0) / n:6.3f} ms of CPU a request; {dict(statuses)}, {wall:.1f} ms"
        )

    try:
        api, page = f"/api/v1/events/{event}/standings/", f"/standings/{event}/"
        probe = direct()
        probe.request("GET", api)
        answer = probe.getresponse()
        answer.read()
        etag = answer.getheader("ETag") or ""
        run("standings API, Django, If-None-Match (304)", direct, api, {"If-None-Match": etag})
        run("standings API, Django, from its cache (200)", direct, api, {})
        run("standings page, Django, from its cache (200)", direct, page, {})
        run("standings API via nginx, If-None-Match (304)", edge, api, {"If-None-Match": etag})
        run("standings API via nginx, from its cache (200)", edge, api, {})
        run("standings page via nginx, from its cache (200)", edge, page, {})
        # The public feed (issue 47), against the standings above in the same run.
        feed, atom = f"/standings/{event}/feed.json", f"/standings/{event}/feed.atom"
        probe.request("GET", feed)
        answer = probe.getresponse()
        answer.read()
        tag = answer.getheader("ETag") or ""
        run("feed JSON, Django, If-None-Match (304)", direct, feed, {"If-None-Match": tag})
        run("feed JSON, Django, from its cache (200)", direct, feed, {})
        run("feed Atom, Django, from its cache (200)", direct, atom, {})
        run("feed JSON via nginx, If-None-Match (304)", edge, feed, {"If-None-Match": tag})
        run("feed JSON via nginx, from its cache (200)", edge, feed, {})
    finally:
        nginx.stop()
        server.stop()
        server.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
