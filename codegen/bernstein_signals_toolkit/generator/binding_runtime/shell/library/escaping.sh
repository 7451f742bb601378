# -- JSON string escaping --------------------------------------------------------

# _bsig_acc TEXT: append TEXT to the result being built. Appending to one long
# string copies it each time (quadratic); four buffers, each flushed into the
# next after 16 appends, copy every byte a bounded number of times.
_bsig_acc() {
  _bsig_b1=$_bsig_b1$1
  _bsig_n1=$((_bsig_n1 + 1))
  [ "$_bsig_n1" -lt 16 ] || _bsig_flush
}

# _bsig_flush: the first buffer into the second, and so on up.
_bsig_flush() {
  _bsig_b2=$_bsig_b2$_bsig_b1 _bsig_b1='' _bsig_n1=0 _bsig_n2=$((_bsig_n2 + 1))
  [ "$_bsig_n2" -ge 16 ] || return 0
  _bsig_b3=$_bsig_b3$_bsig_b2 _bsig_b2='' _bsig_n2=0 _bsig_n3=$((_bsig_n3 + 1))
  [ "$_bsig_n3" -ge 16 ] || return 0
  _bsig_b4=$_bsig_b4$_bsig_b3 _bsig_b3='' _bsig_n3=0
}

_bsig_acc_start() {
  _bsig_b1='' _bsig_b2='' _bsig_b3='' _bsig_b4='' _bsig_n1=0 _bsig_n2=0 _bsig_n3=0
}

# _bsig_acc_end: the accumulated text, into _bsig_j.
_bsig_acc_end() {
  _bsig_j=$_bsig_b4$_bsig_b3$_bsig_b2$_bsig_b1
  _bsig_b1='' _bsig_b2='' _bsig_b3='' _bsig_b4=''
}

# _bsig_repl_split NEEDLE REPLACEMENT: replace every NEEDLE in _bsig_j, literally,
# in time linear in its length (one split, then one pass over the pieces).
_bsig_repl_split() {
  case $1 in
    "$_bsig_u85" | "$_bsig_u2028" | "$_bsig_u2029") _bsig_split "${1%"${1#?}"}" "${1#?}" "$2" ;;
    *)
      if _bsig_white "$1"; then
        _bsig_repl_ws "$1" "$2"
      else
        _bsig_split "$1" '' "$2"
      fi
      ;;
  esac
}

# _bsig_repl NEEDLE REPLACEMENT: the same, with the quickest linear way each shell has.
case $_bsig_sh in
  ksh)
    # shellcheck disable=SC3060 # ksh93's ${var//x/y} is linear
    _bsig_repl() { _bsig_j=${_bsig_j//"$1"/"$2"}; }
    ;;
  zsh)
    # zsh's split and join flags, in eval because other shells cannot parse them.
    _bsig_repl() {
      eval '_bsig_j=${(pj:$2:)"${(@ps:$1:)_bsig_j}"}'
    }
    ;;
  bash)
    # bash's ${var//x/y} is ten times quicker than the split on a short text, but
    # its time grows with the square of a long one: the split takes over past 4 KiB.
    _bsig_repl() {
      if [ "${#_bsig_j}" -le 4096 ]; then
        # shellcheck disable=SC3060 # bash only
        _bsig_j=${_bsig_j//"$1"/"$2"}
      else
        _bsig_repl_split "$1" "$2"
      fi
    }
    ;;
  *)
    _bsig_repl() { _bsig_repl_split "$1" "$2"; }
    ;;
esac

# _bsig_white BYTE: is BYTE IFS white space here (runs of it would merge)?
# Newline and tab everywhere; bash adds CR, VT and FF.
_bsig_white() {
  IFS=$1
  # shellcheck disable=SC2086 # split on purpose
  $_bsig_bi set -- $1$1
  IFS=$_bsig_ifs_own
  [ "$#" -eq 0 ]
}

