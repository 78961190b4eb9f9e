"""The values and rules the readers share, above the ground.

Where a loaded item came from (`origin`: `Origin`, `Trust`), which name wins
(`precedence`), frontmatter (`frontmatter`), permission rules (`permissions`), the one
subprocess primitive (`process`), the organisation's policy (`policy`), token counts
(`tokens`); and, private: paths kept inside a root (`_contain`), ``config.toml``
(`_config`), what a host keeps on disk (`_host_state`, `_host_files`, `_host_settings`,
`_claude_managed`), shell interpolation's grammar (`_interpolation`), context segments
(`_segments`), the network deadline (`_net`) and the version (`_version`).

It may import: `core`.
"""
