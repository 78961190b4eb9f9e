"""Codex's skills listing: the ``<skills_instructions>`` message Codex 0.171.0 puts in
front of its model, rendered from the skills satchel loaded under the ``codex`` profile.

What Codex does (read off ``codex debug prompt-input`` and ``codex exec`` run offline,
and the ``core-skills``/``ext/skills`` renderers of openai/codex):

* The message is ``<skills_instructions>``, a newline, ``## Skills``, the intro, a
  ``### Skill roots`` table (``- `rN` = `DIR```), ``### Available skills``, one line per
  skill (``- NAME: DESCRIPTION (file: rN/REL)``, or ``- NAME: (file: rN/REL)`` with no
  description), a newline and ``</skills_instructions>``. Nothing is escaped.
* A description is read with its runs of whitespace made one space, and one longer than
  1,024 characters is cut to 1,021 and ``...``.
* A skill whose ``agents/openai.yaml`` says ``policy: allow_implicit_invocation:
  false`` is not listed (two of Codex's bundled skills say so).
* Order: Codex's bundled skills (``$CODEX_HOME/skills/.system``) first, then the
  project's, then the user's; within each by name, then by path. Every copy of a
  name is listed.
* The roots table names each root that holds a listed skill, in Codex's root order:
  the project's ``.codex/skills`` from the working directory up to the repository
  root, ``$CODEX_HOME/skills``, ``~/.agents/skills``, the bundled root, then the
  project's ``.agents/skills`` from the repository root down to the working directory.
* Budget: 2% of the model's context window in tokens (``window * 2 // 100``, at least
  1), each line and its newline costing its UTF-8 bytes divided by four, rounded up;
  with no window at all, 8,000 characters (the CLI always has one: a model its
  catalogue does not name gets 272,000 tokens). The roots table costs what the text around
  the lines with the table costs over the same text with Codex's intro for absolute
  paths (nothing while the table is short: the intro for short paths is shorter).
  When the full lines do not fit and the lines without descriptions do, the room left
  is given to the descriptions one character at a time, in listing order, round after
  round (a short description stops asking; the long ones share
  what it leaves), and each description is cut where its share ends, with no marker.
  When even the bare lines do not fit, bare lines are taken in order while they fit
  and the rest are left out, with no marker.
* For a model whose catalogue entry sets ``include_skills_usage_instructions``
  (gpt-5.5 in 0.171.0's catalogue; not the default gpt-6.2-sol), ``### How to use
  skills`` and Codex's usage rules follow the lines (`CODEX_USAGE`), at no cost.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from satchel.assembly.listings._listing import Listing
from satchel.hosts._models import CODEX_MODELS
from satchel.index._budget import Budget
from satchel.index._render import Index, IndexEntry, check_overrides, hidden_reason, index_of
from satchel.skills import Skill

__all__ = [
    "CODEX_CHARS",
    "CODEX_MODEL",
    "CODEX_USAGE_MODELS",
    "CODEX_USAGE",
    "codex_model",
    "CODEX_DESCRIPTION",
    "CODEX_PERCENT",
    "applied",
    "codex_budget",
    "render",
    "render_codex_listing",
]

CODEX_MODEL = CODEX_MODELS.default
"""Codex 0.171.0's default model (gpt-6.2-sol)."""
CODEX_USAGE_MODELS = frozenset({"gpt-5.5"})
"""The models of Codex 0.171.0's catalogue that get its rules for using skills
(``include_skills_usage_instructions``)."""


def codex_model(model: str | None = None) -> tuple[int, bool]:
    """``(context window, usage rules)`` of `model` [Codex's default] in Codex 0.171.0
    (the windows are those of `satchel.hosts.CODEX_MODELS`)."""
    window = CODEX_MODELS.resolve(model).window.tokens
    return window, (model or CODEX_MODEL) in CODEX_USAGE_MODELS