# _bsig_split BYTE REST REPLACEMENT: field splitting on the byte BYTE (not IFS
# white space, so no field is lost) finds every BYTE REST in _bsig_j.
_bsig_split() {
  _bsig_sb=$1 _bsig_sr=$2 _bsig_sx=$3
  IFS=$1
  # shellcheck disable=SC2086 # split on purpose; noglob is on; x keeps a last empty field
  $_bsig_bi set -- ${_bsig_j}x
  IFS=$_bsig_ifs_own
  if [ "$_bsig_sh" = bash ]; then
    # Every piece but the first began with BYTE: put it back, then replace
    # BYTE REST at the start of a piece, then join; all inside bash.
    _bsig_j=$1
    shift
    # shellcheck disable=SC3060 # bash only
    $_bsig_bi set -- "${@/#/"$_bsig_sb"}"
    # shellcheck disable=SC3060 # bash only
    $_bsig_bi set -- "${@/#"$_bsig_sb$_bsig_sr"/"$_bsig_sx"}"
    IFS=''
    _bsig_j=$_bsig_j$*
    IFS=$_bsig_ifs_own
    _bsig_j=${_bsig_j%x}
    return 0
  fi
  _bsig_acc_start
  _bsig_b1=$1
  shift
  if [ -z "$_bsig_sr" ]; then
    # One byte: every piece after the first followed a NEEDLE.
    for _bsig_x in "$@"; do
      _bsig_b1=$_bsig_b1$_bsig_sx$_bsig_x _bsig_n1=$((_bsig_n1 + 1))
      [ "$_bsig_n1" -lt 16 ] || _bsig_flush
    done
  else
    for _bsig_x in "$@"; do
      case $_bsig_x in
        "$_bsig_sr"*) _bsig_b1=$_bsig_b1$_bsig_sx${_bsig_x#"$_bsig_sr"} ;;
        *) _bsig_b1=$_bsig_b1$_bsig_sb$_bsig_x ;;
      esac
      _bsig_n1=$((_bsig_n1 + 1))
      [ "$_bsig_n1" -lt 16 ] || _bsig_flush
    done
  fi
  _bsig_acc_end
  _bsig_j=${_bsig_j%x}
}

# _bsig_repl_ws NEEDLE REPLACEMENT: for IFS white space (runs would merge),
# `read` splits, from a here-document. dash's read has no -d: there, a tab is
# split on when no two are adjacent, else _bsig_repl_runs finds the runs.
_bsig_repl_ws() {
  if [ "$_bsig_sh" = bash ]; then
    # mapfile splits in one builtin call; the pieces get REPLACEMENT in front
    # and are joined, in bash itself (eval: other shells cannot parse arrays).
    if [ "$1" = "$_bsig_nl" ]; then
      # shellcheck disable=SC3044 # bash only
      builtin mapfile -t _bsig_arr <<_BSIG_EOF
$_bsig_j
_BSIG_EOF
    else
      # shellcheck disable=SC3044 # bash only
      builtin mapfile -t -d "$1" _bsig_arr <<_BSIG_EOF
$_bsig_j$1
_BSIG_EOF
      # The here-document's own final newline, after the last NEEDLE.
      eval 'unset "_bsig_arr[${#_bsig_arr[@]}-1]"'
    fi
    IFS=''
    eval '_bsig_j="${_bsig_arr[*]/#/"$2"}"'
    IFS=$_bsig_ifs_own
    unset _bsig_arr
    _bsig_j=${_bsig_j#"$2"}
    return 0
  fi
  _bsig_acc_start
  _bsig_pre=''
  if [ "$1" = "$_bsig_nl" ]; then
    while IFS= $_bsig_bi read -r _bsig_x; do
      _bsig_b1=$_bsig_b1$_bsig_pre$_bsig_x _bsig_pre=$2 _bsig_n1=$((_bsig_n1 + 1))
      [ "$_bsig_n1" -lt 16 ] || _bsig_flush
    done <<_BSIG_EOF
$_bsig_j
_BSIG_EOF
    _bsig_acc_end
    return 0
  fi
  case $_bsig_read_d in
    '')
      case x${_bsig_j}x in
        *"$1$1"*) _bsig_repl_runs "$2" ;;
        *)
          _bsig_j=x$_bsig_j
          _bsig_split "$1" '' "$2"
          _bsig_j=${_bsig_j#x}
          ;;
      esac
      ;;
    *)
      # shellcheck disable=SC3045 # not dash: see above
      while IFS= $_bsig_bi read -r -d "$1" _bsig_x; do
        _bsig_b1=$_bsig_b1$_bsig_pre$_bsig_x _bsig_pre=$2 _bsig_n1=$((_bsig_n1 + 1))
        [ "$_bsig_n1" -lt 16 ] || _bsig_flush
      done <<_BSIG_EOF
$_bsig_j$1
_BSIG_EOF
      _bsig_acc_end
      ;;
  esac
}

