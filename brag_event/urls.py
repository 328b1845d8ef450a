from django.contrib import admin
from django.urls import include, path

from brag_event.core import health
from brag_event.public.views import home

# A database that is away answers 503 in words, any other failure our 500 page (core.unavailable).
handler500 = "brag_event.core.unavailable.server_error"

urlpatterns = [
    path("", home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("readyz", health.readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("api/", include("brag_event.api.urls")),
    path("tablet/", include("brag_event.tablet.urls")),
    path("organiser/", include("brag_event.organiser.urls")),
    path("organiser/", include("brag_event.integrity.urls")),
    path("organiser/", include("brag_event.organiser.floor_urls")),
    path("", include("brag_event.public.urls")),
]
