"""A uAgents agent connected only by mailbox, made of uAgents' own code (../vendor) the way `Agent(mailbox=True)` is.

Connects with `uagents.mailbox.register_in_agentverse` (challenge, proof, agent details), registers its almanac
attestation as uAgents' Almanac API policies do (one, then a batch) and signs itself active, then runs
`uagents.mailbox.MailboxClient`, which polls, verifies, dispatches and deletes. Its sink answers every message it
receives with a reply to the sender (uagents_core's send_message_to_agent) when asked to. Reports JSON lines on
stdout: `ready`, then `message` per envelope, then `done` with what its inbox holds after (read with its own
attestation). Usage: agent.py --base http://127.0.0.1:8787 --key <api key> --seed <seed> --expect <n>
"""

import argparse
import asyncio
import json
import sys
from datetime import datetime, timezone
from secrets import token_bytes

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
import aiohttp
from uagents.config import parse_agentverse_config, parse_endpoint_config
from uagents.dispatch import Sink, dispatcher
from uagents.mailbox import AgentverseConnectRequest, MailboxClient, register_in_agentverse
from uagents_core.contrib.protocols.chat import chat_protocol_spec
from uagents_core.identity import Identity
from uagents_core.protocol import ProtocolSpecification
from uagents_core.registration import (
    AgentProfile,
    AgentRegistrationAttestation,
    AgentRegistrationAttestationBatch,
    AgentStatusUpdate,
    RegistrationRequest,
)
from uagents_core.storage import compute_attestation


def report(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}, default=str), flush=True)


async def almanac_post(url: str, model) -> dict:
    """What uagents.registration.almanac_api_post sends (that module imports the ledger stack, so not vendored)."""
    async with aiohttp.ClientSession() as session:
        async with session.post(url, headers={"content-type": "application/json"}, data=model.model_dump_json()) as resp:
            return {"status": resp.status, "body": await resp.json(content_type=None)}


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

    identity = Identity.from_seed(args.seed, 0)
    agentverse = parse_agentverse_config(args.base)
    endpoints = parse_endpoint_config(None, agentverse, mailbox=True)
    protocols = [ProtocolSpecification.compute_digest(chat_protocol_spec.manifest())]

    connected = await register_in_agentverse(
        request=AgentverseConnectRequest(user_token=args.key, agent_type="mailbox"),
        identity=identity,
        prefix="agent",
        agentverse=agentverse,
        agent_details=RegistrationRequest(
            address=identity.address,
            name=args.name,
            handle=args.handle,
            profile=AgentProfile(description="Connected by mailbox", readme=f"# {args.name}\n\nA uAgents agent without a public URL."),
            endpoints=endpoints,
            protocols=protocols,
        ),
    )
    attestation = AgentRegistrationAttestation(
        agent_identifier=identity.address, protocols=protocols, endpoints=endpoints, metadata=None
    )
    attestation.sign(identity)
    single = await almanac_post(f"{agentverse.almanac_api}/agents", attestation)
    batched = AgentRegistrationAttestation(
        agent_identifier=f"agent://{identity.address}", protocols=protocols, endpoints=endpoints, metadata=None
    )
    batched.sign(identity)
    batch = await almanac_post(
        f"{agentverse.almanac_api}/agents/batch", AgentRegistrationAttestationBatch(attestations=[batched])
    )
    status = AgentStatusUpdate(agent_identifier=identity.address, is_active=True)
    status.sign(identity)
    activity = await almanac_post(f"{agentverse.almanac_api}/agents/{identity.address}/status", status)

    received: asyncio.Queue = asyncio.Queue()
    dispatcher.register(identity.address, ReportingSink(received))
    client = MailboxClient(identity, agentverse)
    await client.run()
    report(
        "ready",
        address=identity.address,
        mailbox_endpoint=agentverse.mailbox_endpoint,
        connected={"success": connected.success, "detail": connected.detail},
        almanac=single,
        batch=batch,
        status=activity,
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
