"""A uAgents chat agent connected only by mailbox, made of uAgents' own code (../vendor).

Connects (connection.py) with the chat protocol, then runs `uagents.mailbox.MailboxClient`. Each ChatMessage it
takes from its inbox is acknowledged and answered in the same session, each reply a signed envelope of the chat
protocol made and sent by uagents_core (`generate_message_envelope`, the almanac resolver, `send_message`), as
an Agent's `ctx.send` does. The answer carries a token this process drew, so a test can tell that the answer is
this agent's. Reports JSON lines on stdout: `ready` (address, token), then `question` and `answered` per message.
Usage: chat_agent.py --base http://127.0.0.1:8787 --key <api key> --seed <seed> --handle <handle>
"""

import argparse
import asyncio
import json
import secrets
import sys

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
from connection import connect
from uagents.dispatch import Sink, dispatcher
from uagents.mailbox import MailboxClient
from uagents_core.contrib.protocols.chat import ChatAcknowledgement, ChatMessage, TextContent, chat_protocol_spec
from uagents_core.identity import Identity
from uagents_core.models import Model
from uagents_core.protocol import ProtocolSpecification
from uagents_core.utils.messages import generate_message_envelope, send_message
from uagents_core.utils.resolver import AlmanacResolver

CHAT_PROTOCOL = ProtocolSpecification.compute_digest(chat_protocol_spec.manifest())


def report(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}, default=str), flush=True)


class ChatAnswerer(Sink):
    def __init__(self, identity: Identity, resolver: AlmanacResolver, token: str):
        self.identity = identity
        self.resolver = resolver
        self.token = token

    def reply(self, to: str, msg: Model, session) -> list[str]:
        """Sends one chat-protocol message to `to` at the endpoints the almanac gives; the HTTP statuses."""
        envelope = generate_message_envelope(
            destination=to,
            message_schema_digest=Model.build_schema_digest(msg),
            message_body=json.loads(msg.model_dump_json()),
            sender=self.identity,
            session_id=session,
            protocol_digest=CHAT_PROTOCOL,
        )
        return [send_message(endpoint, envelope).status_code for endpoint in self.resolver.sync_resolve(to)]

    async def handle_message(self, sender, schema_digest, message, session):
        if schema_digest != Model.build_schema_digest(ChatMessage):
            return
        question = ChatMessage.parse_raw(message)
        text = " ".join(part.text for part in question.content if isinstance(part, TextContent))
        report("question", sender=sender, session=str(session), text=text)
        acknowledged = await asyncio.to_thread(self.reply, sender, ChatAcknowledgement(acknowledged_msg_id=question.msg_id), session)
        answer = f"Mailbox agent {self.token} heard {len(text.split())} words: {text}"
        answered = await asyncio.to_thread(self.reply, sender, ChatMessage(content=[TextContent(text=answer)]), session)
        report("answered", to=sender, session=str(session), text=answer, acknowledged=acknowledged, answered=answered)

    async def handle_rest(self, method, endpoint, message):
        return None


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--handle", required=True)
    args = parser.parse_args()

    connection = await connect(
        args.base,
        args.key,
        args.seed,
        "Mailbox chat agent",
        args.handle,
        "A uAgents agent without a public URL that answers chat messages through its mailbox.",
        [CHAT_PROTOCOL],
    )
    token = secrets.token_hex(6)
    resolver = AlmanacResolver(max_endpoints=1, agentverse_config=connection.agentverse)
    dispatcher.register(connection.identity.address, ChatAnswerer(connection.identity, resolver, token))
    await MailboxClient(connection.identity, connection.agentverse).run()
    report(
        "ready",
        address=connection.identity.address,
        token=token,
        connected={"success": connection.connected.success, "detail": connection.connected.detail},
    )
    if not connection.connected.success:
        return 1
    await asyncio.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