# _bsig_repl_runs REPLACEMENT: replace every tab in _bsig_j where runs of
# tabs merge in field splitting and read has no -d (dash). Two splits: on
# every other byte (the non-empty fields are the runs, in order) and on tab
# (the text between runs); a here-document hands the runs to the loop over
# the text, one per line. Sentinels keep both ends out of any run.
_bsig_repl_runs() {
  _bsig_x=x${_bsig_j}x _bsig_rr=$1
  IFS=$_bsig_notab
  # Plain set: this IFS would split the word "command" (dash allows no
  # function named set anyway).
  # shellcheck disable=SC2086 # split on purpose; noglob is on
  set -- $_bsig_x
  IFS=$_bsig_ifs_own
  _bsig_acc_start
  for _bsig_e in "$@"; do
    [ -n "$_bsig_e" ] || continue
    _bsig_times "${#_bsig_e}" "$_bsig_rr"
    _bsig_acc "$_bsig_r$_bsig_nl"
  done
  _bsig_acc_end
  _bsig_runs=$_bsig_j
  IFS=$_bsig_tab
  # shellcheck disable=SC2086 # split on purpose; noglob is on
  $_bsig_bi set -- $_bsig_x
  IFS=$_bsig_ifs_own
  _bsig_acc_start
  {
    for _bsig_e in "$@"; do
      _bsig_acc "$_bsig_e"
      if IFS= $_bsig_bi read -r _bsig_x <&3; then _bsig_acc "$_bsig_x"; fi
    done
  } 3<<_BSIG_EOF
$_bsig_runs
_BSIG_EOF
  _bsig_acc_end
  _bsig_runs=''
  _bsig_j=${_bsig_j#x}
  _bsig_j=${_bsig_j%x}
}

# _bsig_times COUNT TEXT: TEXT repeated COUNT times, into _bsig_r, by doubling.
_bsig_times() {
  _bsig_r='' _bsig_tn=$1 _bsig_tp=$2
  while [ "$_bsig_tn" -gt 0 ]; do
    [ "$((_bsig_tn % 2))" -eq 0 ] || _bsig_r=$_bsig_r$_bsig_tp
    _bsig_tp=$_bsig_tp$_bsig_tp _bsig_tn=$((_bsig_tn / 2))
  done
  _bsig_tp=''
}

# _bsig_esc TEXT: _bsig_j becomes TEXT as the inside of a JSON string.
_bsig_esc() {
  _bsig_j=$1
  if _bsig_has_nul "$1"; then
    _bsig_esc_text
    _bsig_repl "$_bsig_nul" '\u0000'
    return 0
  fi
  case $_bsig_j in
    *[\"\\[:cntrl:]]* | *"$_bsig_u85"* | *"$_bsig_u2028"* | *"$_bsig_u2029"*) ;;
    *) return 0 ;;
  esac
  _bsig_esc_text
}

# _bsig_has_nul TEXT: does TEXT hold a NUL byte (only a zsh variable can)?
_bsig_has_nul() {
  [ -n "$_bsig_nul" ] || return 1
  case $1 in *"$_bsig_nul"*) return 0 ;; esac
  return 1
}

# _bsig_esc_text: escape _bsig_j in place, one kind of character at a time.
_bsig_esc_text() {
  case $_bsig_j in *\\*) _bsig_repl \\ \\\\ ;; esac
  case $_bsig_j in *\"*) _bsig_repl '"' '\"' ;; esac
  case $_bsig_j in *"$_bsig_nl"*) _bsig_repl "$_bsig_nl" '\n' ;; esac
  case $_bsig_j in *"$_bsig_tab"*) _bsig_repl "$_bsig_tab" '\t' ;; esac
  case $_bsig_j in *"$_bsig_cr"*) _bsig_repl "$_bsig_cr" '\r' ;; esac
  case $_bsig_j in *["$_bsig_ctl"]*) _bsig_esc_c0 ;; esac
  case $_bsig_j in *"$_bsig_u85"*) _bsig_repl "$_bsig_u85" '\u0085' ;; esac
  case $_bsig_j in *"$_bsig_u2028"*) _bsig_repl "$_bsig_u2028" '\u2028' ;; esac
  case $_bsig_j in *"$_bsig_u2029"*) _bsig_repl "$_bsig_u2029" '\u2029' ;; esac
  return 0
}

# The rarer C0 controls, one pass each, in the order of _bsig_ctl.
# shellcheck disable=SC2120 # its arguments are set inside
_bsig_esc_c0() {
  _bsig_c0=$_bsig_ctl
  $_bsig_bi set -- '\u0001' '\u0002' '\u0003' '\u0004' '\u0005' '\u0006' '\u0007' '\b' '\t' '\n' \
    '\u000b' '\f' '\r' '\u000e' '\u000f' '\u0010' '\u0011' '\u0012' '\u0013' '\u0014' \
    '\u0015' '\u0016' '\u0017' '\u0018' '\u0019' '\u001a' '\u001b' '\u001c' '\u001d' \
    '\u001e' '\u001f'
  while [ -n "$_bsig_c0" ]; do
    _bsig_c=${_bsig_c0%"${_bsig_c0#?}"}
    _bsig_c0=${_bsig_c0#?}
    case $_bsig_j in *"$_bsig_c"*) _bsig_repl "$_bsig_c" "$1" ;; esac
    shift
  done
}

