"""AgentChatProtocol as uagents_core.contrib.protocols.chat (uagents-core 0.4.9) defines it, on pydantic v1 (the
API uagents-core keeps for its models), and the digests as uagents-core computes them: schema digests from
`schema_json(indent=None, sort_keys=True)`, the protocol digest from its manifest (models and interactions)."""

import hashlib
import json
from datetime import datetime
from typing import Dict, List, Literal, Optional, Union

try:
    from pydantic.v1 import UUID4, BaseModel
except ImportError:
    from pydantic import UUID4, BaseModel


class TextContent(BaseModel):
    type: Literal["text"]
    text: str


class Resource(BaseModel):
    uri: str
    metadata: Dict[str, str]


class ResourceContent(BaseModel):
    type: Literal["resource"]
    resource_id: UUID4
    resource: Union[Resource, List[Resource]]


class MetadataContent(BaseModel):
    type: Literal["metadata"]
    metadata: Dict[str, str]


class StartSessionContent(BaseModel):
    type: Literal["start-session"]


class EndSessionContent(BaseModel):
    type: Literal["end-session"]


class StartStreamContent(BaseModel):
    type: Literal["start-stream"]
    stream_id: UUID4


class EndStreamContent(BaseModel):
    type: Literal["end-stream"]
    stream_id: UUID4


AgentContent = Union[
    TextContent,
    ResourceContent,
    MetadataContent,
    StartSessionContent,
    EndSessionContent,
    StartStreamContent,
    EndStreamContent,
]


class ChatMessage(BaseModel):
    timestamp: datetime
    msg_id: UUID4
    content: List[AgentContent]

    def text(self) -> str:
        return "".join(item.text for item in self.content if isinstance(item, TextContent))


class ChatAcknowledgement(BaseModel):
    timestamp: datetime
    acknowledged_msg_id: UUID4
    metadata: Optional[Dict[str, str]] = None


def schema_digest(model) -> str:
    schema = model.schema_json(indent=None, sort_keys=True)
    return "model:" + hashlib.sha256(schema.encode("utf8")).hexdigest()


def protocol_digest(interactions) -> str:
    """`ProtocolSpecification.digest`: interactions maps a model to the set of models that answer it."""
    models, rules = {}, {}
    for model, replies in interactions.items():
        models[schema_digest(model)] = model
        rules[schema_digest(model)] = sorted(schema_digest(reply) for reply in replies)
        for reply in replies:
            models[schema_digest(reply)] = reply
    manifest = {
        "version": "1.0",
        "metadata": {},
        "models": sorted(({"digest": d, "schema": m.schema()} for d, m in models.items()), key=lambda x: x["digest"]),
        "interactions": sorted(
            ({"type": "normal", "request": r, "responses": rs} for r, rs in rules.items()), key=lambda x: x["request"]
        ),
    }
    encoded = json.dumps(manifest, indent=None, sort_keys=True).encode("utf8")
    return "proto:" + hashlib.sha256(encoded).hexdigest()


CHAT_MESSAGE_DIGEST = schema_digest(ChatMessage)
CHAT_ACKNOWLEDGEMENT_DIGEST = schema_digest(ChatAcknowledgement)
CHAT_PROTOCOL_DIGEST = protocol_digest({ChatMessage: {ChatAcknowledgement}, ChatAcknowledgement: set()})
