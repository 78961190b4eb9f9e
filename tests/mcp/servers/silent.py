"""An MCP server that never answers: it reads stdin and says nothing."""

import sys

for _ in sys.stdin:
    pass
