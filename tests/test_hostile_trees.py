"""load() and Session.expand() never raise on hostile trees of commands and agents."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satchel
from tests.support import session

# -- never raises ------------------------------------------------------------------------

_FRAGMENTS = [
    "---\n", "name: ", "description: ", "tools: ", "model: ", "safety: ", "isolation: ",
    "argument-hint: ", "allowed-tools: ", "disable-model-invocation: ", "[", "]", "{",
    "}", ": ", "\n", "&a ", "*a", "!!python/object:os.system ", "$ARGUMENTS", "$1", "$0",
    "$ARGUMENTS[3]", "\\", '"', "'", "Bash(git:*)", "Read", "general", "x", "é", "\x00",
    "\ufeff", "\r\n", "- ", "  ", "1", "yes", "null", "<example>", "!`echo hi`", "@x.md",
    "schemaVersion = 1\n", 'agentType = "subagent"\n', 'description = "d"\n',
    "[tools.bash]\n", 'permission = "never"\n', "enabledTools = [", '"",', "]\n",
    "safety = 'yolo'\n", "[types.a]\n",
]  # fmt: skip
_text = st.lists(st.sampled_from(_FRAGMENTS), max_size=25).map("".join)
_content = st.one_of(_text, st.binary(max_size=80))
_stem = st.sampled_from(
    ["a", "b", "Deploy", "deploy", "general", "explore", "x y", "g/a", "g/deploy", "-x",
     "a:b", "help", "skill", "a.b", "Ab_c", "README", "é"]
)  # fmt: skip
_dirs = st.sampled_from(
    [".claude/commands", ".satchel/commands", ".agents/commands", ".claude/agents",
     ".satchel/agents", ".agents/agents", ".agents/skills/deploy", ""]
)  # fmt: skip
_kind = st.sampled_from(["file", "file", "file", "fifo", "link-in", "link-out", "dir"])
_entry = st.tuples(_dirs, _stem, st.sampled_from([".md", ".toml", "/SKILL.md"]), _kind, _content)
_prompt = st.lists(
    st.sampled_from(
        ["/", "/a", "/b", "/deploy", "/Deploy", "/g:deploy", "/skill", " ", "x", "\n",
         '"', "'", "\\", "$1", "/help", "é", "\u00a0", "\r", "/skill deploy", "\t"]
    ),
    max_size=8,
).map("".join)  # fmt: skip


def _make(base: Path, entry: tuple[str, str, str, str, bytes | str]) -> None:
    folder, stem, suffix, kind, body = entry
    path = base / folder / (stem + suffix) if folder else base / "AGENTS.md"
    data = body if isinstance(body, bytes) else body.encode("utf-8", "surrogatepass")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if os.path.lexists(path):
            return
        if kind == "fifo":
            os.mkfifo(path)
        elif kind == "link-in":
            path.symlink_to(path.name)  # a loop
        elif kind == "link-out":
            outside = base.parent / "outside.md"
            outside.write_bytes(data)
            path.symlink_to(outside)
        elif kind == "dir":
            path.mkdir()
        else:
            path.write_bytes(data)
    except (OSError, UnicodeEncodeError):
        pass


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    st.lists(_entry, max_size=8),
    st.lists(_prompt, max_size=4),
    st.sampled_from(["command", "skill"]),
    st.sampled_from([0, 1]),
    st.sampled_from(["stem", "path"]),
    st.sampled_from(["satchel", "codex"]),
)
def test_load_and_expand_never_raise_on_hostile_trees(
    entries, prompts, order, numbering, naming, instructions
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp, "p")
        (project / ".git").mkdir(parents=True)
        home = Path(tmp, "h")
        home.mkdir()
        for entry in entries:
            _make(project, entry)
        layout = satchel.Layout.default(project, home=home, env={})
        env = satchel.load(
            layout=layout,
            builtin_commands=["help"],
            command_naming=naming,
            instructions=instructions,
        )
        env.commands.to_json()
        env.agents.to_json()
        s = session(env, slash_order=order, argument_numbering=numbering)
        s.context()
        for prompt in prompts:
            assert isinstance(s.expand(prompt), str)
