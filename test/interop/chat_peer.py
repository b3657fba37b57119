"""A Python agent that speaks AgentChatProtocol the way uagents-core agents do, to check the specialist against it.

It derives its identity from --seed, serves its webhook on 127.0.0.1 (a free port) and prints one JSON line
`{"event": "ready", address, webhook, digests}`. Once its caller has registered that address (the specialist
serves registered senders only) and written `go` on stdin, it sends a signed ChatMessage with --question to
--specialist-webhook and waits for the specialist's ChatAcknowledgement and answer at its webhook, checking
every envelope: signature, sender, target, session, schema and protocol digests (its own pydantic v1
computation), payload parsed by its pydantic models, the acknowledged msg_id. It acknowledges the answer, as
a uagents chat agent does, and prints `{"event": "done", …}` (exit 0) or `{"event": "failed", reason}` (exit 1).
"""

import argparse
import json
import queue
import sys
import threading
import urllib.error
import urllib.request
import uuid
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from chat_protocol import (
    CHAT_ACKNOWLEDGEMENT_DIGEST,
    CHAT_MESSAGE_DIGEST,
    CHAT_PROTOCOL_DIGEST,
    ChatAcknowledgement,
    ChatMessage,
    StartSessionContent,
    TextContent,
)
from uagents_identity import Identity, build_envelope, envelope_digest, new_session, payload_of, verify_digest


class Failure(Exception):
    pass


def say(event: dict) -> None:
    sys.stdout.write(json.dumps(event) + "\n")
    sys.stdout.flush()


def serve(identity: Identity, inbox: "queue.Queue[dict]") -> ThreadingHTTPServer:
    """The webhook: verifies each envelope as a uagents agent does before taking it, answers 200 `{}`."""

    class Webhook(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("content-length", "0")))
            try:
                envelope = json.loads(body)
                if envelope.get("target") != identity.address:
                    raise Failure("envelope not addressed to this agent")
                if not verify_digest(envelope["sender"], envelope_digest(envelope), envelope.get("signature") or ""):
                    raise Failure("bad signature")
            except (Failure, ValueError, KeyError) as error:
                inbox.put({"refused": str(error)})
                self._answer(400, {"error": str(error)})
                return
            inbox.put(envelope)
            self._answer(200, {})

        def _answer(self, status: int, body: dict) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def post(url: str, envelope: dict) -> dict:
    request = urllib.request.Request(
        url, data=json.dumps(envelope).encode(), headers={"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return {"status": response.status, "body": json.loads(response.read() or b"{}")}
    except urllib.error.HTTPError as error:
        raise Failure(f"{url} answered {error.code}: {error.read().decode()[:300]}") from error


def check(envelope: dict, specialist: str, session: str) -> None:
    if envelope["sender"] != specialist:
        raise Failure(f"message from {envelope['sender']}, not the specialist")
    if envelope["session"] != session:
        raise Failure(f"message in session {envelope['session']}, not {session}")
    if envelope.get("protocol_digest") != CHAT_PROTOCOL_DIGEST:
        raise Failure(f"protocol digest {envelope.get('protocol_digest')} is not AgentChatProtocol's")


def converse(args, identity: Identity, inbox: "queue.Queue[dict]") -> dict:
    session = new_session()
    message = ChatMessage(
        timestamp=datetime.now(timezone.utc),
        msg_id=uuid.uuid4(),
        content=[StartSessionContent(type="start-session"), TextContent(type="text", text=args.question)],
    )
    to_specialist = (identity, args.specialist_address, session)
    sent = post(args.specialist_webhook, build_envelope(*to_specialist, ChatMessage, message, CHAT_PROTOCOL_DIGEST))

    ack, answer, verified = None, None, 0
    while ack is None or answer is None:
        try:
            envelope = inbox.get(timeout=args.timeout)
        except queue.Empty:
            raise Failure(f"no {'acknowledgement' if ack is None else 'answer'} within {args.timeout} s") from None
        if "refused" in envelope:
            raise Failure(f"refused an incoming envelope: {envelope['refused']}")
        verified += 1
        check(envelope, args.specialist_address, session)
        if envelope["schema_digest"] == CHAT_ACKNOWLEDGEMENT_DIGEST:
            ack = ChatAcknowledgement.parse_raw(payload_of(envelope))
            if ack.acknowledged_msg_id != message.msg_id:
                raise Failure(f"acknowledged {ack.acknowledged_msg_id}, not {message.msg_id}")
        elif envelope["schema_digest"] == CHAT_MESSAGE_DIGEST:
            answer = ChatMessage.parse_raw(payload_of(envelope))
        else:
            raise Failure(f"unexpected schema digest {envelope['schema_digest']}")

    reply = ChatAcknowledgement(timestamp=datetime.now(timezone.utc), acknowledged_msg_id=answer.msg_id)
    acked = post(args.specialist_webhook, build_envelope(*to_specialist, ChatAcknowledgement, reply, CHAT_PROTOCOL_DIGEST))
    return {
        "event": "done",
        "session": session,
        "msg_id": str(message.msg_id),
        "sent": sent,
        "acknowledgement": json.loads(ack.json()),
        "answer": {"msg_id": str(answer.msg_id), "text": answer.text(), "content_types": [item.type for item in answer.content]},
        "answer_acknowledged": acked,
        "verified_envelopes": verified,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", required=True)
    parser.add_argument("--specialist-webhook", required=True)
    parser.add_argument("--specialist-address", required=True)
    parser.add_argument("--question", required=True)
    parser.add_argument("--timeout", type=float, default=60)
    args = parser.parse_args()

    identity = Identity.from_seed(args.seed, 0)
    inbox: "queue.Queue[dict]" = queue.Queue()
    server = serve(identity, inbox)
    say({
        "event": "ready",
        "address": identity.address,
        "webhook": f"http://127.0.0.1:{server.server_port}/webhook",
        "digests": {
            "ChatMessage": CHAT_MESSAGE_DIGEST,
            "ChatAcknowledgement": CHAT_ACKNOWLEDGEMENT_DIGEST,
            "AgentChatProtocol": CHAT_PROTOCOL_DIGEST,
        },
    })
    if sys.stdin.readline().strip() != "go":
        return 1
    try:
        say(converse(args, identity, inbox))
        return 0
    except Failure as failure:
        say({"event": "failed", "reason": str(failure)})
        return 1
    finally:
        server.shutdown()


if __name__ == "__main__":
    sys.exit(main())
