"""Sends one message the way a uAgents user does without an Agent: uagents_core.utils.messages.send_message_to_agent,
which resolves the destination through the almanac and posts the signed envelope to the endpoint it finds (here, the
registry's mailbox). Prints the delivery statuses as one JSON line. Usage: send.py --base URL --seed SEED --to ADDRESS --text TEXT
"""

import argparse
import json

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)
from uagents.config import parse_agentverse_config
from uagents_core.identity import Identity
from uagents_core.models import Model
from uagents_core.utils.messages import send_message_to_agent


class Greeting(Model):
    text: str


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--seed", required=True)
    parser.add_argument("--to", required=True)
    parser.add_argument("--text", required=True)
    args = parser.parse_args()
    sender = Identity.from_seed(args.seed, 0)
    statuses = send_message_to_agent(
        destination=args.to,
        msg=Greeting(text=args.text),
        sender=sender,
        agentverse_config=parse_agentverse_config(args.base),
    )
    print(json.dumps({"sender": sender.address, "statuses": [json.loads(s.model_dump_json()) for s in statuses]}), flush=True)


if __name__ == "__main__":
    main()
