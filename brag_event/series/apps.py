from django.apps import AppConfig


class SeriesConfig(AppConfig):
    name = "brag_event.series"
    label = "series"
    verbose_name = "Series of events"
    default_auto_field = "django.db.models.BigAutoField"
