"""Runs uAgents' own code (../vendor, unchanged) on Debian's Python packages.

Debian's python3-pydantic is 1.x; uAgents is written for pydantic 2. This module, imported before any vendored
module, gives pydantic 1 the few pydantic-2 names those modules use (model_dump, model_validate, ConfigDict,
field_validator, …) and stands in for the modules not needed on the mailbox, proxy and CLI paths: `bech32` (a
BIP 173 shim in ./shims), the ledger library `cosmpy` (imported by uagents.storage, never called here) and
`uagents.resolver` (it needs the ledger; imported by uagents.communication, never called by the ASGI server).
With pydantic 2 installed it changes nothing but the import path.
"""

import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "vendor"), os.path.join(HERE, "shims")]

import pydantic  # noqa: E402

if pydantic.VERSION.startswith("1."):
    import inspect

    import pydantic.main

    sys.modules["pydantic.v1"] = pydantic
    sys.modules["pydantic.v1.error_wrappers"] = pydantic.error_wrappers

    def _model_dump(self, *, mode=None, **kwargs):
        return json.loads(self.json(**kwargs)) if mode == "json" else self.dict(**kwargs)

    def _model_dump_json(self, **kwargs):
        return self.json(**kwargs)

    pydantic.BaseModel.model_dump = _model_dump
    pydantic.BaseModel.model_dump_json = _model_dump_json
    pydantic.BaseModel.model_validate = classmethod(lambda cls, obj: cls.parse_obj(obj))
    pydantic.BaseModel.model_validate_json = classmethod(lambda cls, text: cls.parse_raw(text))

    pydantic.ConfigDict = dict
    pydantic.ValidationInfo = types.SimpleNamespace
    pydantic.AliasChoices = lambda *names: names[0]

    def field_validator(*fields, mode="after"):
        def decorate(function):
            inner = function.__func__ if isinstance(function, classmethod) else function
            if len(inspect.signature(inner).parameters) == 3:

                def wrapper(cls, value, values):
                    return inner(cls, value, types.SimpleNamespace(data=values))

            else:

                def wrapper(cls, value):
                    return inner(cls, value)

            wrapper.__name__ = inner.__name__
            return pydantic.validator(*fields, pre=mode == "before", allow_reuse=True)(wrapper)

        return decorate

    pydantic.field_validator = field_validator
    pydantic.field_serializer = lambda *fields, **kwargs: (lambda function: function)

    # `model_config = ConfigDict(...)` in a class body is pydantic 2's `class Config`.
    _extra = {"allow": pydantic.Extra.allow, "forbid": pydantic.Extra.forbid, "ignore": pydantic.Extra.ignore}
    _original_new = pydantic.main.ModelMetaclass.__new__

    def _new(mcs, name, bases, namespace, **kwargs):
        settings = namespace.pop("model_config", None)
        if isinstance(settings, dict) and "Config" not in namespace:
            config = {}
            if settings.get("extra") in _extra:
                config["extra"] = _extra[settings["extra"]]
            if settings.get("arbitrary_types_allowed"):
                config["arbitrary_types_allowed"] = True
            namespace["Config"] = type("Config", (), config)
        return _original_new(mcs, name, bases, namespace, **kwargs)

    pydantic.main.ModelMetaclass.__new__ = staticmethod(_new)

cosmpy = types.ModuleType("cosmpy")
cosmpy.aerial = types.ModuleType("cosmpy.aerial")
cosmpy.aerial.wallet = types.ModuleType("cosmpy.aerial.wallet")


class _NoLedger:
    def __init__(self, *args, **kwargs):
        raise RuntimeError("the ledger library (cosmpy) is not part of this interop test")


cosmpy.aerial.wallet.PrivateKey = _NoLedger
sys.modules.update({"cosmpy": cosmpy, "cosmpy.aerial": cosmpy.aerial, "cosmpy.aerial.wallet": cosmpy.aerial.wallet})

# uagents.resolver reaches the ledger (uagents.network: cosmpy, grpc). The ASGI server (uagents.asgi) imports it
# through uagents.communication only for the names of its send helpers, which the server does not call.
resolver = types.ModuleType("uagents.resolver")
resolver.GlobalResolver = resolver.Resolver = _NoLedger
sys.modules["uagents.resolver"] = resolver
