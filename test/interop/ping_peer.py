"""A uagents-core-style agent that pings a hosted agent, to check hosted Python agents against it.

It derives its identity from --seed, defines Ping and Pong on pydantic v1 (as uagents-core defines models), and
sends --count signed Pings to --target through --submit, each as uagents' `send_sync_message` does (the
`x-uagents-connection: sync` header, the signed reply in the answer). It checks every reply: signature, sender,
target, session and Pong's schema digest (its own pydantic v1 computation), and parses it with its Pong model.
It prints one JSON line, `{"event": "done", digests, pongs}` (exit 0) or `{"event": "failed", reason}` (exit 1).
"""

import argparse
import json
import sys
import urllib.error
import urllib.request

try:
    from pydantic.v1 import BaseModel
except ImportError:
    from pydantic import BaseModel

from chat_protocol import schema_digest
from uagents_identity import Identity, build_envelope, envelope_digest, new_session, payload_of, verify_digest


class Ping(BaseModel):
    text: str


class Pong(BaseModel):
    text: str
    count: int


class Failure(Exception):
    pass


def send_sync(submit: str, identity: Identity, target: str, text: str) -> dict:
    session = new_session()
    envelope = build_envelope(identity, target, session, Ping, Ping(text=text), None)
    request = urllib.request.Request(
        submit,
        data=json.dumps(envelope).encode(),
        headers={"content-type": "application/json", "x-uagents-connection": "sync"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            reply = json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise Failure(f"{submit} answered {error.code}: {error.read().decode()[:300]}") from error
    if reply.get("sender") != target or reply.get("target") != identity.address or reply.get("session") != session:
        raise Failure(f"the reply is not the target's answer in this session: {reply}")
    if not verify_digest(reply["sender"], envelope_digest(reply), reply.get("signature") or ""):
        raise Failure("the reply's signature does not verify")
    if reply["schema_digest"] != schema_digest(Pong):
        raise Failure(f"the reply's schema digest {reply['schema_digest']} is not Pong's {schema_digest(Pong)}")
    return json.loads(Pong.parse_raw(payload_of(reply)).json())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", required=True)
    parser.add_argument("--submit", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--count", type=int, default=2)
    args = parser.parse_args()
    identity = Identity.from_seed(args.seed, 0)
    try:
        pongs = [send_sync(args.submit, identity, args.target, f"ping {n}") for n in range(1, args.count + 1)]
    except Failure as failure:
        print(json.dumps({"event": "failed", "reason": str(failure)}))
        return 1
    digests = {"Ping": schema_digest(Ping), "Pong": schema_digest(Pong)}
    print(json.dumps({"event": "done", "address": identity.address, "digests": digests, "pongs": pongs}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
