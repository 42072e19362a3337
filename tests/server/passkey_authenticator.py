"""A software authenticator for the passkeys' tests: it makes a P-256 key (the
``cryptography`` package), answers a registration with "none" attestation and signs
assertions exactly as the WebAuthn specification lays the bytes out, so the server's
checks (by the ``webauthn`` library) see what a browser would send."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import encode_cbor

UP, UV, AT = 0x01, 0x04, 0x40  # the flags: user present, user verified, attested data


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """One passkey: its key, its credential id, its signature counter, and the user
    handle it was made for."""

    def __init__(self, origin: str = "http://testserver") -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0
        self.origin = origin
        self.handle = b""
        self.rp_id = ""

    def _cose_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return encode_cbor({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge,
                           "origin": origin or self.origin, "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create`` with these options."""
        self.rp_id, self.handle = options["rp"]["id"], unb64(options["user"]["id"])
        attested = (bytes(16) + struct.pack(">H", len(self.credential_id))
                    + self.credential_id + self._cose_key())
        auth_data = (hashlib.sha256(self.rp_id.encode()).digest() + bytes([UP | UV | AT])
                     + struct.pack(">I", self.count) + attested)
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = encode_cbor({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client_data),
                             "attestationObject": b64(attestation), "transports": ["internal"]}}

    def get(self, options: dict[str, Any], origin: str | None = None,
            count: int | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get``: the counter goes up by one (or is
        ``count``, as a cloned authenticator's would be)."""
        self.count = self.count + 1 if count is None else count
        auth_data = (hashlib.sha256(options["rpId"].encode()).digest() + bytes([UP | UV])
                     + struct.pack(">I", self.count))
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signed = auth_data + hashlib.sha256(client_data).digest()
        signature = self.key.sign(signed, ec.ECDSA(hashes.SHA256()))
        return {"id": b64(self.credential_id), "rawId": b64(self.credential_id),
                "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64(client_data),
                             "authenticatorData": b64(auth_data), "signature": b64(signature),
                             "userHandle": b64(self.handle)}}
