"""satchel as an MCP server (`satchel serve`): skills, commands and resources over MCP."""
