"""Pages on paper as PDF: the printable page's own template and stylesheet, laid out by
WeasyPrint (a maintained HTML/CSS-to-PDF library: writing PDF by hand would mean laying out
text, tables and page breaks ourselves).

Nothing is fetched while the PDF is made: the stylesheet is read from the static files, and
WeasyPrint's fetcher allows no protocol, so it refuses every URL (a page's links stay links in the
PDF). WeasyPrint 70 takes a ``URLFetcher`` (its own class, here with no allowed protocol) where
earlier versions took a function."""

from __future__ import annotations

from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest
from django.template.loader import render_to_string

PAPER_CSS = "organiser/paper.css"


def pdf_of(template: str, context: dict[str, Any], request: HttpRequest | None = None) -> bytes:
    """``template`` rendered with ``context`` (and ``pdf`` set, so the page leaves out its
    screen-only parts), as an A4 PDF."""
    # Imported here: WeasyPrint loads Pango when imported; only the PDF views need it.
    from weasyprint import CSS, HTML
    from weasyprint.urls import URLFetcher

    html = render_to_string(template, {**context, "pdf": True}, request=request)
    found = finders.find(PAPER_CSS)
    sheets = [CSS(filename=str(found))] if found else []
    document = HTML(string=html, base_url="/", url_fetcher=URLFetcher(allowed_protocols=()))
    pdf: bytes = document.write_pdf(stylesheets=sheets)
    return pdf
