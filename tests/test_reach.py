"""`satchel.trust._reach`: which files a hook's command can run, read without running it."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.trust._reach import argv_reach, shell_reach
from tests.support import put


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    put(tmp_path / "project" / "tools" / "g.sh", "exit 0\n")
    put(tmp_path / "plugin" / "scripts" / "x.sh", "exit 0\n")
    return tmp_path


def reach(tree: Path, command: str):
    project, plugin = tree / "project", tree / "plugin"
    variables = {"CLAUDE_PROJECT_DIR": str(project), "CLAUDE_PLUGIN_ROOT": str(plugin)}
    found = shell_reach(command, cwd=project, variables=variables, inside=[project, plugin])
    files = [str(f.relative_to(tree)) for f in found.files]
    return files, found.undetermined


@pytest.mark.parametrize(
    ("command", "files"),
    [
        ('sh "$PWD/tools/g.sh"', ["project/tools/g.sh"]),
        ("cd tools && sh g.sh", ["project/tools/g.sh"]),
        ("cd tools; cd ..; sh tools/g.sh", ["project/tools/g.sh"]),
        ("sh $CLAUDE_PLUGIN_ROOT/scripts/x.sh", ["plugin/scripts/x.sh"]),
        ('sh "$CLAUDE_PLUGIN_ROOT"/scripts/x.sh', ["plugin/scripts/x.sh"]),
        ("sh ${CLAUDE_PROJECT_DIR}/tools/g.sh", ["project/tools/g.sh"]),
        ("bash -c 'cd tools && ./g.sh' 2>/dev/null", ["project/tools/g.sh"]),
        ("eval sh tools/g.sh", ["project/tools/g.sh"]),
        ("env A=1 timeout 5 sh tools/g.sh", ["project/tools/g.sh"]),
        ("sh < tools/g.sh > tools/out.log", ["project/tools/g.sh"]),
        ("echo done # sh tools/g.sh", []),
        ("git diff --cached | grep -q TODO && exit 2", []),
    ],
)
def test_the_files_a_command_names_are_found(tree, command, files):
    assert reach(tree, command) == (files, None)


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("make hook", "'make' may run files its words do not name"),
        ("sh tools/$(echo g).sh", "$( ) runs a command"),
        ("sh `echo tools/g.sh`", "backticks run a command"),
        ("sh tools/*.sh", "an unquoted glob"),
        ("sh $TOOLS/g.sh", "$TOOLS is not set by the host"),
        ("sh ${TOOLS:-tools}/g.sh", "${TOOLS:-tools} is not a plain variable"),
        ("cd - && sh g.sh", "cd - goes back to a directory not known here"),
        ("python3 -c 'import runpy'", "python3 runs code given on its command line"),
        ("sh 'tools/g.sh", "a quote is not closed"),
    ],
)
def test_a_command_whose_files_cannot_be_determined_says_why(tree, command, why):
    assert reach(tree, command)[1] == why


def test_an_exec_form_hook_expands_nothing_but_reads_a_shell_minus_c(tree):
    project = tree / "project"
    found = argv_reach(["sh", "-c", "cd tools && sh g.sh"], cwd=project, inside=[project])
    assert (found.files, found.undetermined) == ((project / "tools" / "g.sh",), None)
    literal = argv_reach(["sh", "$PWD/tools/g.sh"], cwd=project, inside=[project])
    assert literal.files == ()