CODEX_PERCENT = 2
"""The share of the model's context window, in percent, the listing gets (in tokens)."""
CODEX_CHARS = 8_000
"""The listing's budget in characters when the model's context window is not known."""
CODEX_DESCRIPTION = 1_024
"""The characters of a description Codex shows, ``...`` included."""
_DOTS = "..."
_BYTES_PER_TOKEN = 4
_INTRO = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
_ABSOLUTE_INTRO = (
    "A skill is a set of instructions provided through a `SKILL.md` source. Below is the "
    "list of skills that can be used. Each entry includes a name, description, and source "
    "locator. `file` locators are on the host filesystem, `executor package` locators are "
    "owned by their execution environment, `cloud package` locators are opaque package "
    "identifiers, and `custom resource` locators use their provider's access mechanism."
)
_SYSTEM = ".system"
_POLICY = Path("agents") / "openai.yaml"
_POLICY_BYTES = 64 * 1024
CODEX_USAGE = """\
### How to use skills
- Discovery: The list above is the skills available in this session (name + description + \
short path). Skill bodies live on disk at the listed paths after expanding the matching alias \
from `### Skill roots`.
- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task \
clearly matches a skill's description shown above, you must use that skill for that turn. \
Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.
- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so \
briefly and continue with the best fallback.
- How to use a skill (progressive disclosure):
  1) After deciding to use a skill, the main agent must expand the listed short `path` with \
the matching alias from `### Skill roots`, then open and read its `SKILL.md` completely \
before taking task actions. If a read is truncated or paginated, continue until EOF.
  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them \
relative to the directory containing that expanded `SKILL.md` first, and only consider other \
paths if needed.
  3) If `SKILL.md` points to extra folders such as `references/`, use its routing \
instructions to identify the files required for the task. The main agent must read each \
required instruction or reference file itself before acting on it. Do not delegate reading, \
summarizing, or interpreting skill instructions to a subagent. Subagents may still perform \
task work when the selected skill allows it.
  4) If `scripts/` exist, prefer running or patching them instead of retyping large code blocks.
  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.
- Coordination and sequencing:
  - If multiple skills apply, choose the minimal set that covers the request and state the \
order you'll use them.
  - Announce which skill(s) you're using and why (one short line). If you skip an obvious \
skill, say why.
- Context hygiene:
  - Progressive disclosure applies to selecting relevant files, not partially reading a \
selected instruction file. Do not load unrelated references, scripts, or assets.
  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` \
unless you're blocked.
  - When variants exist (frameworks, providers, domains), pick only the relevant reference \
file(s) and note that choice.
- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear \
instructions), state the issue, pick the next-best approach, and continue."""
"""Codex's rules for using skills, sent after the lines to a model that asks for them."""


@dataclass(frozen=True, slots=True)
class _Budget:
    limit: int
    tokens: bool

    def cost(self, text: str) -> int:
        return self.counts(len(text), len(text.encode()))

    def counts(self, chars: int, size: int) -> int:
        if self.tokens:
            return (size + _BYTES_PER_TOKEN - 1) // _BYTES_PER_TOKEN
        return chars


