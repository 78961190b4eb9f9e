"""Trust: which folders run code, and approval bound to content.

`_trust` (trusted folders and `satchel trust`), `_approval` (content-hash approval of a
project's executable configuration, `Executables`), `_reach` (every file an executable
item can run) and `_changes` (what changed between two loads, `Inventory`).

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`.
"""
