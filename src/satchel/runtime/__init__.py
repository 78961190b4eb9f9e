"""The runtime layer: what runs (hooks, MCP servers); processes start only here."""
