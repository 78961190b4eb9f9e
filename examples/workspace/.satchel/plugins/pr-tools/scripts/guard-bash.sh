#!/bin/sh
# PreToolUse hook (Bash): deny a recursive forced delete of an absolute path.
# The tool call arrives as JSON on stdin; the answer is Claude Code's JSON on stdout.
payload=$(cat)
case "$payload" in
*'rm -rf /'* | *'rm -fr /'*)
  cat <<'JSON'
{"hookSpecificOutput": {"hookEventName": "PreToolUse",
 "permissionDecision": "deny",
 "permissionDecisionReason": "pr-tools: rm -rf of an absolute path is not allowed here"}}
JSON
  ;;
esac
