"""The other kinds of file a host reads beside skills, plugins, hooks and MCP servers.

`commands` (slash commands), `resources` (the files a skill may read) and
`_instructions` (``AGENTS.md`` and its kin: each host's instruction files and
conditional rules).

It may import: `core`, `foundations`, `skills`, `index`, `hosts`.
"""
