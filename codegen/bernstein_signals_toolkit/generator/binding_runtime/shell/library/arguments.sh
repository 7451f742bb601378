# -- the calling convention: one argument parser, read by every kind's function ----

# _bsig_opt ARG: _bsig_o becomes NAME when ARG has the option shape --NAME
# (NAME: a lowercase letter, then lowercase letters, digits, _ or -), else
# ''. Only such an argument is an option; any other (-3, ---, "- step", text
# with a line break) is a value.
_bsig_opt() {
  _bsig_o=''
  case $1 in
    --[@OPTION_FIRST@]*)
      case ${1#--} in *[!@OPTION_REST@]*) ;; *) _bsig_o=${1#--} ;; esac
      ;;
  esac
}

# _bsig_need COUNT OPTION: an option's value must follow it.
_bsig_need() {
  [ "$1" -ge 2 ] && return 0
  _bsig_err "$2 needs a value (try --help)"
  return 2
}

# _bsig_unknown NAME OPTIONS: the message for --NAME, which OPTIONS (a table
# as _bsig_args reads it) lacks. NAME is cut to @OPTION_SHOWN@ characters.
_bsig_unknown() {
  _bsig_x=$1 _bsig_y=''
  [ "${#_bsig_x}" -le @OPTION_SHOWN@ ] || _bsig_x=${_bsig_x%"${_bsig_x#@OPTION_SHOWN_ANY@}"}...
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  for _bsig_e in $2; do _bsig_y="$_bsig_y, --${_bsig_e%+}"; done
  if [ -n "$_bsig_y" ]; then _bsig_y="options: ${_bsig_y#, }"; else _bsig_y='it takes no option'; fi
  _bsig_err "unknown option --$_bsig_x ($_bsig_y; try --help)"
  return 2
}

