"""An MCP server that crashes at start, after a word on stderr."""

import sys

print("fixture crash: cannot open the database", file=sys.stderr, flush=True)
sys.exit(3)
