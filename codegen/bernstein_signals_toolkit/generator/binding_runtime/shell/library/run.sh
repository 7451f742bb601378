# -- bernstein_run ---------------------------------------------------------------

# shellcheck disable=SC2120 # may be called without arguments
_bsig_do_run() {
  _bsig_fn=bernstein_run
  case ${1-} in
    --help) _bsig_help_run; return ;;
    --) shift ;;
  esac
  [ "$#" -gt 0 ] || { _bsig_err "missing CMD (try --help)"; return 2; }
  # CMD runs with the caller's options, IFS and trace, as if called directly.
  _bsig_depth=0
  _bsig_restore
  if "$@"; then _bsig_rc=0; else _bsig_rc=$?; fi
  { _bsig_enter; } 2>/dev/null
  if [ "$_bsig_rc" -eq 0 ]; then
    bernstein_completed -- || return
    return 0
  fi
  bernstein_failed --@FAILED_REASON@ "exit $_bsig_rc" || :
  return "$_bsig_rc"
}

