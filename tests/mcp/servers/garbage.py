"""An MCP server that prints garbage on stdout instead of JSON-RPC, then waits."""

import sys

print("Welcome to the garbage server!", flush=True)
print("{not json", flush=True)
for _ in sys.stdin:
    print("garbage again", flush=True)
