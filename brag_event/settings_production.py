"""Production settings: ``DJANGO_SETTINGS_MODULE=brag_event.settings_production``.

Everything of ``brag_event.settings``, with what production must have: a real secret key,
PostgreSQL, Redis as Celery's broker (tasks are never run eagerly), DEBUG off, secure cookies and
headers behind a TLS-terminating proxy (nginx, see ``deploy/``)."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

from brag_event.core.public_urls import public_base_url_checked

from .settings import *  # noqa: F403
from .settings import BRAG_PUBLIC_BASE_URL, CACHE_TIMEOUT, DATABASES, LOGGING, env_bool


def _required(name: str) -> str:
    value = os.environ.get(name, "").strip()
    if not value:
        raise ImproperlyConfigured(f"{name} must be set in production")
    return value


DEBUG = False
SECRET_KEY = _required("DJANGO_SECRET_KEY")
ALLOWED_HOSTS = [h.strip() for h in _required("DJANGO_ALLOWED_HOSTS").split(",") if h.strip()]
CSRF_TRUSTED_ORIGINS = [f"https://{h.lstrip('.')}" for h in ALLOWED_HOSTS if h != "*"]

# The address printed for phones (core.public_urls) never comes from a request here: when
# BRAG_PUBLIC_BASE_URL is unset it is the first allowed host over https (nginx serves TLS), and
# a first host that names no single machine (".example.org", "*") must be told it.
if not BRAG_PUBLIC_BASE_URL:
    _first = ALLOWED_HOSTS[0] if ALLOWED_HOSTS else ""
    if not _first or _first.startswith(".") or "*" in _first:
        raise ImproperlyConfigured(
            "BRAG_PUBLIC_BASE_URL must be set in production (the address phones in the hall "
            "reach) when the first of DJANGO_ALLOWED_HOSTS is not one host name"
        )
    BRAG_PUBLIC_BASE_URL = public_base_url_checked(f"https://{_first}")

if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise ImproperlyConfigured("production runs on PostgreSQL: set DATABASE_URL=postgres://…")

CELERY_BROKER_URL = _required("CELERY_BROKER_URL")
if not CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured("production uses Redis as Celery's broker: redis://…")
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_EAGER_PROPAGATES = False

# The cache every worker and node shares (the API login's throttle, the cached answers of the
# reads): Redis, never a process's memory. Its own database number: clearing the cache must not
# touch Celery's queues.
_CACHE = _required("BRAG_CACHE_URL")
if not _CACHE.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured("production keeps its cache in Redis: BRAG_CACHE_URL=redis://…")
if _CACHE == CELERY_BROKER_URL:
    raise ImproperlyConfigured("BRAG_CACHE_URL needs a Redis database of its own, not the broker's")
CACHES = {
    "default": {
        "BACKEND": "brag_event.core.cache.RedisCache",
        "LOCATION": _CACHE,
        "KEY_PREFIX": "brag",
        # A Redis that does not answer is given up on in a second (BRAG_CACHE_TIMEOUT): every
        # use of the cache treats an error as a miss (docs/operations.md, "When Redis is down").
        "OPTIONS": {"socket_connect_timeout": CACHE_TIMEOUT, "socket_timeout": CACHE_TIMEOUT},
    }
}
CACHES["throttle"] = CACHES["default"]  # the write throttle's counts, shared by every worker

# Behind nginx, which terminates TLS and sets X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = os.environ.get("BRAG_SSL_REDIRECT", "true").lower() != "false"
# Load balancers probe gunicorn directly, without nginx's forwarded header.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
# Hashed static file names (collectstatic writes the manifest): nginx caches them for a year.
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "brag_event.tablet.staticfiles.TabletStaticStorage"},
}
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = int(os.environ.get("BRAG_HSTS_SECONDS", "31536000"))
# HSTS for this host only, unless the deploy chooses more: includeSubDomains binds every other
# site under the domain to HTTPS too, and preload asks browsers to build the rule in (leaving
# their list takes months). Both are the domain owner's decision, so both default off, and
# `check --deploy`'s reminders of them (W005, W021) are silenced while they are.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("BRAG_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("BRAG_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [
    *([] if SECURE_HSTS_INCLUDE_SUBDOMAINS else ["security.W005"]),
    *([] if SECURE_HSTS_PRELOAD else ["security.W021"]),
]
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# The log (stderr: the journal under systemd, `docker logs` under compose): every 500 with its
# traceback (django.request, see settings.LOGGING), lockouts and security events, each line with
# its time, level and logger (docs/operations.md, "Logs").
LOGGING = {
    **LOGGING,
    "formatters": {"line": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": "line",
            "filters": ["masked_links"],
        }
    },
}