# _bsig_args KIND POSITIONALS OPTIONS ARG...: read ARGs by the calling
# convention against KIND's tables (_bsig_P_KIND, _bsig_O_KIND, generated):
# POSITIONALS holds "name:METAVAR " per positional field in order, OPTIONS
# " name " per option (" name+ " when it repeats, once per item). Each field's
# value goes to _bsig_v_NAME, with _bsig_s_NAME=1 once given; each item of a
# repeated option goes to _bsig_i_KIND NAME ITEM, which checks and appends it
# (a refused item waits in _bsig_e_NAME for the field's checks).
# --help prints KIND's help and sets _bsig_hp. Status 2 with a message for a
# call the convention refuses: the first argument that breaks it, else a
# missing positional; then _bsig_held, a refusal of bernstein_ask's own
# options that waited for the question's call to have its shape. Values are
# checked after that (the order is shell_signature's, read_call's too).
_bsig_args() {
  _bsig_k=$1 _bsig_pn=$2 _bsig_po=$2 _bsig_op=$3 _bsig_hp='' _bsig_dd=''
  _bsig_hd=${_bsig_held-} _bsig_held=''
  shift 3
  # zsh splits the tables below only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  # Every field starts unset: the assignments are built from the tables once per
  # kind and kept in _bsig_R_KIND (a loop per call costs more than the parse).
  eval "_bsig_y=\${_bsig_R_$_bsig_k-}"
  if [ -z "$_bsig_y" ]; then
    for _bsig_x in $_bsig_po $_bsig_op; do
      _bsig_x=${_bsig_x%%[:+]*}
      _bsig_y="$_bsig_y _bsig_s_$_bsig_x='' _bsig_v_$_bsig_x='' _bsig_a_$_bsig_x='' _bsig_n_$_bsig_x=0 _bsig_e_$_bsig_x=''"
    done
    eval "_bsig_R_$_bsig_k=\${_bsig_y:-:}"
  fi
  eval "$_bsig_y"
  while [ "$#" -gt 0 ]; do
    _bsig_o=''
    if [ -z "$_bsig_dd" ]; then
      # The option shape, as in _bsig_opt (inline: this runs once per argument).
      case $1 in
        --)
          _bsig_dd=1
          shift
          continue
          ;;
        --help)
          "_bsig_help_$_bsig_k"
          _bsig_hp=1
          return 0
          ;;
        --[@OPTION_FIRST@]*)
          case ${1#--} in *[!@OPTION_REST@]*) ;; *) _bsig_o=${1#--} ;; esac
          ;;
      esac
    fi
    if [ -n "$_bsig_o" ]; then
      case $_bsig_op in
        *" $_bsig_o+ "*)
          [ "$#" -ge 2 ] || { _bsig_err "$1 needs a value (try --help)"; return 2; }
          eval "_bsig_s_$_bsig_o=1"
          "_bsig_i_$_bsig_k" "$_bsig_o" "$2" || return
          ;;
        *" $_bsig_o "*)
          [ "$#" -ge 2 ] || { _bsig_err "$1 needs a value (try --help)"; return 2; }
          # Assignments run left to right: _bsig_x gets whether it was given before.
          eval "_bsig_x=\$_bsig_s_$_bsig_o _bsig_s_$_bsig_o=1 _bsig_v_$_bsig_o=\$2"
          [ -z "$_bsig_x" ] || { _bsig_err "$1 given twice"; return 2; }
          ;;
        *) _bsig_unknown "$_bsig_o" "$_bsig_op"; return ;;
      esac
      shift 2
      continue
    fi
    if [ -z "$_bsig_po" ]; then
      _bsig_opt "$1"
      # Under bernstein_ask (the question's parser, _bsig_fn), its own options count too.
      if [ "$_bsig_fn" = bernstein_ask ]; then _bsig_y=" @ASK_OPTIONS@ $_bsig_op"; else _bsig_y=$_bsig_op; fi
      if [ -n "$_bsig_dd" ] && [ -n "$_bsig_o" ] && _bsig_known "$_bsig_o" "$_bsig_y"; then
        _bsig_err "$1 after --: options go before -- (try --help)"
      elif [ -z "$_bsig_pn" ]; then
        _bsig_err "takes no positional argument (try --help)"
      else
        _bsig_err "too many arguments (try --help)"
      fi
      return 2
    fi
    _bsig_x=${_bsig_po%%:*} _bsig_po=${_bsig_po#* }
    eval "_bsig_s_$_bsig_x=1 _bsig_v_$_bsig_x=\$1"
    shift
  done
  if [ -n "$_bsig_po" ]; then
    _bsig_y=''
    for _bsig_e in $_bsig_po; do _bsig_y="$_bsig_y ${_bsig_e#*:}"; done
    _bsig_err "missing argument(s):$_bsig_y (try --help)"
    return 2
  fi
  [ -z "$_bsig_hd" ] || { _bsig_err "$_bsig_hd"; return 2; }
}

# _bsig_known NAME OPTIONS: is --NAME one of OPTIONS (a table as _bsig_args reads it)?
_bsig_known() {
  case $2 in *" $1 "* | *" $1+ "*) return 0 ;; esac
  return 1
}

# _bsig_is_int VALUE: a JSON integer as format_signal writes it (no leading
# zero, no -0), with at most @MAX_INTEGER_DIGITS@ digits as readers accept.
_bsig_is_int() {
  case $1 in '' | - | *[!0123456789-]* | ?*-* | 0?* | -0*) return 1 ;; esac
  [ "${#1}" -le $((@MAX_INTEGER_DIGITS@ + 1)) ] || return 1
  [ "${#1}" -le @MAX_INTEGER_DIGITS@ ] || [ "${1#-}" != "$1" ]
}

# _bsig_int_le A B: is the integer A at most B? Both pass _bsig_is_int, so
# they are compared by sign, then length, then digits: no arithmetic overflow.
_bsig_int_le() {
  case $1/$2 in
    -*/-*) _bsig_uint_le "${2#-}" "${1#-}" ;;
    -*/*) return 0 ;;
    */-*) return 1 ;;
    *) _bsig_uint_le "$1" "$2" ;;
  esac
}

_bsig_int_ge() { _bsig_int_le "$2" "$1"; }

_bsig_uint_le() {
  [ "${#1}" -eq "${#2}" ] || { [ "${#1}" -lt "${#2}" ]; return; }
  [ "$1" = "$2" ] || _bsig_lt "$1" "$2"
}

