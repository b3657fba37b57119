"""Connecting an agent by mailbox with uAgents' own code (../vendor), as `Agent(mailbox=True)` and the inspector do.

`register_in_agentverse` (challenge, proof, agent details), then the almanac attestation as uAgents' Almanac API
policies send it (one, then a batch), then a signed status update saying the agent is active.
"""

from dataclasses import dataclass

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
import aiohttp
from uagents.config import parse_agentverse_config, parse_endpoint_config
from uagents.mailbox import AgentverseConnectRequest, RegistrationResponse, register_in_agentverse
from uagents_core.config import AgentverseConfig
from uagents_core.identity import Identity
from uagents_core.registration import (
    AgentProfile,
    AgentRegistrationAttestation,
    AgentRegistrationAttestationBatch,
    AgentStatusUpdate,
    RegistrationRequest,
)


@dataclass
class Connection:
    identity: Identity
    agentverse: AgentverseConfig
    connected: RegistrationResponse
    almanac: dict
    batch: dict
    status: dict


async def almanac_post(url: str, model) -> dict:
    """What uagents.registration.almanac_api_post sends (that module imports the ledger stack, so not vendored)."""
    async with aiohttp.ClientSession() as session:
        async with session.post(url, headers={"content-type": "application/json"}, data=model.model_dump_json()) as resp:
            return {"status": resp.status, "body": await resp.json(content_type=None)}


async def connect(
    base: str, key: str, seed: str, name: str, handle: str | None, description: str, protocols: list[str]
) -> Connection:
    identity = Identity.from_seed(seed, 0)
    agentverse = parse_agentverse_config(base)
    endpoints = parse_endpoint_config(None, agentverse, mailbox=True)
    connected = await register_in_agentverse(
        request=AgentverseConnectRequest(user_token=key, agent_type="mailbox"),
        identity=identity,
        prefix="agent",
        agentverse=agentverse,
        agent_details=RegistrationRequest(
            address=identity.address,
            name=name,
            handle=handle,
            profile=AgentProfile(description=description, readme=f"# {name}\n\n{description}"),
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
    return Connection(identity, agentverse, connected, single, batch, activity)
