"""A private nginx configured as ``deploy/nginx/brag-event.conf`` configures it, in front of
gunicorn processes started here (the benchmark's, or a test's): its own prefix, configuration,
cache, logs and ports — never the system's nginx. The deployed file is used as it is, but for
what only a real machine has: the certificate (a throw-away one), the paths, the ports and the
upstream's addresses."""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY_CONF = ROOT / "deploy" / "nginx" / "brag-event.conf"
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def nginx_binary() -> str | None:
    return os.environ.get("BRAG_TEST_NGINX") or shutil.which("nginx")


class Nginx:
    """nginx with the deployed site's configuration, HTTPS on ``port``, to ``upstreams``."""

    def __init__(self, root: Path, upstreams: list[int], clients: int = 0) -> None:
        """``clients``: how many connections the load keeps open (each worker is given room
        for all of them and one to gunicorn each, if that is more than Debian's 768)."""
        self.root = root
        self.port = free_port()
        self.binary = nginx_binary()
        assert self.binary is not None, "nginx is not installed"
        root.mkdir(parents=True, exist_ok=True)
        cert, key = root / "cert.pem", root / "key.pem"
        subprocess.run(
            [
                *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
                *("-subj", "/CN=brag.example.org", "-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        text = DEPLOY_CONF.read_text()
        text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
        text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
        # The logs in the deployed format (the cache's answer and the times; players' links
        # masked), here.
        text = text.replace("/var/log/nginx/", f"{root}/")
        text = text.replace("/var/cache/nginx/", f"{root}/cache-")
        text = text.replace("/srv/brag-event/staticfiles/", f"{ROOT}/static/")
        text = re.sub(r"\s*listen \[::\]:\d+[^;]*;", "", text)  # no IPv6 needed
        text = text.replace("listen 80;", f"listen 127.0.0.1:{free_port()};")
        text = text.replace("listen 443 ssl http2;", f"listen 127.0.0.1:{self.port} ssl http2;")
        servers = "\n    ".join(
            f"server 127.0.0.1:{p} max_fails=1 fail_timeout=10s;" for p in upstreams
        )
        text, n = re.subn(r"server 127\.0\.0\.1:8000 [^;]*;", servers, text, count=1)
        assert n == 1, "the deployed upstream block changed: update bench/nginx.py"
        (root / "site.conf").write_text(text)
        (root / "nginx.conf").write_text(
            f"pid {root}/nginx.pid;\n"
            f"error_log {root}/error.log warn;\n"
            # Started as root, nginx's workers would run as nobody, who cannot enter the
            # test's private temporary directory: they run as the test's user instead.
            + ("user root;\n" if os.geteuid() == 0 else "")
            # Debian's /etc/nginx/nginx.conf, which the deployed site file is included by: a
            # worker per core, 768 connections each (nginx's own default, 512 for one worker,
            # is fewer than ×2's 706 users keep open: the rest were refused and shook hands
            # again, a TLS handshake each) — more where the load keeps more open, as a site
            # with thousands of followers must set it (docs/operations.md).
            + "worker_processes auto;\n"
            f"events {{ worker_connections {max(768, 2 * clients + 64)}; }}\n"
            "http {\n"
            "    default_type application/octet-stream;\n"
            + "".join(f"    {kind}_temp_path {root}/{kind};\n" for kind in TEMP_PATHS)
            + f"    include {root}/site.conf;\n"
            "}\n"
        )
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        assert self.binary is not None
        args = [self.binary, "-p", str(self.root), "-c", str(self.root / "nginx.conf")]
        checked = subprocess.run([*args, "-t"], capture_output=True, text=True, timeout=60)
        assert checked.returncode == 0, checked.stderr
        self.proc = subprocess.Popen(
            [*args, "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=(self.root / "nginx.out").open("wb"),
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert self.proc.poll() is None, (self.root / "error.log").read_text()
                time.sleep(0.1)
        raise AssertionError("nginx did not start")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGQUIT)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    @property
    def base(self) -> str:
        return f"https://127.0.0.1:{self.port}"

    def pids(self) -> list[int]:
        """nginx's master and workers (for their CPU)."""
        if self.proc is None:
            return []
        found = [self.proc.pid]
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == self.proc.pid:
                    found.append(int(entry.name))
        return found
