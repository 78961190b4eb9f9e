"""Write the event tables of docs/hooks.md from the catalogue (satchel.hooks._events).

Run it after changing an entry of `CATALOGUE`:

    .venv/bin/python scripts/events.py

It rewrites what lies between the two markers in docs/hooks.md and nothing else.
"""

from __future__ import annotations

from pathlib import Path

from satchel.hooks._events import CATALOGUE, CURSOR_ONLY, GEMINI_ONLY, Event

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "docs" / "hooks.md"
BEGIN = "<!-- events: written by scripts/events.py from the catalogue; do not edit by hand -->"
END = "<!-- events: end -->"
FIRED = {
    "satchel": "fired by satchel",
    "runner": "fired by the host through the runner",
    "recognised": "recognised only",
}
HOSTS = ("claude", "codex", "kimi", "gemini", "cursor", "copilot", "vibe")
TITLES = ("Claude Code", "Codex", "Kimi", "Gemini CLI", "Cursor", "Copilot", "Vibe")


def _code(names: tuple[str, ...] | str) -> str:
    items = (names,) if isinstance(names, str) else names
    return ", ".join(f"`{n}`" for n in items if n)


def _names(event: Event) -> str:
    cells = [_code(getattr(event, host)) for host in HOSTS]
    return f"| `{event.name}` | " + " | ".join(cells) + " |"


def _shape(event: Event) -> str:
    cells = (
        _code(event.inputs) or "(none beyond the common ones)",
        _code(event.answers) or "(the common fields only)",
        f"`{event.matcher}`" if event.matcher else "(no matcher)",
        f"yes: {event.blocks}" if event.blocks else "no",
        FIRED[event.fired],
    )
    return f"| `{event.name}` | " + " | ".join(cells) + " |"


def tables() -> list[str]:
    """The two tables and the names kept as they are."""
    lines = ["| satchel | " + " | ".join(TITLES) + " |", "|---" * (len(HOSTS) + 1) + "|"]
    lines += [_names(e) for e in CATALOGUE]
    lines += ["", "| satchel | input fields | answers | the matcher tests | can block | status |"]
    lines += ["|---|---|---|---|---|---|", *[_shape(e) for e in CATALOGUE], ""]
    kept = ", ".join(f"`{n}`" for n in (*GEMINI_ONLY, *CURSOR_ONLY))
    lines.append(f"Kept under their own names (no satchel event): {kept}.")
    return lines


def render(page: str) -> str:
    """`page` with the text between the markers written from the catalogue."""
    head, rest = page.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    return "\n".join([head + BEGIN, "", *tables(), "", END]) + tail


if __name__ == "__main__":
    TARGET.write_text(render(TARGET.read_text(encoding="utf-8")), encoding="utf-8")
