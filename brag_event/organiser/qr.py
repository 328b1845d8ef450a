"""The QR codes the console prints: the table sheets' and a player's own link."""

from __future__ import annotations

import segno

# A QR code's module is a whole number of CSS pixels (3 px: 0.79 mm on paper, which a phone reads
# from arm's length), with the standard's quiet zone of 4 modules around it. The page never
# resizes the drawing (no CSS width on it): a code scaled down to fit a box loses its edges or
# blurs its modules, and then no phone reads it.
QR_MODULE_PX = 3
QR_QUIET_ZONE = 4


def qr_svg(url: str) -> str:
    """The QR code of ``url``, as inline SVG (no image request, nothing the page's policy must
    allow beyond its own markup)."""
    code = segno.make(url, micro=False)
    return str(code.svg_inline(scale=QR_MODULE_PX, border=QR_QUIET_ZONE, dark="#000", light="#fff"))
