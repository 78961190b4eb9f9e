"""Every package's public names are imported on first use (satchel._lazy), and each
package's ``if TYPE_CHECKING:`` imports, its lazy table and its __all__ agree."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import satchel

SRC = Path(satchel.__file__).parent
# What a program that only loads must not pay for (docs/performance.md, "Import time").
HEAVY = ("asyncio", "click", "http.client", "rich", "ssl", "subprocess", "xml")


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


def test_every_package_with_exports_is_lazy():
    names = {_package(p) for p in _lazy_packages()}
    assert names == {
        "satchel", "satchel.agents", "satchel.audit", "satchel.commands", "satchel.hooks",
        "satchel.install", "satchel.mcp", "satchel.plugins", "satchel.process",
        "satchel.resources", "satchel.session", "satchel.skills",
    }  # fmt: skip


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
