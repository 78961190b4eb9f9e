"""The model a session's listing is for: the one `load(model=...)` or
`Session(model=...)` names, as ``satchel index --model`` takes it."""

from __future__ import annotations

from pathlib import Path

import pytest

import satchel
from satchel.cli import main
from satchel.hosts import PROFILES
from satchel.session import Session
from satchel.trust._trust import trust
from tests.support import write_skill

ROOTS = {"codex": ".agents/skills", "gemini": ".gemini/skills"}
MODELS = {"codex": "gpt-5.5", "gemini": "gemini-2.5-pro"}


def _skills(home: Path, host: str) -> None:
    for n in range(60):
        write_skill(home / ROOTS[host], f"s{n:02}", description=f"{n} " + "x" * 1_000)


def _layout(host: str, project: Path, home: Path) -> satchel.Layout:
    made = PROFILES[host].layout(project, home=home, project=project)
    trust(made, project)
    return made


def _index(session: Session) -> str:
    return next(s.text for s in session.context() if s.id == "agent.skills")


def _cli_index(capsys, host: str, project: Path, home: Path, model: str | None) -> str:
    args = ["index", "--project", str(project), "--home", str(home), "--host", host]
    assert main([*args, *([] if model is None else ["--model", model])]) == 0
    return capsys.readouterr().out.removesuffix("\n")


@pytest.mark.parametrize("host", ["codex", "gemini"])
def test_a_session_lists_skills_for_the_model_the_load_names(host, project, home, capsys):
    _skills(home, host)
    model = MODELS[host]
    env = satchel.load(layout=_layout(host, project, home), host=host, model=model)
    found = _index(Session(env, environ={}, host=host))
    assert found == _cli_index(capsys, host, project, home, model)
    assert found != _cli_index(capsys, host, project, home, None)


def test_a_session_warns_of_a_model_its_host_does_not_know(project, home):
    _skills(home, "codex")
    env = satchel.load(layout=_layout("codex", project, home), host="codex")
    session = Session(env, environ={}, model="nope")
    assert [(d.code, d.message) for d in session.diagnostics] == [
        (
            "host.model-unknown",
            "model 'nope' is not one codex knows: its listing budget assumes a "
            "272,000-token context window at 4 characters a token",
        )
    ]


def test_a_model_the_load_named_is_reported_once_by_the_load(project, home):
    env = satchel.load(layout=_layout("codex", project, home), host="codex", model="nope")
    assert [d.code for d in env.diagnostics if d.code.startswith("host.")] == ["host.model-unknown"]
    assert Session(env, environ={}).diagnostics == ()