def codex_budget(context_window: int | None) -> tuple[int, str]:
    """The listing's budget for a model with `context_window` tokens: ``(limit, unit)``,
    the unit ``tokens`` (2% of the window, at least 1) or ``chars`` (8,000 when the
    window is not known)."""
    if context_window is not None and context_window > 0:
        return max(context_window * CODEX_PERCENT // 100, 1), "tokens"
    return CODEX_CHARS, "chars"


def applied(budget: Budget, model: str | None = None) -> Budget:
    """The budget Codex applies to its listing for `model` [its default]: its own
    (`codex_budget`; tokens at 4 bytes a token) and `CODEX_DESCRIPTION`, whatever
    `budget` a caller gives (`satchel.assembly.listings._listing.style_budget`)."""
    limit, unit = codex_budget(codex_model(model)[0])
    bound = {"tokens" if unit == "tokens" else "chars": limit}
    return Budget(description=CODEX_DESCRIPTION, **bound)


def shown_description(description: str) -> str:
    """A description as Codex shows it: whitespace runs made one space, and cut to
    1,024 characters with ``...`` when longer."""
    text = " ".join(description.split())
    if len(text) <= CODEX_DESCRIPTION:
        return text
    return text[: CODEX_DESCRIPTION - len(_DOTS)] + _DOTS


@dataclass(frozen=True, slots=True)
class _Entry:
    skill: Skill
    name: str
    description: str
    root: Path
    rank: int
    path: Path

    def line(self, short: str, chars: int | None = None) -> str:
        text = self.description if chars is None else self.description[:chars]
        if not text:
            return f"- {self.name}: (file: {short})"
        return f"- {self.name}: {text} (file: {short})"


def _root(skill: Skill, codex_home: Path | None) -> tuple[Path, int]:
    """The root Codex lists `skill` under and its scope's rank (0 bundled, 2 project,
    3 user)."""
    assert skill.path is not None
    root = skill.origin.path or skill.path.parent.parent
    system = (codex_home or root.parent) / "skills" / _SYSTEM
    if skill.scope == "user" and (root.name == _SYSTEM or skill.path.is_relative_to(system)):
        return (root if root.name == _SYSTEM else system), 0
    return root, 2 if skill.scope == "project" else 3


def _root_order(root: Path, rank: int) -> tuple[int, int, str]:
    """Codex's order of roots: project ``.codex`` (deepest first), ``$CODEX_HOME/skills``,
    ``~/.agents/skills``, the bundled root, project ``.agents`` (shallowest first)."""
    family = root.parent.name
    depth = len(root.parts)
    if rank == 2 and family != ".agents":
        return (0, -depth, str(root))
    if rank == 3:
        return (1 if family != ".agents" else 2, depth, str(root))
    if rank == 0:
        return (3, depth, str(root))
    return (4, depth, str(root))


def implicit(skill: Skill) -> bool:
    """Whether Codex lists `skill`: not when its ``agents/openai.yaml`` says
    ``policy: allow_implicit_invocation: false`` (an unreadable file says nothing)."""
    if skill.path is None:
        return False
    try:
        with (skill.path.parent / _POLICY).open("rb") as f:
            data = yaml.safe_load(f.read(_POLICY_BYTES).decode())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return True
    policy = data.get("policy") if isinstance(data, dict) else None
    allowed = policy.get("allow_implicit_invocation") if isinstance(policy, dict) else None
    return allowed is not False


def _entries(skills: Sequence[Skill], codex_home: Path | None) -> list[_Entry]:
    found = []
    for skill in skills:
        if skill.path is None or not implicit(skill):
            continue
        root, rank = _root(skill, codex_home)
        description = shown_description(skill.description)
        found.append(_Entry(skill, skill.name, description, root, rank, skill.path))
    return sorted(found, key=lambda e: (e.rank, e.name, e.path.parts))


def _whole(entries: list[_Entry], shorts: list[str], budget: _Budget) -> int:
    """What the lines cost with every description whole."""
    full = (e.line(s) for e, s in zip(entries, shorts, strict=True))
    return sum(budget.cost(line + "\n") for line in full)


def _fit(entries: list[_Entry], shorts: list[str], budget: _Budget) -> list[int | None]:
    """The characters of each description shown (None: the entry is left out)."""
    if _whole(entries, shorts, budget) <= budget.limit:
        return [len(e.description) for e in entries]
    bare = [e.line(s, 0) for e, s in zip(entries, shorts, strict=True)]
    floor = sum(budget.cost(line + "\n") for line in bare)
    if floor <= budget.limit:
        return list(_share(entries, bare, budget, budget.limit - floor))
    shown: list[int | None] = []
    used = 0
    for line in bare:
        cost = budget.cost(line + "\n")
        fits = used + cost <= budget.limit
        used += cost if fits else 0
        shown.append(0 if fits else None)
    return shown


def _extra_costs(description: str, bare: str, budget: _Budget) -> list[int]:
    """What showing the first k characters of `description` costs over the bare line,
    for every k (the space before the description counted from the first)."""
    chars, size = len(bare) + 1, len(bare.encode()) + 1
    base = budget.counts(chars, size)
    costs, prefix = [0], 0
    for k, char in enumerate(description, start=1):
        prefix += len(char.encode())
        costs.append(budget.counts(chars + k + 1, size + prefix + 1) - base)
    return costs


def _share(entries: list[_Entry], bare: list[str], budget: _Budget, room: int) -> list[int]:
    """Codex's even shortening: one more character for each description in turn, round
    after round, while its cost fits in the `room` left."""
    costs = [_extra_costs(e.description, b, budget) for e, b in zip(entries, bare, strict=True)]
    chars = [0] * len(entries)
    changed = True
    while changed:
        changed = False
        for i, entry in enumerate(entries):
            if chars[i] >= len(entry.description):
                continue
            delta = costs[i][chars[i] + 1] - costs[i][chars[i]]
            if delta <= room:
                chars[i] += 1
                room -= delta
                changed = True
    return chars


def _frame(intro: str, table: list[str]) -> str:
    head = ["## Skills", intro, *(["### Skill roots", *table] if table else [])]
    return "\n" + "\n".join([*head, "### Available skills"]) + "\n"


def _table_cost(table: list[str], budget: _Budget) -> int:
    """What the roots table takes from the budget: the frame with it over the frame
    Codex would use with absolute paths, never below nothing."""
    with_table = budget.cost(_frame(_INTRO, table))
    return max(with_table - budget.cost(_frame(_ABSOLUTE_INTRO, [])), 0)


@dataclass(frozen=True, slots=True)
class _Laid:
    """The listing's text, each listed copy's place, the budget's `limit` and `unit`,
    and what the listing costs with every description whole (`cost`: the roots table
    with the lines)."""

    text: str
    placed: list[_Placed]
    limit: int
    unit: str
    cost: int


@dataclass(frozen=True, slots=True)
class _Placed:
    """One copy of a skill in the listing: its `line` ("" when left out), the characters
    of its description `shown` (None: left out) and their number in full."""

    skill: Skill
    line: str
    shown: int | None
    full: int


def _lay_out(
    skills: Sequence[Skill],
    context_window: int | None,
    codex_home: Path | None,
    usage: bool,
    *,
    uncut: bool = False,
) -> _Laid:
    """The listing laid out (`uncut`: every description shown as Codex shows it,
    whatever the budget)."""
    entries = _entries(skills, codex_home)
    limit, unit = codex_budget(context_window)
    unit = "tokens" if unit == "tokens" else "characters"
    if not entries:
        return _Laid("", [], limit, unit, 0)
    ranks = {e.root: e.rank for e in entries}
    roots = sorted(ranks, key=lambda r: _root_order(r, ranks[r]))
    alias = {root: f"r{i}" for i, root in enumerate(roots)}
    shorts = [f"{alias[e.root]}/{e.path.relative_to(e.root).as_posix()}" for e in entries]
    table = [f"- `{alias[root]}` = `{root.as_posix()}`" for root in roots]
    budget = _Budget(limit, unit == "tokens")
    table_cost = _table_cost(table, budget)
    room = _Budget(max(limit - table_cost, 0), budget.tokens)
    whole: list[int | None] = [len(e.description) for e in entries]
    shown = whole if uncut else _fit(entries, shorts, room)
    placed = [
        _Placed(e.skill, "" if n is None else e.line(short, n), n, len(e.description))
        for e, short, n in zip(entries, shorts, shown, strict=True)
    ]
    lines = [p.line for p in placed if p.line]
    body = ["## Skills", _INTRO, "### Skill roots", *table, "### Available skills", *lines]
    if usage:
        body.append(CODEX_USAGE)
    text = "<skills_instructions>\n" + "\n".join(body) + "\n</skills_instructions>"
    return _Laid(text, placed, limit, unit, table_cost + _whole(entries, shorts, budget))


def render_codex_listing(
    skills: Sequence[Skill],
    context_window: int | None,
    *,
    codex_home: Path | None = None,
    usage: bool = False,
) -> str:
    """The ``<skills_instructions>`` message Codex 0.171.0 sends its model for `skills`
    (those satchel loaded under the ``codex`` profile, copies of a name included, and
    Codex's bundled skills under ``codex_home/skills/.system``) and a model of
    `context_window` tokens (None: not known); "" when there are no skills.
    `codex_home` is ``$CODEX_HOME`` [the parent of the user's ``.codex/skills`` root];
    `usage` adds Codex's rules for using skills (a model whose catalogue entry asks)."""
    return _lay_out(skills, context_window, codex_home, usage).text


def render(listing: Listing) -> Index:
    """The ``codex`` listing style: Codex's own listing of `listing` (every copy of a
    name: the skills and the copies they shadowed) for its model (`codex_model`), with
    each skill's place (`Listing.uncut`: none cut for the budget); a skill an override
    keeps from the model is left out."""
    copies = [*listing.skills, *listing.shadowed]
    states, problems = check_overrides(set(listing.known), listing.overrides)
    hidden = {id(s): why for s in copies if (why := hidden_reason(s, states.get(s.name)))}
    window, usage = codex_model(listing.model)
    visible = [s for s in copies if id(s) not in hidden]
    laid = _lay_out(visible, window, None, usage, uncut=listing.uncut)
    at = {id(p.skill): p for p in laid.placed}
    order = [p.skill for p in laid.placed] + [s for s in copies if id(s) not in at]
    entries = tuple(_index_entry(s, at.get(id(s)), hidden.get(id(s)), laid.limit) for s in order)
    return index_of(
        laid.text, entries, problems, cost=laid.cost, allowed=laid.limit, unit=laid.unit
    )


def _index_entry(skill: Skill, placed: _Placed | None, why: str | None, limit: int) -> IndexEntry:
    if why is not None:
        return IndexEntry(skill, "hidden", "", why=why)
    if placed is None:
        reason = "its agents/openai.yaml turns off implicit invocation"
        return IndexEntry(skill, "hidden", "", why=reason)
    if placed.shown is None:
        return IndexEntry(skill, "omitted", "", "max_tokens", limit)
    if placed.shown == 0 and placed.full:
        return IndexEntry(skill, "name-only", placed.line, "max_tokens", limit)
    if placed.shown < placed.full:
        return IndexEntry(
            skill, "shortened", placed.line, "max_tokens", limit, placed.full, placed.shown
        )
    whole = len(" ".join(skill.description.split()))
    if whole > placed.full:
        cap = CODEX_DESCRIPTION
        return IndexEntry(skill, "shortened", placed.line, "description", cap, whole, cap)
    return IndexEntry(skill, "full", placed.line)
