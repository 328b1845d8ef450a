"""Ask the local gunicorn for /healthz (default) or /readyz; exit 0 when it answers 200.

    python deploy/healthcheck.py [/healthz|/readyz] [--url http://127.0.0.1:8000]

For Docker's HEALTHCHECK, compose and monitoring on a server. Production settings answer only
to the host names of DJANGO_ALLOWED_HOSTS and redirect plain HTTP to HTTPS, so the request
carries, as nginx would, ``Host:`` the first allowed host and ``X-Forwarded-Proto: https``.
The address comes from GUNICORN_BIND (its first address; 0.0.0.0 becomes 127.0.0.1) unless
``--url`` is given. Standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import os
import sys
from urllib.parse import urlsplit


def target() -> tuple[str, int]:
    bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000").split(",")[0].strip()
    host, _, port = bind.rpartition(":")
    host = host.strip("[]")
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return host, int(port or 8000)


def allowed_host() -> str:
    hosts = [h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",")]
    for host in hosts:
        if host and host != "*":
            return host.lstrip(".")
    return "localhost"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", default="/healthz", choices=("/healthz", "/readyz"))
    parser.add_argument("--url", help="base URL of gunicorn (default: from GUNICORN_BIND)")
    parser.add_argument("--timeout", type=float, default=4.0)
    args = parser.parse_args(argv)
    if args.url:
        parts = urlsplit(args.url)
        host, port = parts.hostname or "127.0.0.1", parts.port or 80
    else:
        host, port = target()
    conn = http.client.HTTPConnection(host, port, timeout=args.timeout)
    try:
        conn.request(
            "GET",
            args.path,
            headers={"Host": allowed_host(), "X-Forwarded-Proto": "https"},
        )
        response = conn.getresponse()
        body = response.read(2000).decode(errors="replace")
    except OSError as err:
        print(f"{args.path}: {type(err).__name__}: {err}", file=sys.stderr)
        return 1
    finally:
        conn.close()
    print(f"{args.path}: {response.status} {body}")
    return 0 if response.status == 200 else 1


if __name__ == "__main__":
    sys.exit(main())
