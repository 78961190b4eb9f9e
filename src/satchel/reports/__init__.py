"""Reports over a whole machine: `checkup` (`satchel doctor`: what each host will
silently do) and `outdated` (installed trees against their sources).

It may import: `core`, `foundations`, `skills`, `index`, `hosts`, `kinds`, `hooks`,
`mcp`, `agents`, `plugins`, `trust`, `assembly`, `runtime`, `session`, `server`,
`audit`, `install`, `port`, `compat`.
"""
