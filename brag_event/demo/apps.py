from django.apps import AppConfig


class DemoConfig(AppConfig):
    """The demo event (``make run``'s ``load_demo``): the top layer, beside the URLs, because it
    drives every domain app's services as a person's pages would."""

    name = "brag_event.demo"
    verbose_name = "Demo event"
