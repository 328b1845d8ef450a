from django.urls import include, path

from . import (
    access,
    audit_views,
    hall_views,
    people_views,
    player_views,
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
    path("people/", people_views.people, name="people"),
    path("people/<int:person_id>/", people_views.person, name="person"),
    path("imports/<int:batch_id>/", player_views.import_batch, name="import_batch"),
    path("events/<int:event_id>/standings.csv", views.export_standings, name="export_standings"),
    path("events/<int:event_id>/ledger.csv", views.export_ledger, name="export_ledger"),
    path("tokens/", views.tokens, name="tokens"),
    path("lockouts/", views.lockouts, name="lockouts"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke_view, name="token_revoke"),
    path("days/<int:day_id>/open/", views.day_open_view, name="day_open"),
    path("days/<int:day_id>/close/", views.day_close, name="day_close"),
    path("days/<int:day_id>/requalify/", views.requalify, name="requalify"),
    path("days/<int:day_id>/close/status/", views.day_close_status, name="day_close_status"),
    path("days/<int:day_id>/hands.jsonl", views.export_hands, name="export_hands"),
    path("days/<int:day_id>/seating/", include("brag_event.organiser.seating_urls")),
]
