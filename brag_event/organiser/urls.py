from django.urls import include, path

from . import (
    access,
    audit_views,
    count_views,
    hall_views,
    paper_views,
    player_views,
    series_views,
    setup_views,
    staff_views,
    views,
)

app_name = "organiser"

urlpatterns = [
    path("", views.events, name="events"),
    path("login/", access.console_login, name="login"),
    path("logout/", access.console_logout, name="logout"),
    path("events/new/", setup_views.event_new, name="event_new"),
    path("events/<int:event_id>/", views.dashboard, name="dashboard"),
    path("events/<int:event_id>/setup/", setup_views.event_setup, name="event_setup"),
    path("days/<int:day_id>/setup/", setup_views.day_setup, name="day_setup"),
    path("days/<int:day_id>/copy-rules/", setup_views.day_rules_copy_view, name="day_rules_copy"),
    path("events/<int:event_id>/live/", views.dashboard_live, name="dashboard_live"),
    path("events/<int:event_id>/hall/", hall_views.hall, name="hall"),
    path("events/<int:event_id>/audit/", audit_views.audit_log, name="audit_log"),
    path("events/<int:event_id>/ledger-audit/", views.audit_now, name="audit_now"),
    path("events/<int:event_id>/players/", player_views.players, name="players"),
    path("events/<int:event_id>/staff/", staff_views.staff, name="staff"),
    path("players/<int:player_id>/", player_views.player, name="player"),
    path("players/<int:player_id>/link/", player_views.player_link, name="player_link"),
    path("imports/<int:batch_id>/", player_views.import_batch, name="import_batch"),
    path("events/<int:event_id>/standings.csv", views.export_standings, name="export_standings"),
    path("events/<int:event_id>/ledger.csv", views.export_ledger, name="export_ledger"),
    path("series/", series_views.series_list, name="series"),
    path("series/<int:series_id>/", series_views.series_detail, name="series_detail"),
    path("tokens/", views.tokens, name="tokens"),
    path("lockouts/", views.lockouts, name="lockouts"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke_view, name="token_revoke"),
    path("days/<int:day_id>/open/", views.day_open_view, name="day_open"),
    path("days/<int:day_id>/close/", views.day_close, name="day_close"),
    path("days/<int:day_id>/requalify/", views.requalify, name="requalify"),
    path("days/<int:day_id>/close/status/", views.day_close_status, name="day_close_status"),
    path("days/<int:day_id>/count/waive/", views.count_waive, name="count_waive"),
    path("tables/<int:table_id>/count/", count_views.table_count, name="table_count"),
    path("tables/<int:table_id>/count/rule/", count_views.count_rule, name="count_rule"),
    path("days/<int:day_id>/hands.jsonl", views.export_hands, name="export_hands"),
    path("days/<int:day_id>/results/", paper_views.results_day, name="results_day"),
    path("days/<int:day_id>/results.pdf", paper_views.results_day_pdf, name="results_day_pdf"),
    path("events/<int:event_id>/results/", paper_views.results_event, name="results_event"),
    path(
        "events/<int:event_id>/results.pdf", paper_views.results_event_pdf, name="results_event_pdf"
    ),
    path("days/<int:day_id>/seating/", include("brag_event.organiser.seating_urls")),
]
