from django.urls import path

from . import feed, notices, views

app_name = "public"

urlpatterns = [
    path("standings/<int:event_id>/", views.standings_page, name="standings"),
    path("standings/<int:event_id>/hall/", views.hall, name="hall"),
    path("standings/<int:event_id>/feed/", feed.feed_page, name="feed"),
    path("standings/<int:event_id>/feed.atom", feed.feed_atom, name="feed_atom"),
    path("standings/<int:event_id>/feed.json", feed.feed_json, name="feed_json"),
    path("p/<str:token>/", views.player, name="player"),
    path("p/<str:token>/check-in/", views.player_check_in_view, name="player_check_in"),
    path("p/<str:token>/notices/", notices.notices, name="notices"),
    path("unsubscribe/<str:token>/", notices.unsubscribe, name="unsubscribe"),
    path("series/<int:series_id>/", views.series_page, name="series"),
    path("series/<int:series_id>/standings.csv", views.series_csv, name="series_csv"),
    path("favicon.ico", views.favicon, name="favicon"),
]
