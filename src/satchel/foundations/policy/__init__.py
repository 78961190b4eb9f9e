"""Organisation policy: one file that governs what any agent on the machine may load
and run (docs/policy.md).

`read_policy` reads the system's ``policy.toml``, then the user's and the project's,
each only tightening the one above, into one frozen `Policy`; its ``check_*`` methods
give the refusal (a ``policy.denied`` diagnostic naming the key and the file) and its
``allows_*`` the same as a boolean. `to_claude_code` and `to_codex` write the same
policy in each host's managed format, with what the host cannot express.
"""

import typing as _typing

if _typing.TYPE_CHECKING:
    from satchel.foundations.policy._export import Export, to_claude_code, to_codex
    from satchel.foundations.policy._model import (
        COMPONENTS,
        HOOK_TYPES,
        AllowedSigners,
        Digests,
        Flag,
        Lists,
        Pattern,
        Policy,
        SignedRule,
        Types,
        source_key,
    )
    from satchel.foundations.policy._read import (
        ENV_DIR,
        POLICY_FILE,
        PolicyFile,
        policy_files,
        read_policy,
        read_policy_file,
        system_dir,
    )
else:
    from satchel.core import _lazy

    __getattr__, __dir__ = _lazy.attach(
        __name__,
        {
            "satchel.foundations.policy._export": ("Export", "to_claude_code", "to_codex"),
            "satchel.foundations.policy._model": (
                "COMPONENTS",
                "HOOK_TYPES",
                "AllowedSigners",
                "Digests",
                "Flag",
                "Lists",
                "Pattern",
                "Policy",
                "SignedRule",
                "Types",
                "source_key",
            ),
            "satchel.foundations.policy._read": (
                "ENV_DIR",
                "POLICY_FILE",
                "PolicyFile",
                "policy_files",
                "read_policy",
                "read_policy_file",
                "system_dir",
            ),
        },
    )

__all__ = [
    "AllowedSigners",
    "COMPONENTS",
    "Digests",
    "ENV_DIR",
    "Export",
    "Flag",
    "HOOK_TYPES",
    "Lists",
    "POLICY_FILE",
    "Pattern",
    "Policy",
    "PolicyFile",
    "SignedRule",
    "Types",
    "policy_files",
    "read_policy",
    "read_policy_file",
    "source_key",
    "system_dir",
    "to_claude_code",
    "to_codex",
]
