"""Django settings for Brag Event.

Everything that differs between machines comes from environment variables:

- ``DJANGO_SECRET_KEY``: secret key (an insecure development default is used when unset).
- ``DJANGO_DEBUG``: "true"/"false" (default false; ``make run`` turns it on).
- ``DJANGO_ALLOWED_HOSTS``: comma-separated host names.
- ``DATABASE_URL``: database URL (default: SQLite file ``db.sqlite3`` in the project root).
- ``CELERY_BROKER_URL``: Celery broker; when unset, tasks run eagerly in-process.
- ``BRAG_CACHE_URL``: Redis for Django's cache (``redis://host:6379/1``); when unset, a table of
  the database.
- ``BRAG_PUBLIC_BASE_URL``: the address phones in the hall reach (``https://brag.example.org``),
  printed on the table sheets; when unset (development only), the request's own.
- ``EMAIL_HOST`` (and ``EMAIL_PORT``, ``EMAIL_HOST_USER``, ``EMAIL_HOST_PASSWORD``,
  ``EMAIL_USE_TLS``, ``DEFAULT_FROM_EMAIL``): the mail server players' notifications go through;
  when unset, emails wait in the outbox and the organisers' dashboard says so.
- ``BRAG_VAPID_PRIVATE_KEY``, ``BRAG_VAPID_PUBLIC_KEY``, ``BRAG_VAPID_SUBJECT``: Web Push's
  keys (``python -m brag_event.notify.vapid`` makes a pair); when unset, no Web Push is offered.
- ``BRAG_TIME_ZONE``: the default time zone of new events (an IANA name, default Europe/London).
"""

import datetime
import os
import zoneinfo
from pathlib import Path
from typing import Any

from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from brag_event.core.dburl import database_config
from brag_event.core.public_urls import public_base_url_checked

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


SECRET_KEY = os.environ.get(
    "DJANGO_SECRET_KEY",
    "django-insecure-dev-only-brag-event-change-me-in-production",
)
# Off unless asked for: a debug page shows settings and code to whoever triggers an error.
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "brag_event.core",
    "brag_event.events",
    "brag_event.access",
    "brag_event.players",
    "brag_event.notify",
    "brag_event.tables",
    "brag_event.hands",
    "brag_event.ledger",
    "brag_event.audit",
    "brag_event.api",
    "brag_event.tablet",
    "brag_event.organiser",
    "brag_event.public",
    "axes",
    "brag_event.integrity",
    "brag_event.floor",
    "brag_event.closing",
    "brag_event.series",
    "brag_event.demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content-Security-Policy header of every answer (CONTENT_SECURITY_POLICY below).
    "brag_event.core.csp.ContentSecurityPolicyMiddleware",
    # No answer of the organisers' console is kept by a browser or a proxy (organiser.middleware).
    "brag_event.organiser.middleware.ConsoleNoStore",
    "brag_event.core.middleware.QueryStringGuard",
    "brag_event.core.middleware.ChunkedBodyGuard",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # The time zone of the event a page belongs to (events.zones).
    "brag_event.events.middleware.EventTimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last: turns a login that django-axes refused into the lockout answer (core.security).
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "brag_event.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "brag_event.wsgi.application"
ASGI_APPLICATION = "brag_event.asgi.application"

