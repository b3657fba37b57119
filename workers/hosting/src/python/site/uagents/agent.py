"""Agent and Protocol as uagents declares them. On this platform the agent's identity, endpoint and
registration are the platform's: seed, port, endpoint and mailbox are accepted and ignored, and run() does nothing
(the platform runs the handlers)."""

import inspect

from uagents_core.models import Model
from uagents_core.protocol import ProtocolSpecification, protocol_digest

__all__ = ["Agent", "Protocol", "Bureau"]

MIN_INTERVAL_SECONDS = 1

# Set by the platform before the code runs (the hosted agent's address and name).
PLATFORM = {"address": "", "name": "agent"}
DEFINED_AGENTS = []


class Protocol:
    def __init__(self, name=None, version=None, spec: ProtocolSpecification = None, role=None):
        self.spec = spec
        self.name = name or (spec.name if spec else "")
        self.version = version or (spec.version if spec else "0.1.0")
        self.handlers = {}
        self.models = {}
        self.replies = {}
        self.intervals = []
        if spec:
            for request, replies in spec.interactions.items():
                self.models[Model.build_schema_digest(request)] = request
                self.replies[Model.build_schema_digest(request)] = set(replies)

    @property
    def digest(self) -> str:
        if self.spec:
            return self.spec.digest
        return protocol_digest({self.models[d]: self.replies.get(d, set()) for d in self.models})

    def on_message(self, model, replies=None, allow_unverified=False):
        def decorate(handler):
            digest = Model.build_schema_digest(model)
            if digest in self.handlers:
                raise ValueError(f"a handler for {model.__name__} ({digest}) is declared already")
            self.handlers[digest] = (model, handler)
            self.models[digest] = model
            if replies is not None:
                self.replies[digest] = set(replies) if isinstance(replies, (set, list, tuple)) else {replies}
            return handler

        return decorate

    def on_interval(self, period: float, messages=None):
        def decorate(handler):
            if not period >= MIN_INTERVAL_SECONDS:
                raise ValueError(f"an interval period is at least {MIN_INTERVAL_SECONDS} s")
            self.intervals.append((float(period), handler))
            return handler

        return decorate

    def on_query(self, model, replies=None):
        return self.on_message(model, replies)


class Agent(Protocol):
    def __init__(self, name=None, seed=None, port=None, endpoint=None, mailbox=None, **_settings):
        self._name = name
        super().__init__(name=name)
        self.protocols = {}
        self.events = {"startup": [], "shutdown": []}
        self.rest = {}
        DEFINED_AGENTS.append(self)

    @property
    def name(self) -> str:
        return self._name or PLATFORM["name"]

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def address(self) -> str:
        return PLATFORM["address"]

    @property
    def identifier(self) -> str:
        return self.address

    def on_event(self, event_type: str):
        if event_type not in self.events:
            raise ValueError(f"events are startup and shutdown, not {event_type!r}")

        def decorate(handler):
            self.events[event_type].append(handler)
            return handler

        return decorate

    def on_rest_get(self, endpoint: str, response):
        """Served at the platform's {base_url}/v1/hosting/rest/{address}{endpoint}: handler(ctx) -> response."""
        return self._rest("GET", endpoint, None, response)

    def on_rest_post(self, endpoint: str, request, response):
        """As on_rest_get, for a POST whose JSON body is a `request`: handler(ctx, req) -> response."""
        return self._rest("POST", endpoint, request, response)

    def _rest(self, method: str, endpoint: str, request, response):
        def decorate(handler):
            # uagents keeps the first handler of an endpoint and warns about the others.
            if (method, endpoint) in self.rest:
                print(f"Discarding duplicate REST endpoint: {method} {endpoint}")
            else:
                self.rest[(method, endpoint)] = (request, response, handler)
            return handler

        return decorate

    def include(self, protocol: Protocol, publish_manifest: bool = False):
        for digest, (model, handler) in protocol.handlers.items():
            if digest in self.handlers:
                raise ValueError(f"a handler for {model.__name__} ({digest}) is declared already")
            self.handlers[digest] = (model, handler)
        self.intervals.extend(protocol.intervals)
        self.protocols[protocol.digest] = protocol

    def _protocol_of(self, digest: str):
        for protocol_digest_, protocol in self.protocols.items():
            if digest in protocol.models or any(digest == Model.build_schema_digest(r) for rs in protocol.replies.values() for r in rs):
                return protocol_digest_
        return None

    def run(self):
        """Harmless here: the platform runs the agent (Agentverse templates end with agent.run())."""

    async def run_async(self):
        """Harmless here, as run()."""


class Bureau:
    """Accepted so that code written for a local Bureau loads; the platform runs each hosted agent on its own."""

    def __init__(self, agents=None, **_settings):
        self.agents = list(agents or [])

    def add(self, agent):
        self.agents.append(agent)

    def run(self):
        pass


async def call(handler, *args):
    result = handler(*args)
    if inspect.isawaitable(result):
        result = await result
    return result
