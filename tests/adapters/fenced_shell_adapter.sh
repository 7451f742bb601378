#!/bin/sh
# A fenced adapter in shell (issue 17), the twin of fenced_python_adapter.py:
# sourcing the library takes the key, so every helper's line is marked and the
# agent inherits no key. Asks q-1, emits BLOCKED (a copy kept in .sdd/own.log:
# the helper runs in this shell with its stdout on the file, so the sequence
# number counts here), runs the agent on the hostile file and that copy (a
# replay), ends COMPLETED on "yes", else FAILED.
# Usage: fenced_shell_adapter.sh LIBRARY HOSTILE_FILE
. "$1"
hostile=$2
agent=${0%/*}/fenced_agent.sh
bernstein_ask --var migrate --id q-1 'Apply the migration?' --options yes --options no || exit 4
mkdir -p .sdd
bernstein_blocked 'waiting for the agent' > .sdd/own.log || exit 5
cat .sdd/own.log
sh "$agent" .sdd/agent.txt "$hostile" .sdd/own.log < /dev/null || exit 6
if [ "$migrate" = yes ]; then
    bernstein_completed
    exit 0
fi
bernstein_failed --reason "answer $migrate"
exit 1
