# -- bernstein_emit --------------------------------------------------------------

# _bsig_key_lt A B: is key A before key B in code point order? Keys are
# lower_snake_case, so this compares with a table instead of the locale.
_bsig_key_lt() {
  _bsig_x=$1 _bsig_y=$2
  while [ -n "$_bsig_y" ]; do
    [ -n "$_bsig_x" ] || return 0
    _bsig_cx=${_bsig_x%"${_bsig_x#?}"} _bsig_cy=${_bsig_y%"${_bsig_y#?}"}
    if [ "$_bsig_cx" != "$_bsig_cy" ]; then
      _bsig_cx=${_bsig_order%%"$_bsig_cx"*} _bsig_cy=${_bsig_order%%"$_bsig_cy"*}
      [ "${#_bsig_cx}" -lt "${#_bsig_cy}" ]
      return
    fi
    _bsig_x=${_bsig_x#?} _bsig_y=${_bsig_y#?}
  done
  return 1
}
_bsig_order=@KEY_REST@

# shellcheck disable=SC2120 # may be called without arguments
_bsig_do_emit() {
  _bsig_fn=bernstein_emit
  case ${1-} in
    --help) _bsig_help_emit; return ;;
    '' | [!ABCDEFGHIJKLMNOPQRSTUVWXYZ]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_]*)
      _bsig_err "KIND must be ALL-CAPS: [A-Z][A-Z0-9_]* (try --help)"
      return 2
      ;;
  esac
  # zsh splits the key list below only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_k=$1 _bsig_keys=' ' _bsig_sorted='' _bsig_i=0
  shift
  for _bsig_a in "$@"; do
    _bsig_key=${_bsig_a%%=*}
    [ "$_bsig_key" != "$_bsig_a" ] || { _bsig_err "expected key=value or key:=JSON, got: $_bsig_a"; return 2; }
    _bsig_v=${_bsig_a#*=}
    case $_bsig_key in
      *:)
        _bsig_key=${_bsig_key%:}
        _bsig_jvalue "$_bsig_v" || { _bsig_err "$_bsig_key:= needs one JSON value on one line"; return 2; }
        ;;
      *)
        _bsig_esc "$_bsig_v"
        _bsig_v=\"$_bsig_j\"
        ;;
    esac
    case $_bsig_key in
      '' | [!@KEY_FIRST@]* | *[!@KEY_REST@]*)
        _bsig_err "key '$_bsig_key' is not lower_snake_case"
        return 2
        ;;
    esac
    case $_bsig_keys in *" $_bsig_key "*) _bsig_err "key $_bsig_key given twice"; return 2 ;; esac
    _bsig_keys="$_bsig_keys$_bsig_key "
    # The member waits in _bsig_mN (N its place among the arguments, an
    # integer: safe in eval); "key=N" goes into the sorted list of keys, so no
    # long value is ever cut out of a longer string.
    _bsig_i=$((_bsig_i + 1))
    eval "_bsig_m$_bsig_i=\$_bsig_v"
    _bsig_before='' _bsig_after=''
    for _bsig_e in $_bsig_sorted; do
      if [ -z "$_bsig_after" ] && _bsig_key_lt "$_bsig_key" "${_bsig_e%=*}"; then
        _bsig_after=" $_bsig_key=$_bsig_i"
      fi
      if [ -n "$_bsig_after" ]; then
        _bsig_after="$_bsig_after $_bsig_e"
      else
        _bsig_before="$_bsig_before $_bsig_e"
      fi
    done
    [ -n "$_bsig_after" ] || _bsig_after=" $_bsig_key=$_bsig_i"
    _bsig_sorted=$_bsig_before$_bsig_after
  done
  _bsig_acc_start
  for _bsig_e in $_bsig_sorted; do
    _bsig_i=${_bsig_e#*=}
    eval "_bsig_v=\$_bsig_m$_bsig_i _bsig_m$_bsig_i=''"
    _bsig_acc ",\"${_bsig_e%=*}\":$_bsig_v"
  done
  _bsig_acc_end
  _bsig_p=$_bsig_j
  _bsig_line "$_bsig_k" "$_bsig_p"
}

