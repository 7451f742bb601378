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
#   bernstein_emit     KIND [key=value | key:=JSON]...: any kind, any extras.
#   bernstein_run      CMD [ARG]...: run CMD, then COMPLETED or FAILED "exit N".
#   bernstein_ask      [--var NAME] QUESTION [--@QUESTION_OPTIONS@ O]... [--@QUESTION_ID@ ID]
#                      [--timeout SECONDS]: emit a QUESTION, read the reply
#                      from stdin into NAME (default BERNSTEIN_ANSWER).
#   bernstein_guard    make sure the script ends with a terminal signal.
#
# Status: 0 done; 1 nothing written (stdout failed) or no reply (end of
# input, timeout); 2 usage or schema error: a message on stderr and nothing on
# stdout. Lines are byte-identical to the Python binding's
# format_signal: keys in code point order, no spaces, non-ASCII kept as UTF-8,
# C0 controls, U+0085, U+2028 and U+2029 escaped.
#
# What this file changes in the calling shell: the variable NAME of
# bernstein_ask, bernstein_guard's EXIT, INT and TERM traps, and its own
# globals and functions, all named _bsig_*. No option, IFS, locale or other
# variable changes (bash and zsh switch to the C locale inside the helpers
# with `local`). Data is never evaluated as code. Arguments are bytes: they are
# not checked to be UTF-8 and are copied as they are, so invalid UTF-8 in an
# argument gives a line that readers reject as not UTF-8.

# -- which shell ---------------------------------------------------------------

_bsig_sh='sh'
if [ -n "${BASH_VERSION-}" ]; then
  _bsig_sh=bash
elif [ -n "${ZSH_VERSION-}" ]; then
  _bsig_sh=zsh
elif [ -n "${KSH_VERSION-}" ]; then
  case $KSH_VERSION in
    *MIRBSD* | *LEGACY*) _bsig_sh=mksh ;;
    *) _bsig_sh=ksh ;;
  esac
fi
# How a helper reaches a builtin past a caller's function of the same name
# (bash and zsh let a function shadow even `set`; in zsh `command` would look
# for a program). Used unquoted, only while the helper's own IFS is in force.
case $_bsig_sh in
  bash | zsh) _bsig_bi='builtin' ;;
  *) _bsig_bi='command' ;;
esac
# Whether read has -d (all but dash): a subshell tries it, once.
_bsig_read_d=1
if [ "$_bsig_sh" = sh ]; then
  # shellcheck disable=SC3045 # the point is to find out
  if (IFS= command read -r -d x _bsig_x) </dev/null 2>/dev/null; then :; else
    [ "$?" -le 1 ] || _bsig_read_d=''
  fi
fi
# Without read -d (dash): every byte but NUL and tab, to find runs of tabs.
_bsig_notab=''
[ -n "$_bsig_read_d" ] || _bsig_notab=$(command printf '\001\002\003\004\005\006\007\010\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\040\041\042\043\044\045\046\047\050\051\052\053\054\055\056\057\060\061\062\063\064\065\066\067\070\071\072\073\074\075\076\077\100\101\102\103\104\105\106\107\110\111\112\113\114\115\116\117\120\121\122\123\124\125\126\127\130\131\132\133\134\135\136\137\140\141\142\143\144\145\146\147\150\151\152\153\154\155\156\157\160\161\162\163\164\165\166\167\170\171\172\173\174\175\176\177\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277\300\301\302\303\304\305\306\307\310\311\312\313\314\315\316\317\320\321\322\323\324\325\326\327\330\331\332\333\334\335\336\337\340\341\342\343\344\345\346\347\350\351\352\353\354\355\356\357\360\361\362\363\364\365\366\367\370\371\372\373\374\375\376\377')
_bsig_fn=bernstein
_bsig_term=''
_bsig_guarded=''
_bsig_old_exit=''
_bsig_depth=0
_bsig_pending=''
# A NUL byte, where a variable can hold one (zsh); other shells' read drops it.
_bsig_nul=''
[ "$_bsig_sh" != zsh ] || eval '_bsig_nul=$'"'"'\0'"'"
_bsig_nl='
'
_bsig_ifs_own=" 	$_bsig_nl"

# -- output: builtins only (Debian's mksh has no printf builtin, but print -r) --

case $_bsig_sh in
  mksh)
    _bsig_out() { command print -r -- "$1"; }
    _bsig_err() { _bsig_one_line "$1" && command print -ru2 -- "$_bsig_fn: $_bsig_msg"; }
    _bsig_t=$(command print -n '\0011/\0015/\0001\0002\0003\0004\0005\0006\0007\0010\0011\0012\0013\0014\0015\0016\0017\0020\0021\0022\0023\0024\0025\0026\0027\0030\0031\0032\0033\0034\0035\0036\0037/\0302\0205/\0342\0200\0250/\0342\0200\0251/\0355/\0240\0241\0242\0243\0244\0245\0246\0247\0250\0251\0252\0253\0254\0255\0256\0257\0260\0261\0262\0263\0264\0265\0266\0267\0270\0271\0272\0273\0274\0275\0276\0277/\0200\0201\0202\0203\0204\0205\0206\0207\0210\0211\0212\0213\0214\0215\0216\0217\0220\0221\0222\0223\0224\0225\0226\0227\0230\0231\0232\0233\0234\0235\0236\0237/')
    _bsig_oct='\0'
    ;;
  bash | zsh)
    _bsig_out() { builtin printf '%s\n' "$1"; }
    _bsig_err() { _bsig_one_line "$1" && builtin printf '%s\n' "$_bsig_fn: $_bsig_msg" >&2; }
    _bsig_t=$(builtin printf '\011/\015/\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037/\302\205/\342\200\250/\342\200\251/\355/\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277/\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237/')
    _bsig_oct=\\
    ;;
  *)
    _bsig_out() { command printf '%s\n' "$1"; }
    _bsig_err() { _bsig_one_line "$1" && command printf '%s\n' "$_bsig_fn: $_bsig_msg" >&2; }
    _bsig_t=$(command printf '\011/\015/\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037/\302\205/\342\200\250/\342\200\251/\355/\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277/\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237/')
    _bsig_oct=\\
    ;;
