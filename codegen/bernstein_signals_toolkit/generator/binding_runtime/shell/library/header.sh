# shellcheck shell=sh
#
# bernstein-signals.sh: emit stream signals from shell wrapper scripts, for the
# @VOCABULARY@ vocabulary, without writing JSON by hand.
#
#   . "$(bernstein-signals shell --path)"   # or vendor this one self-contained file
#
# Runs in bash, dash, busybox sh, zsh, mksh and ksh93, sourced into scripts
# that use `set -euo pipefail` (bash) or `set -eu` (sh). Every function takes
# --help. Public functions:
#
#   bernstein_<kind>   one per kind (@KINDS@): required scalar fields are
#                      positional in the schema's `required` order, the others
#                      are `--<property> VALUE` (an array repeats its option
#                      once per item). An argument is an option only if it is
#                      `--NAME` (NAME lowercase letters, digits, _ and -): an
#                      unknown one is an error, anything else (-3, ---,
#                      "- step") is a value. `--` ends the options.
#   bernstein_emit     [--known] KIND [key=value | key:=JSON]... or KIND :=JSON:
#                      any kind (--known: only this library's), any extras;
#                      key:=JSON is written in canonical form (keys sorted,
#                      numbers as format_signal writes them; a double with more
#                      than @FLOAT_DIGITS@ significant digits or below 1e@FLOAT_EXPONENT_MIN@ is refused);
#                      :=JSON alone is the whole payload, one object.
#   bernstein_run      CMD [ARG]...: run CMD, then COMPLETED or FAILED "exit N".
#   bernstein_ask      [--var NAME] QUESTION [--@QUESTION_OPTIONS@ O]... [--@QUESTION_ID@ ID]
#                      [--timeout SECONDS]: emit a QUESTION, read the reply
#                      from stdin into NAME (default BERNSTEIN_ANSWER).
#   bernstein_guard    make sure the script ends with a terminal signal.
#
# Status: 0 done; 1 nothing written (stdout failed) or no reply (end of
# input, timeout); 2 usage or schema error: a message on stderr and nothing on
# stdout. Lines are byte-identical to the Python binding's
# format_signal (spec/canonical-form.md): keys sorted by UTF-16 code units, no
# spaces, non-ASCII kept as UTF-8, C0 controls, U+0085, U+2028 and U+2029
# escaped.
#
# What this file changes in the calling shell: the variable NAME of
# bernstein_ask, bernstein_guard's EXIT, INT and TERM traps, and its own
# globals and functions, all named _bsig_*; and sourcing it takes the fence's
# key (spec/fenced-signals.md): it unsets @FENCE_KEY_VARIABLE@ and
# @FENCE_KEY_FD_VARIABLE@ and closes the descriptor the latter names, so nothing
# the script starts inherits the key. No option, IFS, locale or other
# variable changes (bash and zsh switch to the C locale inside the helpers
# with `local`). Data is never evaluated as code. Arguments are bytes: they are
# not checked to be UTF-8 and are copied as they are, so invalid UTF-8 in an
# argument gives a line that readers reject as not UTF-8.

