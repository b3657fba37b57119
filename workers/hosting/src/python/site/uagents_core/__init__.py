"""uagents-core's models, protocol specifications and the chat protocol, without pydantic."""

__all__ = []
