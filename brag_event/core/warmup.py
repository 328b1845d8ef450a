"""What a web process does before it serves: ``warm_up()``, called by gunicorn's arbiter
(``deploy/gunicorn.conf.py``) once the app is preloaded and before it forks its workers, so that
no worker pays Django's lazy start-up on its first requests.

It names the lazy parts one by one (the URLconf and views, reverse lookups, templates, the static
manifest); ``tests/core/test_warmup.py`` fails if a first request afterwards still imports a
module or compiles a template. It opens no database or cache connection.
"""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.template import engines
from django.template.autoreload import get_template_directories
from django.template.backends.django import DjangoTemplates
from django.urls import get_resolver
from django.utils import formats, translation
from django.utils.module_loading import import_string


def warm_up() -> int:
    """Import the URLconf, build its reverse lookups, compile every template, load the static
    files' manifest and import the classes named in settings that Django imports on first use.
    Returns how many templates were compiled."""
    resolver = get_resolver()
    resolver.url_patterns  # noqa: B018 — imports the URLconf: every view and what it imports
    resolver.reverse_dict  # noqa: B018 — builds the reverse lookups (``{% url %}``, ``reverse``)
    compiled = 0
    for engine in engines.all():
        if not isinstance(engine, DjangoTemplates):  # the directories below are Django's
            continue
        engine.engine.template_context_processors  # noqa: B018 — imported on a first render
        for directory in get_template_directories():
            for path in sorted(Path(directory).rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    # The cached loader keeps what it compiled, for the process and its forks.
                    engine.get_template(str(path.relative_to(directory)))
                    compiled += 1
    staticfiles_storage.url  # noqa: B018 — the storage, with its manifest under production settings
    with translation.override(settings.LANGUAGE_CODE):
        formats.get_format("DATE_FORMAT")  # imports the language's format modules
    # Imported on a request's first use, without connecting to anything.
    for dotted in (
        settings.MESSAGE_STORAGE,
        settings.SESSION_SERIALIZER,
        *(cache["BACKEND"] for cache in settings.CACHES.values()),
    ):
        import_string(dotted)
    return compiled
