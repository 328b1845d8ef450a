"""``make bench-pieces``' URLs: the project's, and the reference endpoints of
``bench.reference_urls`` (see ``bench.pieces_settings``)."""

from __future__ import annotations

from bench import reference_urls
from brag_event import urls

urlpatterns = [*urls.urlpatterns, *reference_urls.urlpatterns]
