"""A VAPID key pair for Web Push (RFC 8292), printed as the two settings that take it:
``python -m brag_event.notify.vapid``. py-vapid makes the keys; this only prints them in the
base64url form browsers and pywebpush take."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid01


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def vapid_pair() -> tuple[str, str]:
    """(private, public): the private key's 32 bytes and the public key's uncompressed point."""
    vapid = Vapid01()
    vapid.generate_keys()
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(private), b64url(public)


if __name__ == "__main__":
    private, public = vapid_pair()
    print(f"BRAG_VAPID_PRIVATE_KEY={private}")
    print(f"BRAG_VAPID_PUBLIC_KEY={public}")