# _bsig_int_mod VALUE DIVISOR: is the integer VALUE a multiple of DIVISOR
# (1 to 10^9)? One digit at a time, so no step exceeds 10^10: no 64-bit
# overflow at any length. Each digit is read with a case on the first
# character: cutting a prefix by a long literal takes quadratic time in some
# shells, and a value holds at most @MAX_INTEGER_DIGITS@ digits (_bsig_is_int).
_bsig_int_mod() {
  _bsig_x=${1#-} _bsig_r=0
  while [ -n "$_bsig_x" ]; do
    case $_bsig_x in
      0*) _bsig_c=0 ;;
      1*) _bsig_c=1 ;;
      2*) _bsig_c=2 ;;
      3*) _bsig_c=3 ;;
      4*) _bsig_c=4 ;;
      5*) _bsig_c=5 ;;
      6*) _bsig_c=6 ;;
      7*) _bsig_c=7 ;;
      8*) _bsig_c=8 ;;
      *) _bsig_c=9 ;;
    esac
    _bsig_x=${_bsig_x#?}
    _bsig_r=$(((_bsig_r * 10 + _bsig_c) % $2))
  done
  [ "$_bsig_r" -eq 0 ]
}

# _bsig_only VALUE CHARS: is every character of VALUE one of the ASCII CHARS?
# Quoted inside the brackets, each of CHARS is itself (], -, ! and ^ too).
_bsig_only() {
  case $1 in *[!"$2"]*) return 1 ;; esac
  ! _bsig_has_nul "$1"
}

# _bsig_in VALUE CHOICE...: is VALUE, byte for byte, one of the CHOICEs?
_bsig_in() {
  _bsig_x=$1
  shift
  for _bsig_y in "$@"; do
    case $_bsig_x in "$_bsig_y") return 0 ;; esac
  done
  return 1
}

# _bsig_cplen TEXT: _bsig_len becomes TEXT's length in code points, as JSON
# Schema counts it (TEXT is UTF-8). Where the shell counts characters in this
# locale (ksh93, busybox in a UTF-8 locale) that is ${#TEXT}; where it counts
# bytes (the helpers' own C locale, dash, mksh) the UTF-8 continuation bytes
# are taken off: field splitting on them (zsh: splitting into bytes and
# keeping those that are), linear in the length.
_bsig_cplen() {
  _bsig_len=${#1}
  [ "${#_bsig_u85}" -eq 2 ] || return 0
  case $1 in *["$_bsig_cont"]*) ;; *) return 0 ;; esac
  if [ "$_bsig_sh" = zsh ]; then
    eval '_bsig_za=(${(s::)1}) _bsig_zb="(${(j:|:)${(s::)_bsig_cont}})"'
    eval '_bsig_za=(${(M)_bsig_za:#${~_bsig_zb}})'
    eval '_bsig_len=$((_bsig_len - ${#_bsig_za})) _bsig_za=()'
    return 0
  fi
  IFS=$_bsig_cont
  # shellcheck disable=SC2086 # split on purpose; pathname expansion is off
  $_bsig_bi set -- ${1}.
  IFS=$_bsig_ifs_own
  _bsig_len=$((_bsig_len - $# + 1))
}

# _bsig_len_ge TEXT N, _bsig_len_le TEXT N: TEXT has at least (most) N code points.
# A code point is at most 4 bytes: a length far enough past N needs no count.
_bsig_len_ge() {
  [ "${#1}" -ge "$2" ] || return 1
  [ "${#1}" -lt $(($2 * 4)) ] || return 0
  _bsig_cplen "$1"
  [ "$_bsig_len" -ge "$2" ]
}

_bsig_len_le() {
  [ "${#1}" -gt "$2" ] || return 0
  _bsig_cplen "$1"
  [ "$_bsig_len" -le "$2" ]
}

_bsig_is_bool() {
  case $1 in true | false) return 0 ;; esac
  return 1
}

# _bsig_is_sdd_path VALUE: a relative path under .sdd/ with no '.', '..' or
# empty segment, no backslash and no C0 control character.
_bsig_is_sdd_path() {
  case $1 in .sdd/*) ;; *) return 1 ;; esac
  case $1 in *\\* | *["$_bsig_ctl"]*) return 1 ;; esac
  ! _bsig_has_nul "$1" || return 1
  case /${1#.sdd/}/ in *//* | */./* | */../*) return 1 ;; esac
  return 0
}

