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

# _bsig_emit_json NAME TEXT [DEPTH]: _bsig_v becomes TEXT in canonical form,
# or the message for NAME:= TEXT is printed (status 2).
_bsig_emit_json() {
  if _bsig_jvalue "$2" "${3-}"; then
    _bsig_v=$_bsig_j _bsig_j=''
    return 0
  fi
  if [ "$_bsig_jerr" = field ]; then
    : # _bsig_jfield has said which field
  elif [ -n "$_bsig_jerr" ]; then
    _bsig_err "$1:= $_bsig_jerr"
  else
    _bsig_err "$1:= needs one JSON value on one line"
  fi
  _bsig_jerr=''
  return 2
}

# _bsig_ftypes KIND FIELD: _bsig_y becomes the JSON types KIND's schema admits
# for FIELD (" string null "), or '' when it declares no type for it.
_bsig_ftypes() {
  case $1.$2 in
@KIND_FIELD_TYPES@
    *) _bsig_y='' ;;
  esac
}

# _bsig_jfield KIND FIELD VALUE: with --known, a field KIND's schema declares
# must hold a JSON type it admits (VALUE is canonical JSON text: its first
# character says its type; a number without . or e- is an integer).
_bsig_jfield() {
  _bsig_ftypes "$1" "$2"
  [ -n "$_bsig_y" ] || return 0
  case $3 in
    \{*) _bsig_x=object ;;
    \[*) _bsig_x=array ;;
    \"*) _bsig_x=string ;;
    true | false) _bsig_x=boolean ;;
    null) _bsig_x=null ;;
    *[.]* | *e-*) _bsig_x=number ;;
    *) _bsig_x=integer ;;
  esac
  case $_bsig_y in *" $_bsig_x "*) return 0 ;; esac
  [ "$_bsig_x" != integer ] || case $_bsig_y in *" number "*) return 0 ;; esac
  _bsig_z=''
  for _bsig_e in $_bsig_y; do _bsig_z="$_bsig_z or $_bsig_e"; done
  _bsig_err "field $2 of $1 must be JSON ${_bsig_z# or }, not $_bsig_x (--known checks the type of each field the kind's schema declares)"
  return 2
}

# shellcheck disable=SC2120 # may be called without arguments
_bsig_do_emit() {
  _bsig_fn=bernstein_emit _bsig_known='' _bsig_jkind=''
  case ${1-} in
    --help) _bsig_help_emit; return ;;
    --known) _bsig_known=1 && shift ;;
  esac
  case ${1-} in
    '' | [!ABCDEFGHIJKLMNOPQRSTUVWXYZ]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_]*)
      _bsig_err "KIND must be ALL-CAPS: [A-Z][A-Z0-9_]* (try --help)"
      return 2
      ;;
  esac
  if [ -n "$_bsig_known" ]; then
    _bsig_known=$1
    case $1 in
      @KIND_NAMES_CASE@) ;;
      *)
        _bsig_err "unknown kind $1 (--known: this library knows @KIND_NAMES_LIST@)"
        return 2
        ;;
    esac
  fi
  # zsh splits the key list below only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_k=$1 _bsig_keys=' ' _bsig_sorted='' _bsig_em=0
  shift
  case ${1-} in
    :=*)
      # The whole payload, one JSON object.
      [ "$#" -eq 1 ] || { _bsig_err ":=JSON is the whole payload: give no other argument with it"; return 2; }
      _bsig_jkind=$_bsig_known
      # The payload object is the first level of nesting.
      _bsig_emit_json '' "${1#:=}" $((@MAX_VALUE_DEPTH@ + 1)) || return
      case $_bsig_v in
        \{*) _bsig_y='' ;;
        \[*) _bsig_y='an array' ;;
        \"*) _bsig_y='a string' ;;
        true | false) _bsig_y='a boolean' ;;
        null) _bsig_y='null' ;;
        *) _bsig_y='a number' ;;
      esac
      if [ -n "$_bsig_y" ]; then
        _bsig_err ":= gives the payload, which must be a JSON object, not $_bsig_y"
        return 2
      fi
      # _bsig_line takes the members after a comma: "," alone is the empty object.
      _bsig_v=${_bsig_v#?}
      _bsig_line "$_bsig_k" ",${_bsig_v%?}"
      return
      ;;
  esac
  for _bsig_a in "$@"; do
    _bsig_key=${_bsig_a%%=*}
    [ "$_bsig_key" != "$_bsig_a" ] || { _bsig_err "expected key=value or key:=JSON, got: $_bsig_a"; return 2; }
    _bsig_v=${_bsig_a#*=}
    case $_bsig_key in
      *:)
        _bsig_key=${_bsig_key%:}
        _bsig_jkind=''
        _bsig_emit_json "$_bsig_key" "$_bsig_v" || return
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
    [ -z "$_bsig_known" ] || _bsig_jfield "$_bsig_k" "$_bsig_key" "$_bsig_v" || return
    case $_bsig_keys in *" $_bsig_key "*) _bsig_err "key $_bsig_key given twice"; return 2 ;; esac
    _bsig_keys="$_bsig_keys$_bsig_key "
    # The member waits in _bsig_mN (N its place among the arguments, an
    # integer: safe in eval); "key=N" goes into the sorted list of keys, so no
    # long value is ever cut out of a longer string.
    _bsig_em=$((_bsig_em + 1))
    eval "_bsig_m$_bsig_em=\$_bsig_v"
    _bsig_before='' _bsig_after=''
    for _bsig_e in $_bsig_sorted; do
      if [ -z "$_bsig_after" ] && _bsig_key_lt "$_bsig_key" "${_bsig_e%=*}"; then
        _bsig_after=" $_bsig_key=$_bsig_em"
      fi
      if [ -n "$_bsig_after" ]; then
        _bsig_after="$_bsig_after $_bsig_e"
      else
        _bsig_before="$_bsig_before $_bsig_e"
      fi
    done
    [ -n "$_bsig_after" ] || _bsig_after=" $_bsig_key=$_bsig_em"
    _bsig_sorted=$_bsig_before$_bsig_after
  done
  _bsig_acc_start
  for _bsig_e in $_bsig_sorted; do
    _bsig_em=${_bsig_e#*=}
    eval "_bsig_v=\$_bsig_m$_bsig_em _bsig_m$_bsig_em=''"
    _bsig_acc ",\"${_bsig_e%=*}\":$_bsig_v"
  done
  _bsig_acc_end
  _bsig_p=$_bsig_j
  _bsig_line "$_bsig_k" "$_bsig_p"
}
