#!/bin/sh
# A complete adapter wrapper in POSIX sh, using the generated shell helpers:
# guard, run, ask and the plan handoff. Runs under bash, dash, busybox sh, zsh,
# mksh and ksh93 alike.
#
#   examples/wrapper.sh [CLI [ARG]...]     (default CLI: a stand-in "tool")
#
# stdout carries the signals (and the CLI's own output); the orchestrator
# writes reply lines such as {"in_reply_to":"q-plan","answer":"yes"} to stdin.
set -eu

# The library: from the installed toolkit, or next to this checkout.
BSIG_LIB=${BSIG_LIB:-$(bernstein-signals shell --path 2>/dev/null || echo "${0%/*}/../generated/shell/bernstein-signals.sh")}
# shellcheck source=../generated/shell/bernstein-signals.sh
. "$BSIG_LIB"

# From here on the script ends with COMPLETED or FAILED, whatever happens.
bernstein_guard

# A stand-in for the real CLI: prints something and succeeds.
tool() {
  echo "tool: analysing $*"
}

# 1. Plan handoff: a draft inline, then the written file under .sdd/.
plan='# Plan
- step 1: analyse "the repo"
- step 2: apply the fix'
bernstein_plan_draft "$plan" --path .sdd/plans/example.md
mkdir -p .sdd/plans
printf '%s\n' "$plan" > .sdd/plans/example.md
bernstein_plan_ready .sdd/plans/example.md

# 2. Ask before acting; the answer lands in $BERNSTEIN_ANSWER, never on stdout.
if ! bernstein_ask 'Apply the plan?' --options yes --options no --id q-plan; then
  bernstein_blocked 'no answer from the operator' --hint 'reply to question q-plan'
  exit 1
fi
if [ "$BERNSTEIN_ANSWER" != yes ]; then
  bernstein_failed --reason "operator answered: $BERNSTEIN_ANSWER"
  exit 1
fi

# 3. Run the CLI: COMPLETED, or FAILED "exit N" and the same status.
if [ $# -eq 0 ]; then
  set -- tool .
fi
bernstein_run "$@"
