"""``--model`` on the verbs that size a host's skill listing: index, compat, doctor and
serve take the model whose context window the budget is taken of."""

from __future__ import annotations

from satchel.cli import main
from tests.support import write_skill


def _skills(project):
    for n in range(30):
        write_skill(project / ".claude" / "skills", f"s{n:02}", description="x" * 400)


def test_compat_takes_the_budget_of_the_model_named(satchel, project, home):
    _skills(project)
    base = ("compat", str(project), "--project", str(project), "--home", str(home))
    args = (*base, "--host", "claude-code", "--json")
    default = satchel(*args).json()["hosts"][0]["tokens"]["budget"]
    older = satchel(*args, "--model", "claude-opus-4-6").json()["hosts"][0]["tokens"]["budget"]
    assert (default["chars"], older["chars"]) == (30_000, 8_000)
    assert older["rule"] == (
        "1% of claude-opus-4-6's 200,000-token context window at 4 characters a token"
    )


def test_doctor_reports_an_unknown_model(satchel, project, home):
    _skills(project)
    args = ("doctor", "--project", project, "--home", home, "--host", "claude-code")
    found = satchel(*args, "--model", "claude-nonesuch", "--json").json()["diagnostics"]
    unknown = [d for d in found if d["code"] == "host.model-unknown"]
    assert [d["message"] for d in unknown] == [
        "model 'claude-nonesuch' is not one claude-code knows: its listing budget assumes a "
        "1,000,000-token context window at 3 characters a token"
    ]


def test_serve_takes_the_option(capsys):
    assert main(["serve", "--help"]) == 0
    assert "--model ID" in capsys.readouterr().out
