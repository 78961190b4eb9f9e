"""The folders are the layers: `src/satchel/` shows them, the import contract names each
package once, and each package says what it may import (docs/architecture.md)."""

from __future__ import annotations

import ast
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SRC = REPO / "src" / "satchel"


def _rows() -> list[list[str]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text())
    contract = config["tool"]["importlinter"]["contracts"][0]
    assert contract["type"] == "layers"
    return [[name.strip() for name in row.split("|")] for row in contract["layers"]]


def _packages() -> list[str]:
    return sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").is_file())


def test_the_top_folder_holds_at_most_25_entries():
    tracked = subprocess.run(
        ["git", "ls-files", "src/satchel"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    entries = {Path(name).parts[2] for name in tracked}
    assert len(entries) <= 25, sorted(entries)
    assert sorted(n for n in entries if n.endswith(".py")) == ["__init__.py", "__main__.py"]


def test_the_import_contract_has_one_row_entry_per_package_and_names_every_package():
    named = [name for row in _rows() for name in row if name != "__main__"]
    assert len(named) == len(set(named))
    assert sorted(named) == _packages()


@pytest.mark.parametrize("package", _packages())
def test_each_package_says_what_it_may_import_as_the_contract_does(package):
    rows = _rows()
    at = next(i for i, row in enumerate(rows) if package in row)
    below = [name for row in reversed(rows[at + 1 :]) for name in row]
    said = (
        "It may import: " + ", ".join(f"`{name}`" for name in below) + "."
        if below
        else "It may import no other package of satchel."
    )
    doc = ast.get_docstring(ast.parse((SRC / package / "__init__.py").read_text())) or ""
    last = doc.rstrip().split("\n\n")[-1]
    assert " ".join(last.split()) == said
    assert len(doc.split("\n\n")) >= 2, "the docstring also says what the package holds"


@pytest.mark.parametrize("package", _packages())
def test_the_architecture_page_says_what_each_folder_holds(package):
    page = (REPO / "docs" / "architecture.md").read_text()
    assert re.search(rf"^\s*{re.escape(package)}/\s", page, re.M), package


def test_the_architecture_page_answers_where_each_kind_of_change_goes():
    page = (REPO / "docs" / "architecture.md").read_text()
    section = page.split("## Where new things go", 1)[1].split("\n## ", 1)[0]
    asked = ("host", "component kind", "hook type", "source kind", "verb", "diagnostic")
    for kind in asked:
        assert re.search(rf"\*\*A new {kind}\b", section), kind
