#!/bin/sh
# SessionStart hook: print today's date so notes are dated correctly.
date +%Y-%m-%d
