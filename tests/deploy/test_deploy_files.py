"""The deployment files are valid: shell scripts parse, systemd units verify, gunicorn accepts
its configuration and serves /healthz with it, compose.yaml names its eight services with health
checks, env.example covers every variable the settings read (and is itself a configuration that
passes ``check --deploy``), and nginx accepts its configuration when nginx is installed."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.processes import check_deploy, gunicorn, stop

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
UNITS = DEPLOY / "systemd"
SETTINGS = sorted((ROOT / "brag_event").glob("settings*.py"))
SERVICES = {"web", "worker", "beat", "postgres", "standby", "sync-guard", "redis", "nginx"}

# Production settings with values that connect to nothing (nothing here needs a database).
PRODUCTION = {
    "DJANGO_SETTINGS_MODULE": "brag_event.settings_production",
    "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    "DJANGO_ALLOWED_HOSTS": "brag.example.org",
    "DATABASE_URL": "postgres://brag:secret@127.0.0.1:1/brag",
    "CELERY_BROKER_URL": "redis://127.0.0.1:1/0",
    "BRAG_CACHE_URL": "redis://127.0.0.1:1/1",
}


def production_env(**extra: str) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in PRODUCTION and not k.startswith(("GUNICORN_", "BRAG_", "DJANGO_"))
    }
    env.update(PRODUCTION, **extra)
    return env


def env_example() -> dict[str, str]:
    values: dict[str, str] = {}
    for line in (DEPLOY / "env.example").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition("=")
        assert sep and re.fullmatch(r"[A-Z][A-Z0-9_]*", key), f"not KEY=value: {line!r}"
        assert key not in values, f"{key} twice in env.example"
        values[key] = value
    return values


def settings_variables() -> set[str]:
    """Every environment variable brag_event/settings*.py read, however they read it."""
    pattern = re.compile(
        r"""(?:os\.environ\.get|os\.getenv|env_bool|env_list|_required)\(\s*["']([A-Z][A-Z0-9_]*)["']"""
        r"""|os\.environ\[\s*["']([A-Z][A-Z0-9_]*)["']\s*\]"""
        r"""|\benv\s*=\s*["']([A-Z][A-Z0-9_]*)["']"""
    )
    found: set[str] = set()
    for path in SETTINGS:
        for match in pattern.finditer(path.read_text()):
            found.update(g for g in match.groups() if g)
    return found


# --------------------------------------------------------------------------- shell scripts


@pytest.mark.parametrize("script", sorted(DEPLOY.glob("**/*.sh")), ids=lambda p: p.name)
def test_shell_scripts_parse_and_are_strict(script: Path) -> None:
    done = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    text = script.read_text()
    assert text.startswith("#!/usr/bin/env bash\n") and "set -euo pipefail" in text
    assert os.access(script, os.X_OK), f"{script.name} is not executable"


def test_the_scripts_are_all_there() -> None:
    names = {p.name for p in DEPLOY.glob("*.sh")}
    assert {"backup.sh", "restore.sh", "docker-entrypoint.sh"} <= names
    # The standby and point-in-time recovery (issue 46; tests/production/test_standby.py).
    assert {"archive-wal.sh", "base-backup.sh", "failover.sh", "standby-init.sh",
            "sync-guard.sh"} <= names  # fmt: skip


# --------------------------------------------------------------------------- systemd


def unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """Sections → key → values (systemd allows a key more than once), continuation lines
    joined."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    pending = ""
    for raw in path.read_text().splitlines():
        line = pending + raw.strip()
        pending = ""
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            assert line.endswith("]"), line
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{path.name}: {line!r} outside a section"
        key, sep, value = line.partition("=")
        assert sep, f"{path.name}: not Key=Value: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.mark.parametrize("name", ["brag-web", "brag-worker", "brag-beat"])
def test_service_units_run_the_project_as_its_own_user_hardened(name: str) -> None:
    u = unit(UNITS / f"{name}.service")
    assert set(u) == {"Unit", "Service", "Install"}
    service = u["Service"]
    assert service["User"] == ["brag"] and service["Group"] == ["brag"]
    assert service["WorkingDirectory"] == ["/srv/brag-event"]
    assert service["EnvironmentFile"] == ["/etc/brag-event/env"]
    assert "DJANGO_SETTINGS_MODULE=brag_event.settings_production" in service["Environment"]
    assert service["Restart"] == ["on-failure"]
    for key, value in {
        "NoNewPrivileges": "true",
        "ProtectSystem": "full",
        "PrivateTmp": "true",
        "ProtectHome": "true",
    }.items():
        assert service[key] == [value], key
    assert service["ExecStart"][0].startswith("/srv/brag-event/.venv/bin/")
    assert int(service["TimeoutStopSec"][0]) > 0
    assert u["Unit"]["PartOf"] == ["brag-event.target"]
    assert u["Install"]["WantedBy"] == ["brag-event.target"]


def test_the_units_start_what_the_project_documents() -> None:
    web = unit(UNITS / "brag-web.service")["Service"]["ExecStart"][0]
    assert "gunicorn -c /srv/brag-event/deploy/gunicorn.conf.py brag_event.wsgi:application" in web
    worker = unit(UNITS / "brag-worker.service")["Service"]
    command = worker["ExecStart"][0]
    assert "celery -A brag_event.celery worker" in command
    assert "--concurrency=" in command and "-O fair" in command
    # Acks-late friendly: longer than gunicorn's, time for a running task to finish.
    assert int(worker["TimeoutStopSec"][0]) >= 120
    assert worker["KillSignal"] == ["SIGTERM"]
    beat = unit(UNITS / "brag-beat.service")["Service"]["ExecStart"][0]
    assert "celery -A brag_event.celery beat" in beat
    target = unit(UNITS / "brag-event.target")
    assert set(target["Unit"]["Wants"][0].split()) == {
        "brag-web.service",
        "brag-worker.service",
        "brag-beat.service",
    }


@pytest.mark.parametrize("name", ["brag-sync-guard", "brag-base-backup"])
def test_the_database_units_run_their_script_as_postgres_on_a_timer(name: str) -> None:
    service = unit(UNITS / f"{name}.service")["Service"]
    assert service["Type"] == ["oneshot"] and service["User"] == ["postgres"]
    (command,) = service["ExecStart"]
    assert command.startswith("/srv/brag-event/deploy/") and (DEPLOY / command[23:]).is_file()
    timer = unit(UNITS / f"{name}.timer")
    assert timer["Install"]["WantedBy"] == ["timers.target"] and timer["Timer"]


def test_systemd_analyze_verifies_the_units(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (the units' sections were checked above)")
    # The units name /srv/brag-event/.venv/bin/…, which verify wants to exist: point them at
    # this checkout's interpreter's directory.
    bindir = str(Path(sys.executable).parent) + "/"
    for path in UNITS.iterdir():
        text = path.read_text().replace("/srv/brag-event/.venv/bin/", bindir)
        text = text.replace("/srv/brag-event/deploy/", f"{DEPLOY}/")
        (tmp_path / path.name).write_text(text)
    names = sorted(p.name for p in tmp_path.iterdir())
    done = subprocess.run(
        [analyze, "verify", "--man=no", *[f"./{n}" for n in names]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------- gunicorn


@pytest.mark.slow  # gunicorn loads the application in a process of its own
def test_gunicorn_accepts_its_configuration() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "--check-config",
            "-c",
            str(DEPLOY / "gunicorn.conf.py"),
            "brag_event.wsgi:application",
        ],
        cwd=ROOT,
        env=production_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_gunicorn_configuration_reads_the_environment() -> None:
    config: dict[str, Any] = {}
    saved = dict(os.environ)
    os.environ.update(
        GUNICORN_BIND="10.0.0.11:8000,[::1]:8000", GUNICORN_WORKERS="3", GUNICORN_MAX_REQUESTS="500"
    )
    try:
        exec((DEPLOY / "gunicorn.conf.py").read_text(), config)
    finally:
        os.environ.clear()
        os.environ.update(saved)
    assert config["bind"] == ["10.0.0.11:8000", "[::1]:8000"]
    assert config["workers"] == 3 and config["worker_class"] == "sync"
    assert config["preload_app"] is True
    assert (config["max_requests"], config["max_requests_jitter"]) == (500, 50)
    assert config["graceful_timeout"] > 0 and config["timeout"] > 0
    assert "%(M)s" in config["access_log_format"]  # the request time
    # Players' links masked in the access log (brag_event/core/accesslog.py).
    assert config["logger_class"] == "brag_event.core.accesslog.MaskedLinksLogger"
    assert config["forwarded_allow_ips"] == "127.0.0.1,::1"
    defaults: dict[str, Any] = {}
    exec((DEPLOY / "gunicorn.conf.py").read_text(), defaults)
    if "GUNICORN_BIND" not in os.environ:
        assert defaults["bind"] == ["127.0.0.1:8000"]
    if "GUNICORN_WORKERS" not in os.environ:
        assert defaults["workers"] == (os.cpu_count() or 1) + 1
    if "GUNICORN_MAX_REQUESTS" not in os.environ:  # workers are not recycled unless asked
        assert (defaults["max_requests"], defaults["max_requests_jitter"]) == (0, 0)
    # Before forking: the warm-up and the collector's freeze (brag_event.core.warmup).
    assert callable(defaults["when_ready"]) and callable(defaults["pre_fork"])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.slow
def test_gunicorn_serves_healthz_with_production_settings_and_the_healthcheck_sees_it(
    tmp_path: Path,
) -> None:
    """The configuration for real: gunicorn starts with it under production settings, and
    ``deploy/healthcheck.py`` (Docker's and compose's check) gets 200 from /healthz and 503
    from /readyz (the database of these settings does not exist)."""
    port = free_port()
    env = production_env(
        GUNICORN_BIND=f"127.0.0.1:{port}", GUNICORN_WORKERS="1", GUNICORN_LOG_LEVEL="warning"
    )
    log = tmp_path / "gunicorn.log"
    with log.open("wb") as out:
        proc = gunicorn(
            ["-c", str(DEPLOY / "gunicorn.conf.py"), "brag_event.wsgi:application"], env, out
        )
    check = [sys.executable, str(DEPLOY / "healthcheck.py")]
    try:
        deadline = time.monotonic() + 60
        while True:
            done = subprocess.run(
                [*check, "/healthz"], env=env, capture_output=True, text=True, timeout=30
            )
            if done.returncode == 0 or time.monotonic() > deadline or proc.poll() is not None:
                break
            time.sleep(0.3)
        assert done.returncode == 0, done.stdout + done.stderr + log.read_text()
        assert '"status": "ok"' in done.stdout
        ready = subprocess.run(
            [*check, "/readyz"], env=env, capture_output=True, text=True, timeout=30
        )
        assert ready.returncode == 1 and "503" in ready.stdout, ready.stdout + ready.stderr
    finally:
        stop(proc)
    access = log.read_text()
    assert re.search(r'"GET /healthz HTTP/1\.1" 200 \d+ \d+ms', access), access


# --------------------------------------------------------------------------- compose, Docker


def test_compose_names_the_eight_services_with_health_checks() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == SERVICES
    for name in SERVICES - {"beat"}:
        assert services[name].get("healthcheck", {}).get("test"), f"{name} has no health check"
    assert services["postgres"]["image"].startswith("postgres:15")
    assert services["redis"]["image"].startswith("redis:7")
    assert set(compose["volumes"]) >= {"pgdata", "static"}
    for name in ("web", "worker", "beat"):
        service = services[name]
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"
        assert {"path": "./env.example", "required": True} in service["env_file"]
        assert service["environment"]["DJANGO_SETTINGS_MODULE"] == (
            "brag_event.settings_production"
        )
        for needed in ("postgres", "redis"):
            assert service["depends_on"][needed]["condition"] == "service_healthy"
    assert services["worker"]["depends_on"]["web"]["condition"] == "service_healthy"
    assert services["nginx"]["depends_on"]["web"]["condition"] == "service_healthy"
    # Only the web migrates, and nginx serves the static files the web collected.
    assert services["web"]["environment"]["BRAG_MIGRATE"] == "true"
    assert "BRAG_MIGRATE" not in services["worker"]["environment"]
    assert any(v.startswith("static:") for v in services["web"]["volumes"])
    assert any(v.startswith("static:") for v in services["nginx"]["volumes"])
    for path in ("./nginx/compose.conf", "./env.example"):
        assert (DEPLOY / path).is_file()
    # The standby (issue 46): copied by standby-init.sh on its first start, then streaming; the
    # sync guard sets synchronous_standby_names (so no -c of the primary's names it); the apps
    # list both machines and keep the one that takes writes.
    standby = services["standby"]
    assert standby["image"].startswith("postgres:15")
    assert "standby-init.sh 'host=postgres user=brag'" in standby["entrypoint"][-1]
    assert "./standby-init.sh:/srv/deploy/standby-init.sh:ro" in standby["volumes"]
    assert "pg_is_in_recovery()" in standby["healthcheck"]["test"][-1]
    assert standby["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert set(compose["volumes"]) >= {"pgstandby"}
    guard = services["sync-guard"]
    assert "sync-guard.sh" in guard["entrypoint"][-1]
    assert guard["environment"]["BRAG_PG_CONNINFO"].startswith("host=postgres ")
    primary = " ".join(services["postgres"]["command"])
    assert "wal_level=replica" in primary and "synchronous_standby_names" not in primary
    assert any("compose-replication.sh" in v for v in services["postgres"]["volumes"])
    assert (DEPLOY / "postgres" / "compose-replication.sh").is_file()
    url = services["web"]["environment"]["DATABASE_URL"]
    assert "@postgres:5432,standby:5432/" in url and "target_session_attrs=read-write" in url
    assert services["web"]["environment"]["BRAG_EXPECT_STANDBY"] == "true"


def test_dockerfile_runs_as_a_user_collects_static_and_checks_health() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert re.search(r"^USER brag$", text, re.M)
    assert "collectstatic --noinput" in text and "pip install" in text
    assert re.search(r"^HEALTHCHECK .*\n.*healthcheck\.py.*/healthz", text, re.M)
    assert 'ENTRYPOINT ["/app/deploy/docker-entrypoint.sh"]' in text
    entrypoint = (DEPLOY / "docker-entrypoint.sh").read_text()
    assert 'if [ "${BRAG_MIGRATE:-false}" = "true" ]' in entrypoint


# --------------------------------------------------------------------------- env.example


def test_env_example_covers_every_variable_the_settings_read() -> None:
    read = settings_variables()
    # The grep finds what it should (a guard against a pattern that silently matches nothing).
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "CELERY_BROKER_URL", "BRAG_DB_PREPARED"} <= read
    missing = read - set(env_example())
    assert not missing, f"deploy/env.example lacks {sorted(missing)}"


@pytest.mark.slow  # a Django start in a process of its own
def test_env_example_is_a_production_configuration_that_passes_check_deploy() -> None:
    values = env_example()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GUNICORN_", "BRAG_", "DJANGO_", "CELERY_")) and k != "DATABASE_URL"
    }
    env.update({k: v for k, v in values.items() if v != ""})
    done = check_deploy(env)
    assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------- nginx


# nginx -t creates its temporary directories: in the test's directory, not /var/lib/nginx.
TEMP_PATHS = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")


def nginx_binary() -> str | None:
    return os.environ.get("BRAG_TEST_NGINX") or shutil.which("nginx")


@pytest.mark.parametrize("conf", ["brag-event.conf", "compose.conf"])
def test_nginx_accepts_the_configuration(conf: str, tmp_path: Path) -> None:
    nginx = nginx_binary()
    openssl = shutil.which("openssl")
    if nginx is None or openssl is None:
        pytest.skip("nginx (or openssl, for a throw-away certificate) is not installed")
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"]
    subprocess.run(
        [
            openssl,
            *request,
            "-subj",
            "/CN=brag.example.org",
            "-keyout",
            str(key),
            "-out",
            str(cert),
        ],
        check=True,
        capture_output=True,
        timeout=60,
    )
    text = (DEPLOY / "nginx" / conf).read_text()
    text = re.sub(r"ssl_certificate\s+\S+;", f"ssl_certificate {cert};", text)
    text = re.sub(r"ssl_certificate_key\s+\S+;", f"ssl_certificate_key {key};", text)
    text = text.replace("/var/log/nginx/", f"{tmp_path}/")
    text = text.replace("/var/cache/nginx/", f"{tmp_path}/cache-")
    text = text.replace("server web:8000", "server 127.0.0.1:8000")  # no `web` host here
    (tmp_path / "site.conf").write_text(text)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\n"
        "events {}\n"
        "http {\n"
        "    default_type application/octet-stream;\n"
        f"    access_log {tmp_path}/access.log;\n"
        + "".join(f"    {kind}_temp_path {tmp_path}/{kind};\n" for kind in TEMP_PATHS)
        + f"    include {tmp_path}/site.conf;\n"
        "}\n"
    )
    done = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "test is successful" in done.stderr


NGINX = DEPLOY / "nginx"


def nginx_blocks(text: str, head: str) -> list[str]:
    """The blocks of an nginx configuration whose head (the words before ``{``) matches the
    regular expression ``head``, each from its head to its closing brace."""
    found = []
    for match in re.finditer(rf"^[ \t]*(?:{head})[^{{;]*\{{", text, re.M):
        depth, end = 1, match.end()
        while depth:
            nxt = min(i for i in (text.find("{", end), text.find("}", end)) if i >= 0)
            depth += 1 if text[nxt] == "{" else -1
            end = nxt + 1
        found.append(text[match.start() : end])
    return found


def nginx_statements(text: str, name: str) -> list[str]:
    """Every ``name …;`` statement (over several lines, if it is)."""
    return re.findall(rf"^[ \t]*{name}\b[^;]*;", text, re.M)


@pytest.mark.parametrize("conf", ["brag-event.conf", "compose.conf"])
def test_nginx_keeps_no_page_once_django_refused_it(conf: str) -> None:
    """The public reads' cache (docs/operations.md, "Public reads at the edge"): a 404 or 410
    replaces the kept page, the request that finds a copy out of date is answered by Django
    (no background update), nothing is served stale but for gunicorn's errors, and players'
    pages are not kept at all."""
    text = (NGINX / conf).read_text()
    [cached] = [b for b in nginx_blocks(text, "location") if "proxy_cache brag_public;" in b]
    directives = {line.strip() for line in cached.splitlines()}
    assert "proxy_cache_valid 200 1s;" in directives
    assert "proxy_cache_valid 404 410 1s;" in directives
    assert "proxy_cache_use_stale updating error timeout http_502 http_503 http_504;" in directives
    assert "proxy_cache_background_update" not in cached
    assert "/p/" not in cached.splitlines()[0] and "p/[" not in cached.splitlines()[0]
    assert "proxy_cache " not in text.replace(cached, "")  # the one cached location


@pytest.mark.parametrize("conf", ["brag-event.conf", "compose.conf"])
def test_every_nginx_server_logs_players_links_masked(conf: str) -> None:
    """Each server names the masked format (a server's access_log replaces the http block's
    combined one, which would write the tokens as they are)."""
    text = (NGINX / conf).read_text()
    servers = nginx_blocks(text, "server")
    assert len(servers) == 2
    for server in servers:
        logs = [s for s in nginx_statements(server, "access_log") if "access_log off;" not in s]
        top = [s for s in logs if s.startswith("    access_log")]
        assert len(top) == 1 and top[0].endswith(" brag;"), top
        assert all(s.endswith(" brag;") for s in logs), logs
    [fmt] = nginx_statements(text, "log_format")
    assert fmt.startswith("log_format brag ")
    assert "$request " not in fmt and '"$request"' not in fmt and "$http_referer" not in fmt
    assert "$brag_log_uri" in fmt and "$brag_log_referer" in fmt


def test_the_two_nginx_configurations_agree() -> None:
    """compose.conf is brag-event.conf with the containers' names: the cache, its keys, the
    maps, the log's format and every location but the ACME challenge and compose's health
    check are the same, word for word."""
    texts = {conf: (NGINX / conf).read_text() for conf in ("brag-event.conf", "compose.conf")}

    def shared(text: str) -> dict[str, list[str]]:
        return {
            "maps": nginx_blocks(text, "map"),
            "upstream keepalive": nginx_statements(text, "keepalive"),
            "cache": nginx_statements(text, "proxy_cache_path"),
            "log format": nginx_statements(text, "log_format"),
            "proxy headers": nginx_statements(text, "proxy_set_header"),
            "locations": [
                b
                for b in nginx_blocks(text, "location")
                if "acme-challenge" not in b and "nginx-health" not in b
            ],
        }

    ours, compose = (shared(t) for t in texts.values())
    for part, found in ours.items():
        assert found, part
        assert found == compose[part], part
