#!/usr/bin/env python3
"""PreToolUse: refuse a shell command that deletes recursively (exit 2: the model reads why)."""

import json
import re
import sys

call = json.load(sys.stdin)
command = str(call.get("tool_input", {}).get("command", ""))
if re.search(r"\brm\s+-[a-zA-Z]*r", command):
    print("recursive deletes are not allowed here", file=sys.stderr)
    sys.exit(2)
