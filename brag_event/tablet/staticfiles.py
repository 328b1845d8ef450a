"""The static files' storage in production: Django's hashed names (``ManifestStaticFilesStorage``)
for every file, and, in the tablet's own scripts (``static/tablet/*.js``, browser ES modules with
no build step), each ``import … from "./x.js";`` rewritten to the hashed name too.

Why: a page names ``main.<hash>.js``; left as they are, its imports would name ``./queue.js``,
the plain name, which nginx keeps for an hour across a release (a new main.js with an old
queue.js), and which the service worker does not keep (it keeps the hashed names: no start-up
with no network). Django's own ``support_js_module_import_aggregation`` does this rewrite, but
for every ``*.js`` collected, and its pattern for ``import("…")`` also matches text such as
``pyimport("brag_event.engine.tablet")`` in the engine's worker, which stops collectstatic; so
its two patterns for static imports and re-exports are used here, on the tablet's modules alone.
The modules import one another one way only (a cycle cannot be hashed: collectstatic stops with
"Max post-process passes exceeded"); tests/tablet/test_offline_assets.py checks both."""

from __future__ import annotations

from django.contrib.staticfiles.storage import ManifestStaticFilesStorage

# Django's own two patterns (django/contrib/staticfiles/storage.py, the ones behind
# support_js_module_import_aggregation): `import … from "./x.js";` and `export … from "./x.js";`.
_STATIC_IMPORTS = (
    (
        r"""(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))"""
        r"""\s*from\s*['"](?P<url>[./].*?)["']\s*;)""",
        """import%(import)s from "%(url)s";""",
    ),
    (
        r"""(?P<matched>export(?s:(?P<exports>[\s\{].*?))\s*from\s*["'](?P<url>[./].*?)["']\s*;)""",
        """export%(exports)s from "%(url)s";""",
    ),
)


class TabletStaticStorage(ManifestStaticFilesStorage):
    """Hashed names, the tablet's ES modules' imports included."""

    patterns = (*ManifestStaticFilesStorage.patterns, ("tablet/*.js", _STATIC_IMPORTS))
