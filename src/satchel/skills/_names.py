"""What a host does with a skill's ``name:`` field: `NameRule`, data in each host's
profile (`satchel.hosts`), read by `satchel.skills._fields` when it judges a name."""

from __future__ import annotations

from satchel.core._model import model

__all__ = ["HostNaming", "NameRule", "hosts_sentence"]


@model
class NameRule:
    """How a host names a skill from its ``name:`` field.

    * `spec`: the Agent Skills rule holds: a name that breaks it (lowercase a-z, digits
      and hyphens) is replaced by the directory's name, and the skill is not loaded when
      that breaks it too [True: satchel's rule]. False: the host keeps the name as it
      is written, after `collapse_spaces` and `replace` (Codex, Gemini CLI), and a name
      that breaks the rule is only a warning.
    * `collapse_spaces`: runs of white space become one space and the ends are trimmed
      (Codex reads the name as one line) [False].
    * `replace`: characters the host replaces by `replacement` (Gemini CLI replaces
      each of ``:\\/<>*?"|`` by ``-``) [none].
    * `note_hosts`: a name that breaks the spec's rule also gets a ``skill.name.hosts``
      note saying what each host whose rule differs does with it (satchel's own rule)
      [False].
    * `required`: a skill with no ``name:`` is not loaded; the host names none by its
      folder (Gemini CLI's extensions) [False: the folder's name stands in].
    """

    spec: bool = True
    collapse_spaces: bool = False
    replace: str = ""
    replacement: str = "-"
    note_hosts: bool = False
    required: bool = False

    def apply(self, name: str) -> str:
        """`name` as the host keeps it (as it is, under the spec's rule)."""
        if self.collapse_spaces:
            name = " ".join(name.split())
        if self.replace:
            name = name.translate({ord(c): self.replacement for c in self.replace})
        return name

    def key(self) -> str:
        """A short text that differs between rules that name skills differently (the
        discovery cache keeps readings under it)."""
        given = "given" if self.required else ""
        if self.spec:
            return f"spec{given}"
        return f"kept{given}{int(self.collapse_spaces)}{self.replace}{self.replacement}"


@model
class HostNaming:
    """One host's `rule` for names and the longest name it keeps (`max_length`; None:
    no limit), titled for a message (``Codex``)."""

    title: str
    rule: NameRule
    max_length: int | None = None

    def outcome(self, name: str) -> str:
        """What the host does with a skill named `name`, as a message says it."""
        kept = self.rule.apply(name)
        if self.max_length is not None and len(kept) > self.max_length:
            return f"{self.title} drops the skill (over {self.max_length} characters)"
        return f"{self.title} names it {kept!r}"


def hosts_sentence(name: str, hosts: tuple[HostNaming, ...]) -> str:
    """``Codex names it 'a/b'; Gemini CLI names it 'a-b'``."""
    return "; ".join(host.outcome(name) for host in hosts)
