from django.urls import path

from . import views

app_name = "public"

urlpatterns = [
    path("standings/<int:event_id>/", views.standings_page, name="standings"),
    path("standings/<int:event_id>/hall/", views.hall, name="hall"),
    path("p/<str:token>/", views.player, name="player"),
    path("favicon.ico", views.favicon, name="favicon"),
]
