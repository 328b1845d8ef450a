import mimetypes

from django.apps import AppConfig


class TabletConfig(AppConfig):
    name = "brag_event.tablet"
    verbose_name = "Dealer's tablet"

    def ready(self) -> None:
        # Pyodide is JavaScript modules (.mjs) and WebAssembly: browsers refuse a module script
        # served as anything but JavaScript (Python 3.11's table does not know .mjs).
        mimetypes.add_type("text/javascript", ".mjs")
        mimetypes.add_type("application/wasm", ".wasm")
