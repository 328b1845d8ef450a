from django.urls import path

from . import floor_views as views
from . import paper_views

app_name = "floor"

urlpatterns = [
    path("events/<int:event_id>/floor/", views.board, name="board"),
    path("events/<int:event_id>/floor/dealing/", views.dealing, name="dealing"),
    path("floor/calls/<int:call_id>/", views.call, name="call"),
    path("floor/penalties/<int:penalty_id>/lift/", views.lift, name="lift"),
    path("floor/hands/<int:hand_id>/confirm-award/", views.award_confirm, name="award_confirm"),
    path("floor/hands/<int:hand_id>/", paper_views.hand_history, name="hand_history"),
]
