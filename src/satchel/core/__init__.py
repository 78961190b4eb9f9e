"""The ground every layer stands on: where to look, what went wrong, how files are read.

`layout` (roots, scopes, precedence tables, walk bounds), `diagnostics` (the
`Diagnostic` value and the frozen code registry), `errors` (the exception tree), and the
private readers beneath all loading: bounded file reads (`_files`), strict JSON, YAML and
TOML (`_json`, `_yaml`, `_fastyaml`, `_toml`), text (`_text`), ignore files (`_ignore`),
XML escaping (`_xml`), `@model` (`_model`), the lazy package faces (`_lazy`) and the
collector paused while files are read (`_collector`).

It may import no other package of satchel.
"""
