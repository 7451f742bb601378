# -- bernstein_guard --------------------------------------------------------------

_bsig_on_exit() {
  _bsig_xst=$1
  { _bsig_enter; } 2>/dev/null
  if [ -z "$_bsig_term" ]; then
    if [ "$_bsig_xst" -eq 0 ]; then
      bernstein_completed -- || :
    else
      bernstein_failed --@FAILED_REASON@ "exit $_bsig_xst" || :
    fi
  fi
  # The caller's own EXIT trap (bash, ksh93), with $? as it would have seen
  # it, and the caller's options.
  _bsig_depth=0
  _bsig_restore
  if [ -z "$_bsig_old_exit" ]; then
    :
  elif [ "$_bsig_xst" -eq 0 ]; then
    eval "$_bsig_old_exit"
  else
    _bsig_status "$_bsig_xst" || eval "$_bsig_old_exit"
  fi
  # mksh exits with the trap's status after `exit` in a signal trap: keep N.
  return "$_bsig_xst"
}

_bsig_zshexit() {
  _bsig_rc=$?
  [ "${ZSH_SUBSHELL:-0}" -eq 0 ] || return 0
  _bsig_on_exit "$_bsig_rc"
}

_bsig_status() {
  return "$1"
}

_bsig_on_signal() {
  { _bsig_enter; } 2>/dev/null
  if [ -z "$_bsig_term" ]; then
    bernstein_failed --@FAILED_REASON@ "signal $1" || :
  fi
  exit "$2"
}

# shellcheck disable=SC2120 # may be called without arguments
_bsig_do_guard() {
  _bsig_fn=bernstein_guard
  case ${1-} in --help) _bsig_help_guard; return ;; esac
  [ "$#" -eq 0 ] || { _bsig_err "takes no arguments (try --help)"; return 2; }
  [ -z "$_bsig_guarded" ] || return 0
  case $_bsig_sh in
    bash)
      # shellcheck disable=SC3045 # bash only
      _bsig_t=$(trap -p EXIT)
      if [ -n "$_bsig_t" ]; then
        eval "$_bsig_bi set -- $_bsig_t"
        _bsig_old_exit=$3
      fi
      ;;
    ksh)
      # shellcheck disable=SC3045 # ksh93 prints the action itself
      _bsig_old_exit=$(trap -p EXIT)
      ;;
    zsh)
      # A zsh EXIT trap set in a function runs when the function returns;
      # POSIX_TRAPS makes this one the shell's own (localoptions restores the
      # option). But zsh puts back an EXIT trap that existed before the call,
      # so zshexit covers that case too, except when errexit ends the script
      # (zshexit does not run then). A constant string: not data.
      setopt localoptions posixtraps
      eval 'zshexit_functions+=(_bsig_zshexit)'
      ;;
  esac
  trap '_bsig_on_exit "$?"' EXIT
  trap '_bsig_on_signal INT 130' INT
  trap '_bsig_on_signal TERM 143' TERM
  _bsig_guarded=1
}

