#!/bin/sh
# A real adapter for the runtime tests, in POSIX sh with printf and read only:
# asks two questions, writes a plan, ends as $1 says (see python_adapter.py).
mode=$1

answer_of() {  # the "answer" member of a reply line (no escapes in these tests)
    printf '%s\n' "$1" | sed -n 's/.*"answer":"\([^"]*\)".*/\1/p'
}

printf 'BERNSTEIN:QUESTION %s\n' '{"id":"q-1","options":["yes","no"],"question":"Apply migration?"}'
IFS= read -r reply || { echo "stdin closed" >&2; exit 4; }
migrate=$(answer_of "$reply")
printf 'BERNSTEIN:QUESTION %s\n' '{"question":"Which branch?"}'
IFS= read -r reply || { echo "stdin closed" >&2; exit 4; }
branch=$(answer_of "$reply")

mkdir -p .sdd/plans
printf '# Plan\n- migrate: %s\n- branch: %s\n' "$migrate" "$branch" > .sdd/plans/fix.md
printf 'BERNSTEIN:PLAN_DRAFT {"markdown":"# Plan","path":".sdd/plans/fix.md"}\n'
printf 'BERNSTEIN:PLAN_READY {"path":".sdd/plans/fix.md"}\n'
printf 'answers: %s %s\n' "$migrate" "$branch"

case $mode in
    completed) printf 'BERNSTEIN:COMPLETED\n' ;;
    failed) printf 'BERNSTEIN:FAILED {"reason":"tests failed"}\n'; exit 1 ;;
    none) ;;
    killed) kill -KILL $$ ;;
    hang) sleep 3600 </dev/null & printf '%s' $! > .sdd/sleeper.pid; wait ;;
    binary) printf '\377\376\000\001binary\200 no newline'; exit 3 ;;
    bigline) head -c 10485760 /dev/zero | tr '\0' x; printf '\nBERNSTEIN:COMPLETED\n' ;;
esac
exit 0
