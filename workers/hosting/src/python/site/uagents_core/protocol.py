"""ProtocolSpecification and the protocol digest, as uagents-core computes it: the manifest's models and
interactions, written with json.dumps(sort_keys=True); name and version do not count."""

import hashlib
import json

from uagents_core.models import Model

__all__ = ["ProtocolSpecification"]


def protocol_digest(interactions: dict) -> str:
    models, rules = {}, {}
    for request, replies in interactions.items():
        request_digest = Model.build_schema_digest(request)
        models[request_digest] = request
        rules[request_digest] = sorted({Model.build_schema_digest(reply) for reply in replies})
        for reply in replies:
            models[Model.build_schema_digest(reply)] = reply
    manifest = {
        "version": "1.0",
        "metadata": {},
        "models": sorted(({"digest": d, "schema": m.schema()} for d, m in models.items()), key=lambda item: item["digest"]),
        "interactions": sorted(
            ({"type": "normal", "request": r, "responses": rs} for r, rs in rules.items()), key=lambda item: item["request"]
        ),
    }
    return "proto:" + hashlib.sha256(json.dumps(manifest, indent=None, sort_keys=True).encode("utf8")).hexdigest()


class ProtocolSpecification:
    def __init__(self, interactions: dict, name: str = "", version: str = "0.1.0", roles=None):
        self.name = name
        self.version = version
        self.interactions = {request: set(replies) for request, replies in interactions.items()}
        self.roles = roles or {}

    @property
    def digest(self) -> str:
        return protocol_digest(self.interactions)