esac
# "/" separates the parts: "|" would be an alternation in ksh patterns.
_bsig_tab=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_cr=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_ctl=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u85=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u2028=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u2029=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_ed=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_a0bf=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_cont=${_bsig_t%%/*}$_bsig_a0bf _bsig_t=''
_bsig_ws=" $_bsig_tab"

# _bsig_one_line MESSAGE: _bsig_msg becomes MESSAGE, JSON-escaped when an
# argument quoted in it holds a control or line-breaking character: one
# problem, one line on stderr.
_bsig_one_line() {
  _bsig_msg=$1
  case $_bsig_msg in
    *["$_bsig_ctl"]* | *"$_bsig_u85"* | *"$_bsig_u2028"* | *"$_bsig_u2029"*) ;;
    *) _bsig_has_nul "$1" || return 0 ;;
  esac
  _bsig_ej=$_bsig_j
  _bsig_esc "$_bsig_msg"
  _bsig_msg=$_bsig_j _bsig_j=$_bsig_ej
  return 0
}

# -- the caller's state: saved on entry to a public function, restored on return --

# Every public function runs _bsig_enter first and _bsig_leave last, whatever
# path it takes (the wrappers at the end of this file). Inside, the helpers
# trace nothing (xtrace, verbose off: answers must not reach a trace), export
# nothing (allexport off), see no nounset, do no pathname expansion (noglob),
# use their own IFS, match case-sensitively (bash nocasematch off) and, in
# mksh, work on bytes (utf8-mode off). zsh wrappers add `emulate -LR zsh`,
# which resets every zsh option for the call. Nested calls (a helper inside
# bernstein_run's command, a trap during a helper) keep the outer saved state.
_bsig_enter() {
  _bsig_depth=$((_bsig_depth + 1))
  [ "$_bsig_depth" -eq 1 ] || return 0
  _bsig_opts=$-
  _bsig_ifs_set=${IFS+1} _bsig_ifs=${IFS-}
  IFS=$_bsig_ifs_own
  case $_bsig_sh in
    zsh) $_bsig_bi set +xvau ;;
    mksh) $_bsig_bi set +xvauU -f ;;
    bash)
      $_bsig_bi set +xvau -f
      # shellcheck disable=SC3044 # bash only
      if builtin shopt -q nocasematch; then
        _bsig_ncm=1
        builtin shopt -u nocasematch
      else
        _bsig_ncm=''
      fi
      ;;
    *) $_bsig_bi set +xvau -f ;;
  esac
  return 0
}

# _bsig_restore: put the saved state back (the trace option last).
_bsig_restore() {
  _bsig_clear
  case $_bsig_sh in
    zsh) ;;
    *) case $_bsig_opts in *f*) ;; *) $_bsig_bi set +f ;; esac ;;
  esac
  case $_bsig_sh in
    bash)
      # shellcheck disable=SC3044 # bash only
      [ -z "$_bsig_ncm" ] || builtin shopt -s nocasematch
      ;;
    mksh) case $_bsig_opts in *U*) $_bsig_bi set -U ;; esac ;;
  esac
  case $_bsig_opts in *a*) $_bsig_bi set -a ;; esac
  case $_bsig_opts in *u*) $_bsig_bi set -u ;; esac
  case $_bsig_opts in *v*) $_bsig_bi set -v ;; esac
  case $_bsig_opts in
    *x*)
      if [ -n "$_bsig_ifs_set" ]; then IFS=$_bsig_ifs; else unset IFS; fi
      $_bsig_bi set -x
      ;;
    *) if [ -n "$_bsig_ifs_set" ]; then IFS=$_bsig_ifs; else unset IFS; fi ;;
  esac
}

# _bsig_leave: the end of every public function; returns _bsig_st.
_bsig_leave() {
  _bsig_depth=$((_bsig_depth - 1))
  if [ "$_bsig_depth" -le 0 ]; then
    _bsig_depth=0
    _bsig_restore
  fi
  return "$_bsig_st"
}

# _bsig_clear: forget every global that may hold an answer or other data.
_bsig_clear() {
  _bsig_s='' _bsig_f='' _bsig_af='' _bsig_dec='' _bsig_j='' _bsig_q='' _bsig_x=''
  _bsig_b1='' _bsig_b2='' _bsig_b3='' _bsig_b4='' _bsig_rto='' _bsig_key='' _bsig_a=''
  _bsig_line_rest='' _bsig_raw=''
}

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

# _bsig_repl NEEDLE REPLACEMENT: replace every NEEDLE in _bsig_j, literally,
# in time linear in its length (one split, then one pass over the pieces).
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
  *)
    _bsig_repl() {
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

# -- building a line ---------------------------------------------------------------

# _bsig_line KIND MEMBERS: print PREFIX KIND, with {MEMBERS} when there are any.
# MEMBERS is `,"key":value...` in key order. A terminal kind marks the run ended.
_bsig_line() {
  if [ -n "$2" ]; then
    _bsig_out "@PREFIX@$1 {${2#,}}" || return 1
  else
    _bsig_out "@PREFIX@$1" || return 1
  fi
  case $1 in @TERMINALS@) _bsig_term=1 ;; esac
  return 0
}

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
# repeated option goes to _bsig_i_KIND NAME ITEM, which checks and appends it.
# --help prints KIND's help and sets _bsig_hp. Status 2 with a message for a
# call the convention refuses.
_bsig_args() {
  _bsig_k=$1 _bsig_pn=$2 _bsig_po=$2 _bsig_op=$3 _bsig_hp='' _bsig_dd=''
  shift 3
  # zsh splits the tables below only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  # Every field starts unset: the assignments are built from the tables once per
  # kind and kept in _bsig_R_KIND (a loop per call costs more than the parse).
  eval "_bsig_y=\${_bsig_R_$_bsig_k-}"
  if [ -z "$_bsig_y" ]; then
    for _bsig_x in $_bsig_po $_bsig_op; do
      _bsig_x=${_bsig_x%%[:+]*}
      _bsig_y="$_bsig_y _bsig_s_$_bsig_x='' _bsig_v_$_bsig_x='' _bsig_a_$_bsig_x='' _bsig_n_$_bsig_x=0"
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
  [ -n "$_bsig_po" ] || return 0
  _bsig_y=''
  for _bsig_e in $_bsig_po; do _bsig_y="$_bsig_y ${_bsig_e#*:}"; done
  _bsig_err "missing argument(s):$_bsig_y (try --help)"
  return 2
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

# -- JSON reading: validation of `key:=JSON` and decoding of replies ------------------

_bsig_skip_ws() {
  _bsig_s=${_bsig_s#"${_bsig_s%%[!"$_bsig_ws"]*}"}
}

# _bsig_jstr: consume the JSON string at the start of _bsig_s; return 1 if it is
# not valid JSON or holds a lone surrogate. With _bsig_decode set, _bsig_f
# becomes a printf (print in mksh) format that prints the decoded text, and
# \u0000 fails too (no shell variable holds NUL). Linear in the length: a
# short string without escapes is taken directly; any other is split once on
# backslashes, each piece looked at a bounded number of times.
# shellcheck disable=SC2120,SC2141 # no arguments; IFS is a backslash on purpose
_bsig_jstr() {
  # zsh splits unquoted expansions only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_s=${_bsig_s#\"}
  _bsig_q=${_bsig_s%%[\"\\]*}
  case ${#_bsig_q} in
    ? | ?? | ???)
      _bsig_x=${_bsig_s#"$_bsig_q"}
      case $_bsig_x in
        \"*)
          case $_bsig_q in *["$_bsig_ctl"]*) return 1 ;; esac
          _bsig_s=${_bsig_x#?}
          [ -z "$_bsig_decode" ] || _bsig_fmt "$_bsig_q"
          return 0
          ;;
      esac
      ;;
  esac
  [ -z "$_bsig_decode" ] || _bsig_acc_start
  IFS=\\
  # shellcheck disable=SC2086 # split on purpose; noglob is on; x keeps a last empty piece
  $_bsig_bi set -- ${_bsig_s}x
  IFS=$_bsig_ifs_own
  _bsig_esc1='' _bsig_hi='' _bsig_jk=0
  # A for loop: shift per piece costs the whole list in some shells (ksh93).
  for _bsig_x in "$@"; do
    _bsig_jk=$((_bsig_jk + 1))
    if [ -n "$_bsig_esc1" ]; then
      # The piece after an escaping backslash: the escape, then literal text.
      case $_bsig_x in
        '')
          # \\ : the next backslash was the escaped one; the next piece is literal.
          [ -z "$_bsig_hi" ] || return 1
          [ -z "$_bsig_decode" ] || _bsig_acc "\\\\"
          _bsig_esc1=''
          continue
          ;;
        \"* | /* | [bfnrt]*)
          [ -z "$_bsig_hi" ] || return 1
          if [ -n "$_bsig_decode" ]; then
            case $_bsig_x in
              \"*) _bsig_acc '"' ;;
              /*) _bsig_acc / ;;
              b*) _bsig_acc '\b' ;;
              f*) _bsig_acc '\f' ;;
              n*) _bsig_acc '\n' ;;
              r*) _bsig_acc '\r' ;;
              t*) _bsig_acc '\t' ;;
            esac
          fi
          _bsig_x=${_bsig_x#?}
          ;;
        u*)
          _bsig_x=${_bsig_x#u}
          _bsig_hex4 || return 1
          _bsig_code || return 1
          ;;
        *) return 1 ;;
      esac
    elif [ -n "$_bsig_hi" ]; then
      return 1
    fi
    _bsig_esc1=1
    case $_bsig_x in
      *\"*)
        [ -z "$_bsig_hi" ] || return 1
        _bsig_q=${_bsig_x%%\"*}
        case $_bsig_q in *["$_bsig_ctl"]*) return 1 ;; esac
        [ -z "$_bsig_decode" ] || _bsig_acc "$_bsig_q"
        # The rest of the line: this piece after its first quote, then the
        # pieces not looked at, joined again.
        shift "$_bsig_jk"
        _bsig_jn=$#
        IFS=\\
        _bsig_rq="$*"
        IFS=\"
        # shellcheck disable=SC2086 # split on purpose; y keeps a last empty piece
        $_bsig_bi set -- ${_bsig_x}y
        shift
        _bsig_aq="$*"
        IFS=$_bsig_ifs_own
        _bsig_s=${_bsig_aq%y}
        [ "$_bsig_jn" -eq 0 ] || _bsig_s=$_bsig_s\\$_bsig_rq
        _bsig_s=${_bsig_s%x}
        _bsig_rq='' _bsig_aq=''
        if [ -n "$_bsig_decode" ]; then
          _bsig_acc_end
          _bsig_fmt "$_bsig_j"
        fi
        return 0
        ;;
      *["$_bsig_ctl"]*) return 1 ;;
    esac
    [ -z "$_bsig_decode" ] || _bsig_acc "$_bsig_x"
  done
  return 1
}

# _bsig_fmt TEXT: _bsig_f becomes TEXT as a format: printf needs %% for %.
_bsig_fmt() {
  _bsig_f=$1
  case $_bsig_sh in mksh) return 0 ;; esac
  case $_bsig_f in
    *%*)
      _bsig_j=$_bsig_f
      _bsig_repl % %%
      _bsig_f=$_bsig_j
      ;;
  esac
  return 0
}

# _bsig_hex4: take four hex digits off the front of _bsig_x into _bsig_cp,
# one `case` each (no substring of unbounded length is matched).
_bsig_hex4() {
  _bsig_cp=0
  for _bsig_i in 1 2 3 4; do
    case $_bsig_x in
      0*) _bsig_hv=0 ;; 1*) _bsig_hv=1 ;; 2*) _bsig_hv=2 ;; 3*) _bsig_hv=3 ;;
      4*) _bsig_hv=4 ;; 5*) _bsig_hv=5 ;; 6*) _bsig_hv=6 ;; 7*) _bsig_hv=7 ;;
      8*) _bsig_hv=8 ;; 9*) _bsig_hv=9 ;; [aA]*) _bsig_hv=10 ;; [bB]*) _bsig_hv=11 ;;
      [cC]*) _bsig_hv=12 ;; [dD]*) _bsig_hv=13 ;; [eE]*) _bsig_hv=14 ;; [fF]*) _bsig_hv=15 ;;
      *) return 1 ;;
    esac
    _bsig_x=${_bsig_x#?}
    _bsig_cp=$((_bsig_cp * 16 + _bsig_hv))
  done
  return 0
}

# _bsig_code: the code unit _bsig_cp of a \u escape. A high surrogate waits in
# _bsig_hi for the low one, which must be the very next escape (nothing
# between); a low one alone, \u0000 when decoding, or a high one not followed
# by a low one fail. When decoding, the UTF-8 bytes go into the format.
_bsig_code() {
  if [ -n "$_bsig_hi" ]; then
    [ "$_bsig_cp" -ge 56320 ] && [ "$_bsig_cp" -le 57343 ] || return 1
    _bsig_cp=$((65536 + ((_bsig_hi - 55296) << 10) + (_bsig_cp - 56320)))
    _bsig_hi=''
  elif [ "$_bsig_cp" -ge 55296 ] && [ "$_bsig_cp" -le 56319 ]; then
    # The low surrogate's escape must start right after this one.
    [ -z "$_bsig_x" ] || return 1
    _bsig_hi=$_bsig_cp
    return 0
  elif [ "$_bsig_cp" -ge 56320 ] && [ "$_bsig_cp" -le 57343 ]; then
    return 1
  fi
  [ -n "$_bsig_decode" ] || return 0
  [ "$_bsig_cp" -ne 0 ] || return 1
  _bsig_utf8 "$_bsig_cp"
}

# _bsig_utf8 CODE: append the UTF-8 bytes of CODE to the format, as octal escapes.
_bsig_utf8() {
  if [ "$1" -lt 128 ]; then
    _bsig_o "$1"
  elif [ "$1" -lt 2048 ]; then
    _bsig_o "$((192 | ($1 >> 6)))"
    _bsig_o "$((128 | ($1 & 63)))"
  elif [ "$1" -lt 65536 ]; then
    _bsig_o "$((224 | ($1 >> 12)))"
    _bsig_o "$((128 | (($1 >> 6) & 63)))"
    _bsig_o "$((128 | ($1 & 63)))"
  else
    _bsig_o "$((240 | ($1 >> 18)))"
    _bsig_o "$((128 | (($1 >> 12) & 63)))"
    _bsig_o "$((128 | (($1 >> 6) & 63)))"
    _bsig_o "$((128 | ($1 & 63)))"
  fi
}

_bsig_o() {
  _bsig_acc "$_bsig_oct$(($1 >> 6))$((($1 >> 3) & 7))$(($1 & 7))"
}

# _bsig_render: _bsig_dec becomes the text the format _bsig_f prints.
_bsig_render() {
  case $_bsig_sh in
    bash | zsh)
      # shellcheck disable=SC2059,SC3045 # the format is built by _bsig_jstr
      builtin printf -v _bsig_dec "x${_bsig_f}x"
      ;;
    mksh) _bsig_dec=$(command print -n -- "x${_bsig_f}x") ;;
    *)
      # shellcheck disable=SC2059 # the format is built by _bsig_jstr
      _bsig_dec=$(command printf "x${_bsig_f}x")
      ;;
  esac
  _bsig_dec=${_bsig_dec#x}
  _bsig_dec=${_bsig_dec%x}
}

# _bsig_jnum: consume the JSON number at the start of _bsig_s, within the
# binding's limits: an integer has at most @MAX_INTEGER_DIGITS@ digits, and a
# number with a fraction or an exponent must not round to infinity as a double.
_bsig_jnum() {
  _bsig_q=${_bsig_s%%[!0123456789eE.+-]*}
  _bsig_s=${_bsig_s#"$_bsig_q"}
  _bsig_q=${_bsig_q#-}
  _bsig_ni=${_bsig_q%%[!0123456789]*} _bsig_nf='' _bsig_ne='' _bsig_es=''
  case $_bsig_ni in 0 | [123456789]*) ;; *) return 1 ;; esac
  case $_bsig_ni in 0?*) return 1 ;; esac
  _bsig_q=${_bsig_q#"$_bsig_ni"}
  case $_bsig_q in
    .[0123456789]*)
      _bsig_q=${_bsig_q#.}
      _bsig_nf=${_bsig_q%%[!0123456789]*}
      _bsig_q=${_bsig_q#"$_bsig_nf"}
      ;;
  esac
  case $_bsig_q in
    [eE]*)
      _bsig_q=${_bsig_q#?}
      case $_bsig_q in -*) _bsig_es=- ;; esac
      _bsig_q=${_bsig_q#[+-]}
      _bsig_ne=${_bsig_q%%[!0123456789]*}
      [ -n "$_bsig_ne" ] || return 1
      _bsig_q=${_bsig_q#"$_bsig_ne"}
      ;;
  esac
  [ -z "$_bsig_q" ] || return 1
  if [ -z "$_bsig_nf" ] && [ -z "$_bsig_ne" ]; then
    [ "${#_bsig_ni}" -le @MAX_INTEGER_DIGITS@ ]
    return
  fi
  _bsig_finite
}

# _bsig_finite: is the number in _bsig_ni._bsig_nf e _bsig_es _bsig_ne below
# the least value a double rounds to infinity (as Python's float() decides)?
# That value is 0.D x 10^E with D and E from the emitter; the number is
# 0.d x 10^e with d its digits without leading zeros.
_bsig_finite() {
  _bsig_d=$_bsig_ni$_bsig_nf
  _bsig_z=${_bsig_d%%[!0]*}
  [ "$_bsig_z" != "$_bsig_d" ] || return 0
  _bsig_d=${_bsig_d#"$_bsig_z"}
  _bsig_ne=${_bsig_ne#"${_bsig_ne%%[!0]*}"}
  if [ "${#_bsig_ne}" -gt 8 ]; then
    [ "$_bsig_es" = - ]
    return
  fi
  _bsig_e=$((${#_bsig_ni} - ${#_bsig_z} + $_bsig_es${_bsig_ne:-0}))
  [ "$_bsig_e" -le @FLOAT_LIMIT_EXPONENT@ ] || return 1
  [ "$_bsig_e" -eq @FLOAT_LIMIT_EXPONENT@ ] || return 0
  _bsig_lt "$_bsig_d" @FLOAT_LIMIT_DIGITS@
}

# _bsig_lt A B: is A before B in byte order (digits here)?
case $_bsig_sh in
  zsh) _bsig_lt() { eval '[[ $1 < $2 ]]'; } ;;
  *)
    # shellcheck disable=SC3012 # every shell here but zsh has it in [
    _bsig_lt() { [ "$1" \< "$2" ]; }
    ;;
esac

# _bsig_jvalue TEXT: is TEXT exactly one JSON value on one line (JSON
# whitespace limited to space and tab, as in the grammar) that a reader
# accepts: nesting at most @MAX_VALUE_DEPTH@ deep (the payload around it is
# one more level), numbers as _bsig_jnum says, no lone surrogate, escaped or
# as raw UTF-8 bytes (ED A0..BF). Linear in the length: TEXT is split once on
# backslashes (escapes), each piece once on quotes (strings), the text
# outside strings once on white space and commas; the tokens of what is left
# between two commas are read one at a time.
# shellcheck disable=SC2141 # IFS is a backslash on purpose
_bsig_jvalue() {
  # zsh splits unquoted expansions only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_stack='' _bsig_want=v _bsig_decode='' _bsig_instr='' _bsig_esc1='' _bsig_hi=''
  case $1 in
    *"$_bsig_nl"* | *"$_bsig_cr"* | *"$_bsig_u85"* | *"$_bsig_u2028"* | *"$_bsig_u2029"*) return 1 ;;
    # A backslash can only be inside a string, never last.
    *\\) return 1 ;;
    *"$_bsig_ed"*) _bsig_raw_surrogate "$1" && return 1 ;;
  esac
  ! _bsig_has_nul "$1" || return 1
  IFS=\\
  # shellcheck disable=SC2086 # split on purpose; noglob is on
  $_bsig_bi set -- $1
  IFS=$_bsig_ifs_own
  _bsig_jfirst=1
  for _bsig_x in "$@"; do
    if [ -n "$_bsig_jfirst" ]; then
      _bsig_jfirst=''
    elif [ -n "$_bsig_esc1" ]; then
      # A backslash before this piece: an escape, inside a string only.
      [ -n "$_bsig_instr" ] || return 1
      case $_bsig_x in
        '')
          [ -z "$_bsig_hi" ] || return 1
          _bsig_esc1=''
          continue
          ;;
        \"* | /* | [bfnrt]*)
          [ -z "$_bsig_hi" ] || return 1
          _bsig_x=${_bsig_x#?}
          ;;
        u*)
          _bsig_x=${_bsig_x#u}
          _bsig_hex4 || return 1
          _bsig_code || return 1
          ;;
        *) return 1 ;;
      esac
    elif [ -n "$_bsig_hi" ]; then
      return 1
    fi
    _bsig_esc1=1
    _bsig_jquotes "$_bsig_x" || return 1
  done
  [ "$_bsig_want" = n ] && [ -z "$_bsig_stack" ] && [ -z "$_bsig_instr" ]
}

# _bsig_jquotes TEXT: a piece of a key:= value without backslashes: each quote
# opens or closes a string; text in a string is checked, text outside read
# as structure.
_bsig_jquotes() {
  IFS=\"
  # shellcheck disable=SC2086 # split on purpose; y keeps a last empty piece
  $_bsig_bi set -- ${1}y
  IFS=$_bsig_ifs_own
  _bsig_pn=$# _bsig_pi=0
  for _bsig_sp in "$@"; do
    _bsig_pi=$((_bsig_pi + 1))
    [ "$_bsig_pi" -lt "$_bsig_pn" ] || _bsig_sp=${_bsig_sp%y}
    if [ "$_bsig_pi" -gt 1 ]; then
      if [ -n "$_bsig_instr" ]; then
        [ -z "$_bsig_hi" ] || return 1
        _bsig_instr=''
        if [ -n "$_bsig_strkey" ]; then _bsig_want=c; else _bsig_want=n; fi
      else
        case $_bsig_want in
          v | a) _bsig_strkey='' ;;
          o | k) _bsig_strkey=1 ;;
          *) return 1 ;;
        esac
        _bsig_instr=1
      fi
    fi
    if [ -n "$_bsig_instr" ]; then
      [ -z "$_bsig_hi" ] || [ -z "$_bsig_sp" ] || return 1
      case $_bsig_sp in *["$_bsig_ctl"]*) return 1 ;; esac
    else
      # Short structure (most of it: `":`, `, "`) is read token by token at once.
      case ${#_bsig_sp} in
        ? | ??) _bsig_s=$_bsig_sp && _bsig_jtokens || return 1 ;;
        *) _bsig_jstruct "$_bsig_sp" || return 1 ;;
      esac
    fi
  done
  return 0
}

# _bsig_jstruct TEXT: JSON outside strings. White space runs become one space,
# then each part between commas is read token by token.
_bsig_jstruct() {
  IFS=" $_bsig_tab"
  # shellcheck disable=SC2086 # split on purpose
  $_bsig_bi set -- $1
  IFS=' '
  _bsig_t1="$*"
  IFS=,
  # shellcheck disable=SC2086 # split on purpose; z keeps a last empty part
  $_bsig_bi set -- ${_bsig_t1}z
  IFS=$_bsig_ifs_own
  _bsig_t1='' _bsig_cn=$# _bsig_ci=0
  for _bsig_s in "$@"; do
    _bsig_ci=$((_bsig_ci + 1))
    [ "$_bsig_ci" -lt "$_bsig_cn" ] || _bsig_s=${_bsig_s%z}
    if [ "$_bsig_ci" -gt 1 ]; then
      [ "$_bsig_want" = n ] || return 1
      case $_bsig_stack in
        \{*) _bsig_want=k ;;
        \[*) _bsig_want=v ;;
        *) return 1 ;;
      esac
    fi
    _bsig_jtokens || return 1
  done
  return 0
}

# _bsig_jtokens: the tokens in _bsig_s (no string; short, or without commas
# and with single spaces).
_bsig_jtokens() {
  while :; do
    _bsig_skip_ws
    [ -n "$_bsig_s" ] || return 0
    case $_bsig_want in
      v | a)
        case $_bsig_s in
          \{*)
            [ "${#_bsig_stack}" -lt @MAX_VALUE_DEPTH@ ] || return 1
            _bsig_stack="{$_bsig_stack" _bsig_want=o _bsig_s=${_bsig_s#?}
            ;;
          \[*)
            [ "${#_bsig_stack}" -lt @MAX_VALUE_DEPTH@ ] || return 1
            _bsig_stack="[$_bsig_stack" _bsig_want=a _bsig_s=${_bsig_s#?}
            ;;
          true*) _bsig_s=${_bsig_s#true} _bsig_want=n ;;
          false*) _bsig_s=${_bsig_s#false} _bsig_want=n ;;
          null*) _bsig_s=${_bsig_s#null} _bsig_want=n ;;
          [-0123456789]*) _bsig_jnum || return 1; _bsig_want=n ;;
          \]*)
            [ "$_bsig_want" = a ] || return 1
            _bsig_stack=${_bsig_stack#?} _bsig_want=n _bsig_s=${_bsig_s#?}
            ;;
          *) return 1 ;;
        esac
        ;;
      o)
        case $_bsig_s in
          \}*) _bsig_stack=${_bsig_stack#?} _bsig_want=n _bsig_s=${_bsig_s#?} ;;
          *) return 1 ;;
        esac
        ;;
      c)
        case $_bsig_s in :*) _bsig_want=v _bsig_s=${_bsig_s#?} ;; *) return 1 ;; esac
        ;;
      n)
        case ${_bsig_stack%"${_bsig_stack#?}"}$_bsig_s in
          \{,*) _bsig_want=k _bsig_s=${_bsig_s#?} ;;
          \[,*) _bsig_want=v _bsig_s=${_bsig_s#?} ;;
          \{\}* | \[\]*) _bsig_stack=${_bsig_stack#?} _bsig_s=${_bsig_s#?} ;;
          *) return 1 ;;
        esac
        ;;
      *) return 1 ;;
    esac
  done
}

# _bsig_raw_surrogate TEXT: does TEXT hold a surrogate as UTF-8 bytes (ED
# then A0..BF)? One scan per second byte: a bracket of raw high bytes is not
# matched alike in every shell.
_bsig_raw_surrogate() {
  _bsig_c0=$_bsig_a0bf
  while [ -n "$_bsig_c0" ]; do
    _bsig_c=${_bsig_c0%"${_bsig_c0#?}"}
    _bsig_c0=${_bsig_c0#?}
    case $1 in *"$_bsig_ed$_bsig_c"*) return 0 ;; esac
  done
  return 1
}

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

# -- bernstein_ask ---------------------------------------------------------------

# _bsig_reply: parse the reply in _bsig_s. Sets _bsig_rnull (the reply-to
# field is null), _bsig_rto (its value, decoded) and _bsig_af (the answer's
# format). The field names are the reply schema's fields with those roles.
_bsig_reply() {
  _bsig_decode=1 _bsig_seen=' ' _bsig_rnull='' _bsig_rto=''
  _bsig_skip_ws
  case $_bsig_s in \{*) _bsig_s=${_bsig_s#?} ;; *) return 1 ;; esac
  while :; do
    _bsig_skip_ws
    case $_bsig_s in \"*) ;; *) return 1 ;; esac
    _bsig_jstr || return 1
    _bsig_render
    _bsig_key=$_bsig_dec
    case $_bsig_seen in *" $_bsig_key "*) return 1 ;; esac
    _bsig_seen="$_bsig_seen$_bsig_key "
    _bsig_skip_ws
    case $_bsig_s in :*) _bsig_s=${_bsig_s#?} ;; *) return 1 ;; esac
    _bsig_skip_ws
    case $_bsig_key in
      @REPLY_IN_REPLY_TO@)
        case $_bsig_s in
          null*) _bsig_rnull=1 _bsig_s=${_bsig_s#null} ;;
          \"*)
            _bsig_jstr || return 1
            _bsig_render
            _bsig_rto=$_bsig_dec
            [ -n "$_bsig_rto" ] || return 1
            ;;
          *) return 1 ;;
        esac
        ;;
      @REPLY_ANSWER@)
        case $_bsig_s in \"*) ;; *) return 1 ;; esac
        _bsig_jstr || return 1
        _bsig_af=$_bsig_f
        ;;
      *) return 1 ;;
    esac
    _bsig_skip_ws
    case $_bsig_s in
      ,*) _bsig_s=${_bsig_s#?} ;;
      \}*) _bsig_s=${_bsig_s#?}; break ;;
      *) return 1 ;;
    esac
  done
  _bsig_skip_ws
  [ -z "$_bsig_s" ] || return 1
  case $_bsig_seen in ' @REPLY_IN_REPLY_TO@ @REPLY_ANSWER@ ' | ' @REPLY_ANSWER@ @REPLY_IN_REPLY_TO@ ') return 0 ;; esac
  return 1
}

# _bsig_read_t: read a reply line into _bsig_s before the deadline that
# _bsig_deadline set (_bsig_limit microseconds after _bsig_t0), so that lines
# skipped before the reply count against --timeout. Status 0, 1 at end of
# input, above 128 at the timeout with the partial line in _bsig_s. bash's and
# mksh's read -t do exactly that. zsh's waits past a partial line, ksh93's and
# busybox's drop it: there, one byte at a time. The clock is in microseconds
# (zsh: a float SECONDS local to bernstein_ask; ksh93: SECONDS; bash, mksh and
# busybox: EPOCHREALTIME).
# shellcheck disable=SC3028,SC3045 # SECONDS, EPOCHREALTIME, read options: not in sh
_bsig_read_t() {
  case $_bsig_sh in
    bash | mksh)
      _bsig_now
      _bsig_rem=$((_bsig_limit - (_bsig_t - _bsig_t0)))
      [ "$_bsig_rem" -gt 0 ] || return 142
      _bsig_frac=$((1000000 + _bsig_rem % 1000000))
      IFS= $_bsig_bi read -r -t "$((_bsig_rem / 1000000)).${_bsig_frac#1}" _bsig_s
      return
      ;;
  esac
  _bsig_acc_start
  while :; do
    _bsig_now
    _bsig_rem=$((_bsig_limit - (_bsig_t - _bsig_t0)))
    # Two newlines: no one-byte read gives that, and a read that times out
    # leaves its variable as it was (end of input empties it).
    _bsig_c=$_bsig_nl$_bsig_nl _bsig_trc=1
    if [ "$_bsig_rem" -gt 0 ]; then
      _bsig_frac=$((1000000 + _bsig_rem % 1000000))
      _bsig_rem=$((_bsig_rem / 1000000)).${_bsig_frac#1}
      _bsig_trc=0
      case $_bsig_sh in
        zsh) IFS= builtin read -r -u 0 -t "$_bsig_rem" -k 1 _bsig_c || _bsig_trc=1 ;;
        ksh) IFS= command read -r -N 1 -t "$_bsig_rem" _bsig_c || _bsig_trc=1 ;;
        *) IFS= command read -r -n 1 -t "$_bsig_rem" _bsig_c || _bsig_trc=1 ;;
      esac
    fi
    if [ "$_bsig_trc" -ne 0 ]; then
      _bsig_acc_end
      _bsig_s=$_bsig_j
      [ "$_bsig_c" = "$_bsig_nl$_bsig_nl" ] && return 142
      return 1
    fi
    # A newline ends the line (busybox's read -n 1 gives it as empty).
    if [ -z "$_bsig_c" ] || [ "$_bsig_c" = "$_bsig_nl" ]; then
      _bsig_acc_end
      _bsig_s=$_bsig_j
      return 0
    fi
    _bsig_acc "$_bsig_c"
  done
}

# _bsig_now: the clock, in microseconds, into _bsig_t.
# shellcheck disable=SC3028 # SECONDS, EPOCHREALTIME: zsh, ksh93, busybox
_bsig_now() {
  case $_bsig_sh in
    zsh | ksh) _bsig_us "$SECONDS" ;;
    *) _bsig_us "${EPOCHREALTIME-}" ;;
  esac
}

# _bsig_deadline: start the clock of --timeout (zsh's SECONDS is local to the caller).
_bsig_deadline() {
  _bsig_us "$_bsig_tmo"
  _bsig_limit=$_bsig_t
  _bsig_now
  _bsig_t0=$_bsig_t
}

# _bsig_seconds VALUE: whether VALUE is a --timeout bernstein_ask takes: digits
# without a leading zero, at most @ASK_TIMEOUT_DIGITS@ of them, an optional fraction of
# at most @ASK_TIMEOUT_DECIMALS@ digits, at most @ASK_TIMEOUT_MAX@. No arithmetic sees any other
# value: bash reads 08 as bad octal (and exits the caller's script), 010 as 8.
_bsig_seconds() {
  _bsig_ti=${1%%.*} _bsig_tf=0
  case $1 in *.*) _bsig_tf=${1#*.} ;; esac
  case $_bsig_ti in '' | *[!0123456789]* | 0?*) return 1 ;; esac
  case $_bsig_tf in '' | *[!0123456789]*) return 1 ;; esac
  [ "${#_bsig_ti}" -le @ASK_TIMEOUT_DIGITS@ ] && [ "${#_bsig_tf}" -le @ASK_TIMEOUT_DECIMALS@ ] || return 1
  [ "$_bsig_ti" -lt @ASK_TIMEOUT_MAX@ ] && return 0
  [ "$_bsig_ti" -eq @ASK_TIMEOUT_MAX@ ] || return 1
  case $_bsig_tf in *[!0]*) return 1 ;; esac
}

# _bsig_us SECONDS: a decimal number of seconds as whole microseconds, in _bsig_t.
_bsig_us() {
  _bsig_ti=${1%%.*} _bsig_tf=''
  case $1 in *.*) _bsig_tf=${1#*.} ;; esac
  _bsig_tf=${_bsig_tf}000000
  _bsig_tf=${_bsig_tf%"${_bsig_tf#??????}"}
  _bsig_t=$(( ${_bsig_ti:-0} * 1000000 + 1$_bsig_tf - 1000000 ))
}

_bsig_can_time_out() {
  case $_bsig_sh in bash | zsh | ksh | mksh) return 0 ;; esac
  # shellcheck disable=SC3045 # the point is to find out
  (command read -r -t 1 _bsig_x) </dev/null 2>/dev/null
  [ $? -le 1 ]
}

# _bsig_skip NOTE: one note on stderr for a line that is not the awaited
# reply, showing at most 80 characters of it (JSON-escaped) when NOTE is "".
_bsig_skip() {
  if [ -n "$1" ]; then
    _bsig_err "skipping $1"
    return 0
  fi
  _bsig_x=$_bsig_s _bsig_y=''
  if [ "${#_bsig_x}" -gt 80 ]; then
    _bsig_x=${_bsig_x%"${_bsig_x#????????????????????????????????????????????????????????????????????????????????}"}
    _bsig_y=...
  fi
  _bsig_esc "$_bsig_x"
  _bsig_err "skipping a line that is not a reply: \"$_bsig_j\"$_bsig_y"
}

# shellcheck disable=SC2120 # may be called without arguments
_bsig_do_ask() {
  _bsig_fn=bernstein_ask
  _bsig_var=BERNSTEIN_ANSWER _bsig_tmo='' _bsig_id='' _bsig_has_id='' _bsig_n=$# _bsig_aseen=' '
  # Take out --var and --timeout; keep the rest, in order, for bernstein_question,
  # whose options are read by the same rule (_bsig_opt, its table _bsig_O_question).
  # The first refusal in the order of the arguments wins, as in _bsig_args and
  # read_call: from the first argument the question's parser refuses (one
  # positional too many, an option without a value) on, the rest goes to it.
  _bsig_rest='' _bsig_pq=0 _bsig_x=$_bsig_P_question
  while [ -n "$_bsig_x" ]; do _bsig_x=${_bsig_x#* } _bsig_pq=$((_bsig_pq + 1)); done
  while [ "$_bsig_n" -gt 0 ]; do
    _bsig_o=''
    if [ -z "$_bsig_rest" ]; then
      case $1 in
        --) _bsig_rest=1 ;;
        --help) _bsig_help_ask; return ;;
        *) _bsig_opt "$1" ;;
      esac
      if [ -z "$_bsig_rest" ] && [ -z "$_bsig_o" ]; then
        if [ "$_bsig_pq" -gt 0 ]; then _bsig_pq=$((_bsig_pq - 1)); else _bsig_rest=1; fi
      fi
    fi
    if [ -z "$_bsig_o" ]; then
      $_bsig_bi set -- "$@" "$1"
      shift
      _bsig_n=$((_bsig_n - 1))
      continue
    fi
    case $_bsig_o in
      @ASK_OPTIONS_CASE@) _bsig_need "$_bsig_n" "$1" || return ;;
      *)
        _bsig_known "$_bsig_o" "$_bsig_O_question" || { _bsig_unknown "$_bsig_o" " @ASK_OPTIONS@$_bsig_O_question"; return; }
        if [ "$_bsig_n" -lt 2 ]; then
          _bsig_rest=1
          continue
        fi
        ;;
    esac
    # Given twice is refused (own options and the question's), as _bsig_args does.
    case $_bsig_O_question in
      *" $_bsig_o+ "*) ;;
      *)
        case $_bsig_aseen in *" $_bsig_o "*) _bsig_err "$1 given twice"; return 2 ;; esac
        _bsig_aseen="$_bsig_aseen$_bsig_o "
        ;;
    esac
    case $_bsig_o in
      var) _bsig_var=$2 ;;
      timeout) _bsig_tmo=$2 ;;
      *)
        [ "$_bsig_o" != @QUESTION_ID@ ] || _bsig_id=$2 _bsig_has_id=1
        $_bsig_bi set -- "$@" "$1" "$2"
        ;;
    esac
    shift 2
    _bsig_n=$((_bsig_n - 2))
  done
  case $_bsig_var in
    '' | [0123456789]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_]* | _bsig_*)
      _bsig_err "--var: '$_bsig_var' is not a variable name this function may set"
      return 2
      ;;
  esac
  case $_bsig_aseen in
    *" timeout "*)
      _bsig_seconds "$_bsig_tmo" || {
        _bsig_err "--timeout: '$_bsig_tmo' is not @ASK_TIMEOUT_RULE@"
        return 2
      }
      _bsig_can_time_out || { _bsig_err "--timeout: this shell's read has no -t"; return 2; }
      ;;
  esac
  # The question's parser reports its refusals under bernstein_ask's name.
  _bsig_via=bernstein_ask
  _bsig_do_question "$@" || return
  _bsig_fn=bernstein_ask
  if [ -n "$_bsig_tmo" ]; then
    case $_bsig_sh in
      zsh)
        # shellcheck disable=SC3043 # zsh: a float clock, local to this call
        local -F SECONDS=0
        ;;
    esac
    _bsig_deadline
  fi
  while :; do
    _bsig_s='' _bsig_rc=0
    if [ -n "$_bsig_tmo" ]; then
      _bsig_read_t || _bsig_rc=$?
    else
      IFS= $_bsig_bi read -r _bsig_s || _bsig_rc=$?
    fi
    # The start of a line that an earlier call's timeout interrupted.
    _bsig_s=$_bsig_pending$_bsig_s _bsig_pending=''
    if [ "$_bsig_rc" -gt 128 ]; then
      _bsig_pending=$_bsig_s
      _bsig_err "no reply within $_bsig_tmo seconds${_bsig_pending:+ (a partial line is kept for the next bernstein_ask)}"
      return 1
    fi
    if [ -z "$_bsig_s" ] && [ "$_bsig_rc" -ne 0 ]; then
      _bsig_err "no reply: end of input${_bsig_tmo:+ or timeout}"
      return 1
    fi
    if [ -n "$_bsig_nul" ]; then
      case $_bsig_s in
        *"$_bsig_nul"*)
          _bsig_skip 'a line with a NUL byte (not a reply)'
          continue
          ;;
      esac
    fi
    # Not ${s%"$cr"}: ksh93 takes time quadratic in the length when it does not match.
    case $_bsig_s in *"$_bsig_cr") _bsig_s=${_bsig_s%?} ;; esac
    # _bsig_reply consumes _bsig_s: the line stays in _bsig_raw for the note.
    _bsig_raw=$_bsig_s
    if ! _bsig_reply; then
      _bsig_s=$_bsig_raw
      _bsig_skip ''
      continue
    fi
    if [ -n "$_bsig_has_id" ]; then
      [ -z "$_bsig_rnull" ] && [ "$_bsig_rto" = "$_bsig_id" ] && break
    else
      [ -n "$_bsig_rnull" ] && break
    fi
    if [ -n "$_bsig_rnull" ]; then
      _bsig_skip "a reply to a question without id"
    else
      _bsig_esc "$_bsig_rto"
      _bsig_skip "a reply to question \"$_bsig_j\""
    fi
  done
  _bsig_f=$_bsig_af
  _bsig_render
  eval "$_bsig_var=\$_bsig_dec"
}

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

# -- the fixed helpers' --help, then one function per kind, generated ---------------
@KIND_FUNCTIONS@

# -- the public functions: each wraps its _bsig_do_* in _bsig_enter/_bsig_leave -------
@WRAPPERS@
