"""Agent identities and signed envelopes as uagents_core.identity and uagents_core.envelope make them: the key
derived from a seed, the address as bech32 of the compressed public key, envelopes signed over the sha256 of
their fields with a plain (randomised, not low-s normalised) ECDSA signature, as `sign_digest` does."""

import base64
import hashlib
import json
import secrets
import struct
import time
import uuid

import ecdsa

import bech32


class Identity:
    def __init__(self, signing_key: ecdsa.SigningKey):
        self._key = signing_key
        self.address = bech32.encode("agent", signing_key.get_verifying_key().to_string("compressed"))

    @staticmethod
    def from_seed(seed: str, index: int = 0) -> "Identity":
        derivation = hashlib.sha256(b"agent" + bytes([index])).digest()
        key = hashlib.sha256(derivation + hashlib.sha256(seed.encode()).digest()).digest()
        return Identity(ecdsa.SigningKey.from_string(key, curve=ecdsa.SECP256k1, hashfunc=hashlib.sha256))

    def sign_digest(self, digest: bytes) -> str:
        return bech32.encode("sig", self._key.sign_digest(digest))


def verify_digest(address: str, digest: bytes, signature: str) -> bool:
    prefix, public_key = bech32.decode(address)
    sig_prefix, raw = bech32.decode(signature)
    if prefix != "agent" or sig_prefix != "sig":
        return False
    key = ecdsa.VerifyingKey.from_string(public_key, curve=ecdsa.SECP256k1)
    try:
        return key.verify_digest(raw, digest)
    except ecdsa.BadSignatureError:
        return False


def envelope_digest(envelope: dict) -> bytes:
    hasher = hashlib.sha256()
    for field in ("sender", "target", "session", "schema_digest"):
        hasher.update(str(envelope[field]).encode())
    if envelope.get("payload") is not None:
        hasher.update(envelope["payload"].encode())
    for field in ("expires", "nonce"):
        if envelope.get(field) is not None:
            hasher.update(struct.pack(">Q", envelope[field]))
    return hasher.digest()


def build_envelope(identity: Identity, target: str, session: str, model, message, protocol_digest: str) -> dict:
    """A signed envelope of a pydantic model instance (`message.json()`, as uagents encodes payloads)."""
    from chat_protocol import schema_digest

    envelope = {
        "version": 1,
        "sender": identity.address,
        "target": target,
        "session": session,
        "schema_digest": schema_digest(model),
        "protocol_digest": protocol_digest,
        "payload": base64.b64encode(message.json().encode()).decode(),
        "expires": int(time.time()) + 300,
        "nonce": secrets.randbits(63),
    }
    envelope["signature"] = identity.sign_digest(envelope_digest(envelope))
    return envelope


def payload_of(envelope: dict) -> str:
    return base64.b64decode(envelope["payload"]).decode()


def new_session() -> str:
    return str(uuid.uuid4())


def dumps(value) -> bytes:
    return json.dumps(value).encode()
