"""Context: what a handler gets. Storage is synchronous as in uagents (read from the snapshot taken when the call
began, written through to the platform when the handler returns); send and send_and_receive go out through the
platform, which signs as the agent."""

import json
import uuid

from uagents_core.models import Model

__all__ = ["Context", "MsgStatus", "DeliveryStatus", "KeyValueStore"]


class DeliveryStatus:
    SENT = "sent"
    DELIVERED = "delivered"
    FAILED = "failed"


class MsgStatus:
    def __init__(self, status: str, detail: str, destination: str, endpoint: str = "", session=None):
        self.status = status
        self.detail = detail
        self.destination = destination
        self.endpoint = endpoint
        self.session = session

    def __repr__(self):
        return f"MsgStatus(status={self.status!r}, detail={self.detail!r}, destination={self.destination!r})"


class KeyValueStore:
    """ctx.storage: JSON values under string keys, shown by the hosting storage API."""

    def __init__(self, snapshot: dict, host):
        self._data = snapshot
        self._host = host

    def get(self, key: str):
        return self._data.get(key)

    def has(self, key: str) -> bool:
        return key in self._data

    def set(self, key: str, value) -> None:
        text = json.dumps(value)
        self._data[key] = json.loads(text)
        self._host.storage_set(key, text)

    def remove(self, key: str) -> None:
        if self._data.pop(key, None) is not None:
            self._host.storage_delete(key)

    def clear(self) -> None:
        for key in list(self._data):
            self.remove(key)

    def keys(self) -> list:
        return sorted(self._data)


class _Logger:
    """ctx.logger: each line goes to the agent's logs (GET …/logs/latest), with its level."""

    def __init__(self, host):
        self._host = host

    def _write(self, level: str, message, args):
        text = str(message) % args if args else str(message)
        self._host.log(level, text)

    def debug(self, message, *args):
        self._write("debg", message, args)

    def info(self, message, *args):
        self._write("info", message, args)

    def warning(self, message, *args):
        self._write("warn", message, args)

    warn = warning

    def error(self, message, *args):
        self._write("erro", message, args)

    exception = error
    critical = error


class _AgentView:
    def __init__(self, agent):
        self.name = agent.name
        self.address = agent.address
        self.identifier = f"{agent.address}"


class Context:
    def __init__(self, agent, host, storage: KeyValueStore, session=None, sender=None):
        self._agent = agent
        self._host = host
        self.storage = storage
        self.logger = _Logger(host)
        self.session = uuid.UUID(session) if session else uuid.uuid4()
        self._sender = sender

    @property
    def agent(self):
        return _AgentView(self._agent)

    @property
    def name(self) -> str:
        return self._agent.name

    @property
    def address(self) -> str:
        return self._agent.address

    def _message(self, message: Model):
        if not isinstance(message, Model):
            raise TypeError("send a Model instance")
        digest = Model.build_schema_digest(message)
        return digest, self._agent._protocol_of(digest), message.json()

    async def send(self, destination: str, message: Model, timeout=None, sync=False, **_options) -> MsgStatus:
        digest, protocol, payload = self._message(message)
        await self._host.send(destination, digest, protocol, payload, str(self.session))
        return MsgStatus(DeliveryStatus.SENT, "Message queued for delivery", destination, session=self.session)

    async def send_and_receive(self, destination: str, message: Model, response_type, sync=False, timeout: int = 30, **_options):
        digest, protocol, payload = self._message(message)
        answer = json.loads(await self._host.send_and_receive(destination, digest, protocol, payload, str(self.session), timeout))
        reply, status = answer["reply"], answer["status"]
        result = MsgStatus(status.get("status", "failed"), status.get("detail", ""), destination, status.get("endpoint", ""), self.session)
        if reply is None:
            return None, result
        types = response_type if isinstance(response_type, (set, list, tuple)) else {response_type}
        for model in types:
            if Model.build_schema_digest(model) == reply["schemaDigest"]:
                return model.parse_obj(reply["payload"]), result
        return None, MsgStatus(DeliveryStatus.FAILED, "the reply is not of the expected model", destination, session=self.session)
