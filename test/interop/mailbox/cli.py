"""uagents-core's Agentverse CLI (`python -m uagents_core.agentverse.cli …`), run from ../vendor on Debian's pydantic."""

import runpy
import sys

import compat  # noqa: F401  (first: makes ../vendor importable on Debian's pydantic)

sys.argv[0] = "uagents_core.agentverse.cli"
runpy.run_module("uagents_core.agentverse.cli", run_name="__main__", alter_sys=True)
