"""Running MCP servers: the supervisor, transports and the gate on tool calls."""
