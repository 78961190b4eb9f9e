"""Command texts and findings as the command tests compare them."""

from __future__ import annotations


def fm(body: str = "Body.\n", **fields: str) -> str:
    """A command file with frontmatter: keyword names use _ for - (argument_hint)."""
    lines = [f"{key.replace('_', '-')}: {value}" for key, value in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


def found(diags: object) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.message) for d in diags]  # type: ignore[attr-defined]
