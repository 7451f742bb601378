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
  # A refusal of its own options waits in _bsig_held until the question's call
  # has its shape (_bsig_args reports it then): shape first, then values.
  _bsig_held=''
  case $_bsig_var in
    '' | [0123456789]* | *[!ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_]* | _bsig_*)
      _bsig_held="--var: '$_bsig_var' is not a variable name this function may set"
      ;;
  esac
  case $_bsig_held/$_bsig_aseen in
    /*" timeout "*)
      if ! _bsig_seconds "$_bsig_tmo"; then
        _bsig_held="--timeout: '$_bsig_tmo' is not @ASK_TIMEOUT_RULE@"
      elif ! _bsig_can_time_out; then
        _bsig_held="--timeout: this shell's read has no -t"
      fi
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

