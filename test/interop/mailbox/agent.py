"""A uAgents agent connected only by mailbox, made of uAgents' own code (../vendor) the way `Agent(mailbox=True)` is.

Connects (connection.py), then runs `uagents.mailbox.MailboxClient`, which polls, verifies, dispatches and deletes.
Reports JSON lines on stdout: `ready`, then `message` per envelope, then `done` with what its inbox holds after
(read with its own attestation). Usage: agent.py --base http://127.0.0.1:8787 --key <api key> --seed <seed> --expect <n>
"""

import argparse
import asyncio
import json
import sys
from datetime import datetime, timezone
from secrets import token_bytes

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
import aiohttp
from connection import connect
from uagents.dispatch import Sink, dispatcher
from uagents.mailbox import MailboxClient
from uagents_core.contrib.protocols.chat import chat_protocol_spec
from uagents_core.protocol import ProtocolSpecification
from uagents_core.storage import compute_attestation


def report(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}, default=str), flush=True)


class ReportingSink(Sink):
    def __init__(self, received: asyncio.Queue):
        self.received = received

    async def handle_message(self, sender, schema_digest, message, session):
        report("message", sender=sender, schema_digest=schema_digest, message=json.loads(message), session=str(session))
        await self.received.put(message)

    async def handle_rest(self, method, endpoint, message):
        return None


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--name", default="Mailbox agent")
    parser.add_argument("--handle")
    parser.add_argument("--expect", type=int, default=1)
    args = parser.parse_args()

    protocols = [ProtocolSpecification.compute_digest(chat_protocol_spec.manifest())]
    connection = await connect(
        args.base, args.key, args.seed, args.name, args.handle, "A uAgents agent without a public URL.", protocols
    )
    identity, agentverse, connected = connection.identity, connection.agentverse, connection.connected

    received: asyncio.Queue = asyncio.Queue()
    dispatcher.register(identity.address, ReportingSink(received))
    client = MailboxClient(identity, agentverse)
    await client.run()
    report(
        "ready",
        address=identity.address,
        mailbox_endpoint=agentverse.mailbox_endpoint,
        connected={"success": connected.success, "detail": connected.detail},
        almanac=connection.almanac,
        batch=connection.batch,
        status=connection.status,
    )
    if not connected.success:
        return 1

    for _ in range(args.expect):
        await asyncio.wait_for(received.get(), timeout=60)
    # MailboxClient deletes each envelope right after dispatching it; then the inbox, as the agent sees it:
    await asyncio.sleep(0.5)
    auth = compute_attestation(identity, datetime.now(timezone.utc), 60, token_bytes(32))
    async with aiohttp.ClientSession() as session:
        async with session.get(
            f"{agentverse.agents_api}/{identity.address}/mailbox", headers={"Authorization": f"Agent {auth}"}
        ) as resp:
            left = await resp.json()
    report("done", received=args.expect, inbox_status=resp.status, inbox_after=left)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