DATABASES = {
    # An empty DATABASE_URL counts as unset: the embedded SQLite default.
    # A primary and its standby: postgres://user:pw@db-a:5432,db-b:5432/brag?target_session_attrs=
    # read-write (core.dburl; docs/operations.md, "Standby and point-in-time recovery").
    "default": database_config(
        os.environ.get("DATABASE_URL", "").strip() or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=60,
        # A kept connection is checked before the first query of each request (one round trip)
        # and replaced if it died: after a PostgreSQL restart no request meets a dead one. While
        # the database is down, requests answer 503 (core.unavailable). BRAG_DB_HEALTH_CHECKS=
        # false saves the round trip; each worker's first request after a restart is then a 503.
        conn_health_checks=env_bool("BRAG_DB_HEALTH_CHECKS", True),
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql" and env_bool(
    "BRAG_DB_PREPARED", True
):
    # Server-side parameters, and psycopg prepares a statement once it has run 5 times on a
    # connection: PostgreSQL then skips parsing and planning the API's hot statements. Turn off
    # (BRAG_DB_PREPARED=false) behind a transaction-mode pooler such as PgBouncer < 1.21.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        server_side_binding=True, prepare_threshold=5
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en-gb"
# The zone a new event gets unless its organiser picks another (events.Event.time_zone): each
# event's pages and exports show its own zone's times (events.zones). An IANA name.
TIME_ZONE = os.environ.get("BRAG_TIME_ZONE", "").strip() or "Europe/London"
if TIME_ZONE not in zoneinfo.available_timezones():
    raise ImproperlyConfigured(f"BRAG_TIME_ZONE is not a time zone's IANA name: {TIME_ZONE!r}")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where collectstatic writes (nginx serves it); a test of the production settings writes elsewhere.
STATIC_ROOT = Path(os.environ.get("BRAG_STATIC_ROOT") or BASE_DIR / "staticfiles")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# django-axes first (it refuses a locked-out login before any password is checked), then Django's
# model backend, loading a session's user with their role in the same query.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "brag_event.api.auth.RoleAwareModelBackend",
]

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "brag_event.api.auth.DeviceTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["brag_event.api.parsers.LimitedJSONParser"],
    "EXCEPTION_HANDLER": "brag_event.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "brag_event.api.resources.common.ContractSchema",
    # Both fail open when the cache cannot be reached (brag_event.api.throttles).
    "DEFAULT_THROTTLE_CLASSES": [
        "brag_event.api.throttles.LoginThrottle",
        "brag_event.api.throttles.WriteThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "login": os.environ.get("BRAG_LOGIN_RATE", "10/min"),
        # Writes per device token (or signed-in user): generous for a dealer's pace.
        "write": os.environ.get("BRAG_WRITE_RATE", "240/min") or None,
    },
    # Throttles identify clients by REMOTE_ADDR unless a trusted proxy count is set: an
    # X-Forwarded-For header from a client must not dodge the login throttle.
    "NUM_PROXIES": int(os.environ.get("BRAG_NUM_PROXIES", "0")),
}

# A form that fails the CSRF check: its page drawn again with what was typed (the console), a
# page in words (elsewhere), the error shape (the API): organiser.csrf.
CSRF_FAILURE_VIEW = "brag_event.organiser.csrf.csrf_failure"

SPECTACULAR_SETTINGS = {
    "TITLE": "Brag Event API",
    "DESCRIPTION": "Tablets, organisers' screens and players' pages. Errors always have the shape "
    '{"error": {"code", "message", "details"}}; writes accept an Idempotency-Key header.',
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "COMPONENT_SPLIT_REQUEST": True,
    # The answers' enums (shapes: api/resources/), named once.
    "ENUM_NAME_OVERRIDES": {
        "ActionEnum": "brag_event.engine.ACTIONS",
        "DayStatusEnum": "brag_event.events.models.Day.Status",
        "HandStatusEnum": "brag_event.hands.models.Hand.Status",
        "PlayerStatusEnum": "brag_event.api.resources.state.PLAYER_STATUSES",
    },
}

# ------------------------------------------------------------------ security (docs/operations.md)
# One cache shared by every process, so that counts (the API login's throttle) are not multiplied
# by gunicorn's workers, and the rendered answers of the reads that change only when something
# happens (the table read, the standings, the dashboard: see core.conditional) are shared: Redis
# when BRAG_CACHE_URL is set (production requires it), else a table of the database (created by
# `migrate`, see core.apps).
BRAG_CACHE_URL = _CACHE_URL = os.environ.get("BRAG_CACHE_URL", "").strip()
CACHE_TIMEOUT = float(os.environ.get("BRAG_CACHE_TIMEOUT", "1"))
CACHES: dict[str, dict[str, Any]] = {
    "default": {
        "BACKEND": "brag_event.core.cache.RedisCache",
        "LOCATION": _CACHE_URL,
        "KEY_PREFIX": "brag",
        # A Redis that does not answer is given up on in a second (BRAG_CACHE_TIMEOUT): every
        # use of the cache treats an error as a miss (docs/operations.md, "When Redis is down").
        "OPTIONS": {"socket_connect_timeout": CACHE_TIMEOUT, "socket_timeout": CACHE_TIMEOUT},
    }
    if _CACHE_URL
    else {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "brag_cache"}
}
# The write throttle's counts (brag_event.api.throttles): the shared Redis when there is one;
# else this process's memory (one process under `make run`), so that a tablet's action costs no
# database statements for them.
CACHES["throttle"] = (
    CACHES["default"]
    if _CACHE_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "throttle"}
)

