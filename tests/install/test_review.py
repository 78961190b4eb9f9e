"""The review `install_from_spec` and `update` ask before replacing an installed tree:
it sees both trees whole, a False answer leaves the scope as it was
(``install.review.refused``), and `update(dry_run=True)` places nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from satchel.core.layout import Layout
from satchel.install import InstallError, Reviewed, install_from_spec, update
from tests.support import skill_md

from .support import commit, git_repo, head, state


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return git_repo(tmp_path / "work", {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs.")})


def url(repo: Path) -> str:
    return f"file://{repo}#main:skills"


class Seen:
    """A review that records what it was shown (the SKILL.md of each side) and answers."""

    def __init__(self, answer: bool) -> None:
        self.answer = answer
        self.items: list[tuple[str, str, str | None, str]] = []

    def __call__(self, item: Reviewed) -> bool:
        old = item.old / "SKILL.md"
        self.items.append(
            (
                item.name,
                item.kind,
                old.read_text() if old.exists() else None,
                (item.new / "SKILL.md").read_text(),
            )
        )
        return self.answer


def test_a_first_install_asks_no_review(layout: Layout, repo: Path) -> None:
    seen = Seen(False)
    assert len(install_from_spec(url(repo), layout=layout, environ={}, review=seen).installed) == 1
    assert seen.items == []


def test_install_of_a_new_version_is_reviewed_and_refused(layout: Layout, repo: Path) -> None:
    install_from_spec(url(repo), layout=layout, environ={})
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Reads PDFs, now more.")})
    before = state(layout.project)
    seen = Seen(False)
    with pytest.raises(InstallError) as refused:
        install_from_spec(url(repo), layout=layout, environ={}, review=seen)
    target = layout.project / ".satchel/skills/pdf"
    assert (refused.value.diagnostic.code, refused.value.diagnostic.message) == (
        "install.review.refused",
        "the review refused the new version of skill 'pdf': nothing was installed",
    )
    assert refused.value.diagnostic.path == target
    assert seen.items == [
        ("pdf", "skill", skill_md("pdf", "Reads PDFs."), skill_md("pdf", "Reads PDFs, now more."))
    ]
    assert state(layout.project) == before


def test_update_asks_about_each_changed_tree_before_placing(layout: Layout, repo: Path) -> None:
    install_from_spec(url(repo), layout=layout, environ={})
    before = state(layout.project)
    assert update(layout=layout, environ={}, review=Seen(False))[0].updated is False
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Newer.")})
    with pytest.raises(InstallError, match="review refused"):
        update(layout=layout, environ={}, review=Seen(False))
    assert state(layout.project) == before
    (change,) = update(layout=layout, environ={}, review=Seen(True))
    assert (change.updated, change.after) == (True, head(repo))
    assert (layout.project / ".satchel/skills/pdf/SKILL.md").read_text() == skill_md(
        "pdf", "Newer."
    )


def test_a_dry_run_reviews_and_places_nothing(layout: Layout, repo: Path) -> None:
    install_from_spec(url(repo), layout=layout, environ={})
    commit(repo, {"skills/pdf/SKILL.md": skill_md("pdf", "Newer.")})
    (layout.project / ".satchel/skills/pdf/SKILL.md").write_text("edited by hand\n")
    before = state(layout.project)
    seen = Seen(True)
    (change,) = update(layout=layout, environ={}, review=seen, dry_run=True)
    assert change.updated is True
    # an edited tree is compared as it is on disk, and left so
    assert [(old, new) for *_, old, new in seen.items] == [
        ("edited by hand\n", skill_md("pdf", "Newer."))
    ]
    assert state(layout.project) == before
