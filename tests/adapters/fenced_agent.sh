#!/bin/sh
# The "agent" a fenced adapter runs: it prints what it reads (the files named
# after REPORT, a hostile one among them) and writes what it inherited to
# REPORT: its environment and whether fd 3 (where the key came) is open.
# Usage: fenced_agent.sh REPORT FILE...
report=$1
shift
{
    env
    if (exec 4<&3) 2>/dev/null; then echo "fd 3: open"; else echo "fd 3: closed"; fi
} > "$report"
cat -- "$@"