# django-axes counts failed logins in the database (shared by every worker and node) for every
# way in — the admin's login, the API's (the tablets), and any login page that calls
# authenticate() — and locks a user name out from one address after BRAG_LOGIN_FAILURES
# failures, for BRAG_LOGIN_LOCKOUT_MINUTES. Organisers see and lift lockouts at
# /organiser/lockouts/.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_FAILURE_LIMIT = int(os.environ.get("BRAG_LOGIN_FAILURES", "5"))
AXES_COOLOFF_TIME = datetime.timedelta(
    minutes=int(os.environ.get("BRAG_LOGIN_LOCKOUT_MINUTES", "15"))
)
# A user name from one address: a whole hall of tablets behind one Wi-Fi address is not locked out
# by one dealer's typos, and nobody can lock an organiser out from elsewhere.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_ENABLE_ACCESS_FAILURE_LOG = True
# The log names the user name and address (passwords are never logged).
AXES_SENSITIVE_PARAMETERS: list[str] = []
AXES_CLIENT_IP_CALLABLE = "brag_event.core.security.client_ip"
AXES_LOCKOUT_CALLABLE = "brag_event.core.security.lockout_response"

# The Content-Security-Policy of every page (django-csp; docs/operations.md, "Content Security
# Policy"), enforced, not report-only: scripts and styles come only from this site's own files
# (static/), never inline — no 'unsafe-inline', no nonces (the cached pages of core.conditional
# are shared by many answers, a nonce could not be) — nothing from another origin, no plugins,
# no framing by any other page, forms post only here. The tablet's pages add what its offline
# engine needs (WebAssembly in a worker: core.csp). The QR codes are inline SVG, not images.
CONTENT_SECURITY_POLICY: dict[str, Any] = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF],
        "font-src": [SELF],
        "connect-src": [SELF],
        "worker-src": [SELF],
        "manifest-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    },
}

# The address phones in the hall reach, printed under the table sheets' QR codes
# (core.public_urls; docs/operations.md, "The public base URL"). Production requires one.
BRAG_PUBLIC_BASE_URL = public_base_url_checked(os.environ.get("BRAG_PUBLIC_BASE_URL", ""))
# Players' notifications (brag_event/notify, docs/notifications.md): the mail server from the
# environment, Django's own names. Without EMAIL_HOST the outbox keeps emails waiting.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.smtp.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", "20"))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Brag Event <noreply@localhost>")
# Web Push (VAPID, RFC 8292): the application server's keys, base64url (python -m
# brag_event.notify.vapid prints a pair). Without them the players' page offers email only.
BRAG_VAPID_PRIVATE_KEY = os.environ.get("BRAG_VAPID_PRIVATE_KEY", "")
BRAG_VAPID_PUBLIC_KEY = os.environ.get("BRAG_VAPID_PUBLIC_KEY", "")
# A send claimed longer ago than this is taken for a dead worker's: the outbox sends it again.
BRAG_NOTIFY_LEASE_SECONDS = int(os.environ.get("BRAG_NOTIFY_LEASE_SECONDS", "60"))
BRAG_VAPID_SUBJECT = os.environ.get("BRAG_VAPID_SUBJECT", "mailto:organisers@localhost")
# How long an Idempotency-Key's answer is kept for a retry (docs/operations.md); then pruned.
BRAG_IDEMPOTENCY_DAYS = int(os.environ.get("BRAG_IDEMPOTENCY_DAYS", "7"))

# The API's JSON bodies (brag_event.api.parsers): larger ones get 413, deeper ones 400.
BRAG_JSON_MAX_BYTES = 64 * 1024
BRAG_JSON_MAX_DEPTH = 20

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A player's private link in a message (a 500's "Internal Server Error: /p/…/") is written
    # with its token masked (brag_event/core/accesslog.py).
    "filters": {"masked_links": {"()": "brag_event.core.accesslog.MaskedLinksFilter"}},
    # To stderr (a StreamHandler's default): the journal, `docker logs`, the terminal of `make run`.
    "handlers": {"console": {"class": "logging.StreamHandler", "filters": ["masked_links"]}},
    "loggers": {
        # Failed logins and lockouts (django-axes), and unlocks, reach the service's log.
        "axes": {"handlers": ["console"], "level": "WARNING"},
        "brag_event.security": {"handlers": ["console"], "level": "WARNING"},
        # The database away (a request answered 503) or a transaction run again: one line each.
        "brag_event.db": {"handlers": ["console"], "level": "WARNING"},
        # Every 500, with its traceback. Django's own set-up sends these to mail_admins only
        # when DEBUG is off (nobody: ADMINS is empty) and to the console only when it is on.
        # Not propagated: the "django" logger would mail them too.
        "django.request": {"handlers": ["console"], "level": "ERROR", "propagate": False},
    },
}

