#!/bin/sh
# PostToolUse hook: fail when an edited file still holds merge conflict markers.
file=$(python3 -c 'import json, sys; print(json.load(sys.stdin)["tool_input"]["file_path"])')
if grep -nE '^(<<<<<<<|>>>>>>>)' "$file"; then
  echo "conflict markers left in $file" >&2
  exit 2
fi
