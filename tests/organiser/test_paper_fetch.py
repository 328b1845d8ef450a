"""A PDF fetches nothing: HTML that points at an image and a stylesheet on a local HTTP server
still makes a PDF, and the server receives no request; an image given as a file:// URL (outside
the static files) is left out. The same pages laid out with WeasyPrint's default fetcher do reach
the server and do embed the image, so each test would see a fetch."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from brag_event.organiser import paper


class _Recorder(BaseHTTPRequestHandler):
    seen: list[str] = []

    def do_GET(self) -> None:
        self.seen.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, list[str]]]:
    seen: list[str] = []
    handler = type("Handler", (_Recorder,), {"seen": seen})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    httpd.shutdown()
    httpd.server_close()


def _page(base: str) -> str:
    return (
        f'<html><head><link rel="stylesheet" href="{base}/s.css">'
        f"<style>@import url('{base}/i.css'); p {{ background: url('{base}/b.png') }}</style>"
        f'</head><body><p>Results</p><img src="{base}/x.png"></body></html>'
    )


def test_a_pdf_fetches_no_url(
    server: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, seen = server
    monkeypatch.setattr(paper, "render_to_string", lambda *a, **k: _page(base))
    pdf = paper.pdf_of("any.html", {})
    assert pdf.startswith(b"%PDF")
    assert seen == []


def test_the_default_fetcher_would_reach_the_server(server: tuple[str, list[str]]) -> None:
    from weasyprint import HTML

    base, seen = server
    HTML(string=_page(base), base_url="/").write_pdf()
    assert "/x.png" in seen


def _png_page(tmp_path: Path) -> str:
    from PIL import Image

    png = tmp_path / "outside.png"
    Image.new("RGB", (4, 4), "red").save(png)
    return f'<html><body><p>Results</p><img src="{png.as_uri()}"></body></html>'


def test_a_pdf_refuses_a_file_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(paper, "render_to_string", lambda *a, **k: _png_page(tmp_path))
    assert b"/Image" not in paper.pdf_of("any.html", {})


def test_the_default_fetcher_would_read_the_file(tmp_path: Path) -> None:
    from weasyprint import HTML

    assert b"/Image" in HTML(string=_png_page(tmp_path), base_url="/").write_pdf()
