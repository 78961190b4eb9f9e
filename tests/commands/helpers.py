"""Writing command trees for the tests."""

from __future__ import annotations

from pathlib import Path


def put(root: Path, relpath: str, text: str | bytes = "Body.\n") -> Path:
    """Write `text` at `root/relpath` (parents made); the path."""
    path = root / relpath
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_bytes(text.encode("utf-8"))
    return path


def fm(body: str = "Body.\n", **fields: str) -> str:
    """A command file with frontmatter: keyword names use _ for - (argument_hint)."""
    lines = [f"{key.replace('_', '-')}: {value}" for key, value in fields.items()]
    return "---\n" + "\n".join(lines) + "\n---\n" + body


def found(diags: object) -> list[tuple[str, str, str]]:
    return [(d.code, d.severity, d.message) for d in diags]  # type: ignore[attr-defined]
