"""uagents as hosted Python agents import it: Agent, Context, Model, Protocol and Field, with the API of
Fetch.ai's uagents, pure Python (no pydantic) and running on the Rendezvous platform's hosting."""

from uagents.agent import Agent, Bureau, Protocol
from uagents.context import Context
from uagents_core.models import Field, Model

__all__ = ["Agent", "Bureau", "Context", "Field", "Model", "Protocol"]
