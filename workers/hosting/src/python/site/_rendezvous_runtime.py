"""The platform's side of a hosted Python agent: runs the uploaded files, then answers the guest entrypoint's
calls (describe, one message, one REST request, startup/shutdown, an interval) with the agent's handlers. `host` is the
entrypoint's bridge for one call: send, send_and_receive, log, storage_set, storage_delete."""

import json
import os
import random
import runpy
import sys
import traceback

from uagents.agent import DEFINED_AGENTS, PLATFORM, call
from uagents.context import Context, KeyValueStore
from uagents_core.models import Model, ValidationError

CODE_DIR = "/home/pyodide/agent"
_agent = None


_secret_names = set()


def set_secrets(secrets_json: str) -> None:
    """The agent's secrets as environment variables, as Agentverse gives them (os.getenv("NAME"))."""
    secrets = json.loads(secrets_json)
    for name in _secret_names - secrets.keys():
        os.environ.pop(name, None)
    os.environ.update(secrets)
    _secret_names.clear()
    _secret_names.update(secrets)


def load(files_json: str, main: str, address: str, name: str, secrets_json: str) -> None:
    global _agent
    # Every guest starts from the same memory snapshot, random's state included: each agent draws its own.
    random.seed()
    PLATFORM["address"], PLATFORM["name"] = address, name
    set_secrets(secrets_json)
    os.makedirs(CODE_DIR, exist_ok=True)
    for file_name, source in json.loads(files_json).items():
        path = os.path.join(CODE_DIR, file_name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(source)
    sys.path.insert(0, CODE_DIR)
    runpy.run_path(os.path.join(CODE_DIR, main), run_name="__main__")
    if len(DEFINED_AGENTS) != 1:
        raise RuntimeError(
            "the code defines no agent: create one with Agent() from uagents"
            if not DEFINED_AGENTS
            else "the code defines several agents: a hosted agent runs one"
        )
    _agent = DEFINED_AGENTS[0]


def describe() -> str:
    return json.dumps({"name": _agent.name, "intervals": [period for period, _ in _agent.intervals]})


def _context(host, storage_json: str, session=None) -> Context:
    return Context(_agent, host, KeyValueStore(json.loads(storage_json), host), session)


def _failure(code: str, message: str) -> str:
    return json.dumps({"ok": False, "code": code, "message": message})


async def message(host, storage_json: str, sender: str, session: str, digest: str, payload_json: str) -> str:
    route = _agent.handlers.get(digest)
    if route is None:
        return _failure("unknown_schema", f"no handler for schema {digest}")
    model, handler = route
    try:
        received = model.parse_raw(payload_json)
    except (ValidationError, ValueError, TypeError) as error:
        return _failure("invalid_payload", f"the payload is not a {model.__name__}: {error}")
    try:
        await call(handler, _context(host, storage_json, session), sender, received)
    except Exception as error:
        host.log("erro", f"message handler failed (schema {digest} from {sender}): {traceback.format_exc()}")
        return _failure("handler_failed", f"{type(error).__name__}: {error}")
    return json.dumps({"ok": True})


async def run(host, storage_json: str, what: str, index: int = 0) -> None:
    handlers = [_agent.intervals[index][1]] if what == "interval" else _agent.events[what]
    for handler in handlers:
        try:
            await call(handler, _context(host, storage_json))
        except Exception:
            host.log("erro", f"{what} handler failed: {traceback.format_exc()}")


def _rest_answer(status: int, body) -> str:
    return json.dumps({"status": status, "body": body})


async def rest(host, storage_json: str, method: str, path: str, body: str) -> str:
    """One REST request, as uagents' server answers it: the request model validated (400), the handler's answer
    validated as the response model (500 when it is not one), the response model's JSON (200)."""
    route = _agent.rest.get((method, path))
    if route is None:
        return _rest_answer(404, f"this agent serves no {method} {path}")
    request_model, response_model, handler = route
    args = [_context(host, storage_json)]
    if request_model is not None:
        if not body:
            return _rest_answer(400, f"{method} {path} takes a JSON body: a {request_model.__name__}")
        try:
            args.append(request_model.parse_raw(body))
        except (ValidationError, ValueError, TypeError) as error:
            return _rest_answer(400, f"the body is not a {request_model.__name__}: {error}")
    try:
        result = await call(handler, *args)
    except Exception as error:
        host.log("erro", f"REST handler {method} {path} failed: {traceback.format_exc()}")
        return _rest_answer(500, f"the agent's {method} {path} handler failed: {type(error).__name__}: {error}")
    try:
        if not isinstance(result, (dict, response_model)):
            raise TypeError(f"it returned {type(result).__name__}, not a dict or a {response_model.__name__}")
        answer = response_model.parse_obj(result)
    except (ValidationError, ValueError, TypeError) as error:
        host.log("erro", f"REST handler {method} {path} answered what is not a {response_model.__name__}: {error}")
        return _rest_answer(500, f"the agent's {method} {path} handler answered what is not a {response_model.__name__}")
    return _rest_answer(200, answer.dict())
