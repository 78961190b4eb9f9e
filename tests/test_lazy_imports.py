"""Every package's public names are imported on first use (satchel._lazy), and each
package's ``if TYPE_CHECKING:`` imports, its lazy table and its __all__ agree."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

import satchel
from satchel.cli._plain import TERMINAL_VARIABLES
from tests.support import skill_md, write_tree

SRC = Path(satchel.__file__).parent
# What a program that only loads must not pay for (docs/performance.md, "Import time").
HEAVY = ("asyncio", "click", "http.client", "mcp", "rich", "sigstore", "ssl", "subprocess", "xml")


def _lazy_packages() -> list[Path]:
    return sorted(p for p in SRC.rglob("__init__.py") if "attach(" in p.read_text())


def _package(path: Path) -> str:
    return ".".join(path.parent.relative_to(SRC.parent).parts)


Pairs = set[tuple[str, str]]


def _declared(path: Path) -> tuple[Pairs, Pairs, Pairs]:
    """(eager imports, TYPE_CHECKING imports, lazy table) as (module, name) pairs."""
    eager: Pairs = set()
    checked: Pairs = set()
    table: Pairs = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ImportFrom) and node.module:
            eager |= {(node.module or "", a.name) for a in node.names}
        if isinstance(node, ast.If) and ast.unparse(node.test) == "_typing.TYPE_CHECKING":
            for stmt in node.body:
                assert isinstance(stmt, ast.ImportFrom)
                checked |= {(stmt.module or "", a.name) for a in stmt.names}
            for stmt in node.orelse:
                if isinstance(stmt, ast.Assign):
                    assert isinstance(stmt.value, ast.Call)
                    literal = ast.literal_eval(stmt.value.args[1])
                    table |= {(m, n) for m, names in literal.items() for n in names}
    return eager, checked, table


# faces that may stay eager, and why
EAGER = {"satchel.cli": "its one name, main, is what running the command imports anyway"}


def test_every_package_with_exports_is_lazy():
    exporting = {_package(p) for p in SRC.rglob("__init__.py") if "__all__" in p.read_text()}
    assert {_package(p) for p in _lazy_packages()} == exporting - set(EAGER)


@pytest.mark.parametrize("path", _lazy_packages(), ids=_package)
def test_type_checking_imports_match_the_lazy_table(path):
    eager, checked, table = _declared(path)
    assert checked == table
    assert not eager & table


@pytest.mark.parametrize("path", _lazy_packages(), ids=_package)
def test_all_lists_exactly_the_exported_names(path):
    eager, _checked, table = _declared(path)
    package = importlib.import_module(_package(path))
    names = {n for _m, n in eager | table if not n.startswith("_")}
    assert set(package.__all__) - {"__version__"} == names


@pytest.mark.parametrize("path", _lazy_packages(), ids=_package)
def test_each_name_is_the_object_its_module_defines(path):
    eager, _checked, table = _declared(path)
    package = importlib.import_module(_package(path))
    for module, name in sorted(eager | table):
        if module.startswith("satchel."):
            assert getattr(package, name) is getattr(importlib.import_module(module), name)
    assert set(package.__all__) <= set(dir(package))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match=r"^module 'satchel' has no attribute 'lod'$"):
        satchel.lod  # noqa: B018


def _imported(code: str) -> list[str]:
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return out.stdout.split()


def test_import_satchel_imports_nothing_but_its_lazy_table():
    loaded = _imported("import satchel")
    assert [m for m in loaded if m.startswith("satchel")] == [
        "satchel",
        "satchel._lazy",
        "satchel._version",
    ]


def test_load_imports_no_heavy_module():
    loaded = _imported("import satchel\nsatchel.load")
    assert "satchel._environment" in loaded
    assert [m for m in HEAVY if m in loaded or any(x.startswith(m + ".") for x in loaded)] == []


def test_load_imports_the_host_profiles_only_when_one_is_named():
    plain = _imported("import satchel\nsatchel.load")
    named = _imported("import satchel.hosts\nsatchel.hosts.get('codex')")
    table = ("satchel.hosts._profiles", "satchel.hosts._config", "satchel.listings")
    assert [m for m in plain if m.startswith(table)] == []
    assert "satchel.hosts._profiles" in named


def test_a_load_of_a_project_with_every_kind_imports_no_heavy_module(tmp_path):
    project = tmp_path / "project"
    write_tree(
        project,
        {
            ".git/HEAD": "ref: refs/heads/main\n",
            ".claude/skills/deploy/SKILL.md": skill_md("deploy", "Deploy the app."),
            ".claude/commands/ship.md": "Ship it.\n",
            ".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reads.\n---\nRead.\n",
            ".mcp.json": '{"mcpServers": {"api": {"command": "api-server"}}}',
            ".satchel/hooks.toml": (
                '[[hooks.before_tool_use]]\nmatcher = "Bash"\n\n'
                '[[hooks.before_tool_use.hooks]]\ncommand = "true"\n'
            ),
        },
    )
    code = (
        "import satchel, pathlib\n"
        f"home = pathlib.Path({str(tmp_path / 'home')!r})\n"
        f"lay = satchel.Layout.default(pathlib.Path({str(project)!r}), home=home, env={{}})\n"
        "env = satchel.load(layout=lay, trusted=True)\n"
        "assert sorted(env.skills) == ['deploy'], sorted(env.skills)\n"
        "assert list(env.commands.commands) == ['ship']\n"
        "assert list(env.agents.agents) == ['reviewer']\n"
        "assert [s.name for s in env.mcp_servers.servers] == ['api']\n"
        "assert [h.event for h in env.hooks.hooks] == ['before_tool_use'], env.diagnostics"
    )
    loaded = _imported(code)
    assert [m for m in HEAVY if m in loaded or any(x.startswith(m + ".") for x in loaded)] == []
    # PyYAML only for frontmatter the fast path cannot read; this tree's is plain
    assert [m for m in loaded if m == "yaml" or m.startswith(("yaml.", "satchel._yaml"))] == []


# What the common verbs must not import (docs/performance.md, "Start-up"): the runtime
# (hooks, MCP, installs, the server), the audit and port verbs' code, the network and
# keyring clients, the MCP SDK and the Skills extension's client (no skill server is
# configured), hashlib (the discovery cache names its files without it), platformdirs
# (the Linux directories are known), host profiles unless --host names one (every load
# reads the hosts' MCP file tables, `satchel.hosts._mcp`, and nothing else of them), rich,
# since nothing here is a terminal, and the process layer's signal handling and
# subprocess, since they start no process.
NOT_FOR_A_VERB = (
    "anyio",
    "asyncio",
    "concurrent.futures",
    "hashlib",
    "httpx",
    "keyring",
    "mcp",
    "platformdirs",
    "rich",
    "satchel.audit",
    "satchel.hosts._config",
    "satchel.hosts._profiles",
    "satchel.install",
    "satchel.listings",
    "satchel.mcp._sdk",
    "satchel.mcp._skills_client",
    "satchel.port",
    "satchel.process._live",
    "satchel.runtime",
    "satchel.server",
    "subprocess",
)
HOST_DATA = ("satchel.hosts", "satchel.hosts._mcp")  # the lazy package and the MCP tables
VERB_ARGS = {
    "list": ("list", "--project", "{project}", "--home", "{home}"),
    "index": ("index", "--project", "{project}", "--home", "{home}"),
    "doctor": ("doctor", "--project", "{project}", "--home", "{home}"),
    "validate": ("validate", "{project}/.claude/skills/deploy"),
}


@pytest.mark.parametrize("verb", sorted(VERB_ARGS))
def test_a_common_verb_imports_only_what_it_uses(tmp_path, verb):
    project, home = tmp_path / "project", tmp_path / "home"
    write_tree(project, {".claude/skills/deploy/SKILL.md": skill_md("deploy", "Deploy it.")})
    home.mkdir()
    args = [a.format(project=project, home=home) for a in VERB_ARGS[verb]]
    modules = tmp_path / "modules.txt"
    probe = (
        "import sys, pathlib\nfrom satchel.cli import main\n"
        f"code = main({args!r})\n"
        f"pathlib.Path({str(modules)!r}).write_text(' '.join(sorted(sys.modules)))\n"
        "sys.exit(code)"
    )
    env = {k: v for k, v in os.environ.items() if k not in TERMINAL_VARIABLES}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "deploy" in done.stdout
    loaded = [m for m in modules.read_text().split() if m not in HOST_DATA]
    heavy = [m for m in NOT_FOR_A_VERB if m in loaded or any(x.startswith(m + ".") for x in loaded)]
    assert heavy == []
