"""A uAgents agent behind the registry's proxy (`Agent(proxy=True)`), made of uAgents' own code (../vendor).

Serves its envelopes with uAgents' own ASGI server (`uagents.asgi.ASGIServer`, POST /submit) and connects as the
agent inspector's Connect does for a proxy agent (uagents.agent's `_handle_connect`): `register_in_agentverse`
with `agent_type="proxy"` and its own URL as the request's `endpoint`, the agent details carrying that URL as
`url` and `parse_endpoint_config(proxy=True)`'s endpoints (the registry's proxy path). Then the almanac attestation
with the same endpoints. Senders resolve the proxy endpoint, and the registry relays to the agent's URL.
Reports JSON lines on stdout: `ready`, then `message` per envelope its server dispatched.
Usage: proxy_agent.py --base http://127.0.0.1:8787 --key <api key> --seed <seed> --port <port>
"""

import argparse
import asyncio
import json
import sys

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
from connection import almanac_post
from uagents.asgi import ASGIServer
from uagents.config import parse_agentverse_config, parse_endpoint_config
from uagents.dispatch import Sink, dispatcher
from uagents.mailbox import AgentverseConnectRequest, register_in_agentverse
from uagents_core.identity import Identity
from uagents_core.registration import AgentProfile, AgentRegistrationAttestation, RegistrationRequest


def report(event: str, **fields) -> None:
    print(json.dumps({"event": event, **fields}, default=str), flush=True)


class ReportingSink(Sink):
    async def handle_message(self, sender, schema_digest, message, session):
        report("message", sender=sender, schema_digest=schema_digest, message=json.loads(message), session=str(session))

    async def handle_rest(self, method, endpoint, message):
        return None


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()

    identity = Identity.from_seed(args.seed, 0)
    agentverse = parse_agentverse_config(args.base)
    endpoints = parse_endpoint_config(None, agentverse, proxy=True)
    own_url = f"http://127.0.0.1:{args.port}/submit"

    dispatcher.register(identity.address, ReportingSink())
    server = ASGIServer(port=args.port, loop=asyncio.get_running_loop(), queries={})
    asyncio.get_running_loop().create_task(server.serve())

    request = AgentverseConnectRequest(user_token=args.key, agent_type="proxy", endpoint=own_url)
    connected = await register_in_agentverse(
        request=request,
        identity=identity,
        prefix="agent",
        agentverse=agentverse,
        agent_details=RegistrationRequest(
            address=identity.address,
            name="Proxied agent",
            url=request.endpoint,
            profile=AgentProfile(),
            endpoints=endpoints,
            protocols=[],
            metadata=None,
        ),
    )
    attestation = AgentRegistrationAttestation(
        agent_identifier=identity.address, protocols=[], endpoints=endpoints, metadata=None
    )
    attestation.sign(identity)
    almanac = await almanac_post(f"{agentverse.almanac_api}/agents", attestation)
    report(
        "ready",
        address=identity.address,
        url=own_url,
        proxy_endpoint=agentverse.proxy_endpoint,
        connected={"success": connected.success, "detail": connected.detail},
        almanac=almanac,
    )
    if not connected.success:
        return 1
    await asyncio.Event().wait()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
