"""post_agent hook: print a one-line summary of the rollouts this turn started."""

import json
import sys

turn = json.load(sys.stdin)
started = [c for c in turn.get("tool_calls", []) if c.get("name", "").endswith("rollout")]
print(f"{len(started)} rollout(s) started")
