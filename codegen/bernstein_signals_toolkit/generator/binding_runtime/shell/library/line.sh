# -- building a line ---------------------------------------------------------------

# _bsig_line KIND MEMBERS: print PREFIX KIND, with {MEMBERS} when there are any.
# MEMBERS is `,"key":value...` in key order ("," alone: the empty object {}).
# Under the fence (the library took a key) the line is marked instead. A
# terminal kind marks the run ended.
_bsig_line() {
  if [ -n "$_bsig_Fkey" ]; then
    _bsig_fence_line "$1" "$2" || return
  elif [ -n "$2" ]; then
    _bsig_out "@PREFIX@$1 {${2#,}}" || return 1
  else
    _bsig_out "@PREFIX@$1" || return 1
  fi
  case $1 in @TERMINALS@) _bsig_term=1 ;; esac
  return 0
}