# Celery: read by brag_event/celery.py through the "CELERY_" namespace.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or None
if CELERY_BROKER_URL:
    CELERY_TASK_ALWAYS_EAGER = False
    CELERY_TASK_EAGER_PROPAGATES = False
else:
    # No broker configured: run tasks synchronously in-process and let errors propagate.
    CELERY_BROKER_URL = "memory://"
    CELERY_TASK_ALWAYS_EAGER = True
    CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND") or None
# Tasks that acknowledge late (the day close) are delivered again if their worker dies; with
# Redis that happens after the visibility timeout, so keep it short. One task at a time each.
_VISIBILITY = int(os.environ.get("BRAG_CELERY_VISIBILITY_TIMEOUT", "120"))
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": _VISIBILITY,
    # kombu looks for overdue tasks only every interval × throttle seconds (10 × 10 by default),
    # whatever the timeout: sweep at least every 10 s so a killed worker's task comes back soon.
    "unacked_restore_interval": max(1, min(10, _VISIBILITY)),
    "unacked_restore_throttle": 1,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Celery beat: the ledger audit behind the organisers' dashboard alert.
CELERY_BEAT_SCHEDULE = {
    "ledger-check": {
        "task": "ledger.check_all",
        "schedule": float(os.environ.get("BRAG_LEDGER_CHECK_SECONDS", "300")),
    },
    # The integrity monitor (docs/integrity.md): runs only where something changed.
    "integrity-check": {
        "task": "integrity.check_all",
        "schedule": float(os.environ.get("BRAG_INTEGRITY_CHECK_SECONDS", "600")),
    },
    # The day closes' outbox: a close whose job never reached the job queue (Redis down when it
    # was asked) is sent again once the queue is back (closing.tasks).
    # Idempotency records older than BRAG_IDEMPOTENCY_DAYS are deleted (api.services).
    "idempotency-prune": {
        "task": "api.idempotency_prune",
        "schedule": float(os.environ.get("BRAG_IDEMPOTENCY_PRUNE_SECONDS", "3600")),
    },
    # The players' notifications outbox: what is due and was never sent, or whose worker died
    # mid-send, is queued again (notify.tasks).
    "notify-requeue": {
        "task": "notify.requeue",
        "schedule": float(os.environ.get("BRAG_NOTIFY_REQUEUE_SECONDS", "30")),
    },
    # The public feed's entries of the events in play (notify.feed).
    "feed-refresh": {
        "task": "feed.refresh",
        "schedule": float(os.environ.get("BRAG_FEED_REFRESH_SECONDS", "30")),
    },
    "close-requeue": {
        "task": "closing.requeue",
        "schedule": float(os.environ.get("BRAG_CLOSE_REQUEUE_SECONDS", "30")),
    },
}
# Without Celery beat (``make run`` sets it): the organisers' dashboard runs the periodic ledger
# audit itself, as it refreshes, when the latest is older than the beat's period.
BRAG_DASHBOARD_AUDIT = os.environ.get("BRAG_DASHBOARD_AUDIT", "").lower() in ("1", "true", "yes")
# The integrity monitor's false-alarm rate per check and run (docs/integrity.md).
BRAG_INTEGRITY_ALPHA = float(os.environ.get("BRAG_INTEGRITY_ALPHA", "0.001"))
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_TRACK_STARTED = True
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"

# The standby and the archive of the database's changes (issue 46; core.replication,
# docs/operations.md "Standby and point-in-time recovery"). BRAG_EXPECT_STANDBY: the deploy runs a
# standby, so its absence is an alert (on /readyz and the organisers' dashboard) even after the
# sync guard let the primary go on alone. The thresholds: replication lag (seconds), WAL segments
# waiting to be archived, hours since the last base backup.
BRAG_EXPECT_STANDBY = env_bool("BRAG_EXPECT_STANDBY", False)
BRAG_STANDBY_LAG_ALERT = float(os.environ.get("BRAG_STANDBY_LAG_ALERT", "10"))
BRAG_ARCHIVE_BEHIND_ALERT = int(os.environ.get("BRAG_ARCHIVE_BEHIND_ALERT", "3"))
BRAG_BASE_BACKUP_ALERT_HOURS = float(os.environ.get("BRAG_BASE_BACKUP_ALERT_HOURS", "26"))
