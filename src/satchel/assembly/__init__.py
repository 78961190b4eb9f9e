"""`load()`: the assembly of one `Environment` from every source, in precedence order.

`_environment` (`load`, `Environment`), `_options` (`Options`, `LoadOverrides` and the
host's overrides), `_skillset` (the skills settled across roots), `_writing` (skills a
host defined in code), `_policed` (what policy keeps) and `listings` (what each host
shows its model, in its own style).

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`.
"""
