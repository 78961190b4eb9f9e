"""What each host shows its model, as that host renders it: the skill listing in the
host's own style and within the budget its definition gives, the subagent types'
listing, and the instruction files' blocks. The rules (budgets, styles, windows) are
the host definitions' in `satchel.hosts`; the code that writes each host's text is
here, one module per style."""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.assembly.listings._agent_listing import agent_line, agent_listing
    from satchel.assembly.listings._instruction_text import instruction_blocks
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.assembly.listings._agent_listing": ("agent_line", "agent_listing"),
            "satchel.assembly.listings._instruction_text": ("instruction_blocks",),
        },
    )

__all__ = ["agent_line", "agent_listing", "instruction_blocks"]
