# -- JSON reading: strings and escapes, for `key:=JSON` and for replies -------------

_bsig_skip_ws() {
  _bsig_s=${_bsig_s#"${_bsig_s%%[!"$_bsig_ws"]*}"}
}

# _bsig_jstr: consume the JSON string at the start of _bsig_s; return 1 if it is
# not valid JSON or holds a lone surrogate. With _bsig_decode set, _bsig_f
# becomes a printf (print in mksh) format that prints the decoded text, and
# \u0000 fails too (no shell variable holds NUL). Linear in the length: a
# short string without escapes is taken directly; any other is split once on
# backslashes, each piece looked at a bounded number of times; each escape is
# read by _bsig_jesc, as in key:=JSON.
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
  _bsig_esc1='' _bsig_hi='' _bsig_jk=0 _bsig_instr=1
  # A for loop: shift per piece costs the whole list in some shells (ksh93).
  for _bsig_x in "$@"; do
    _bsig_jk=$((_bsig_jk + 1))
    _bsig_jpiece || { [ "$?" -eq 3 ] && continue; return 1; }
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

# _bsig_jpiece: the start of the piece _bsig_x of JSON text split on
# backslashes. After an escaping backslash (_bsig_esc1), which only a string
# may hold, its escape is read by _bsig_jesc; a high surrogate's escape must
# be followed right away by its low one. Status 0: the rest of _bsig_x is
# literal text (the next piece follows a backslash); 3: the piece was empty,
# the second backslash of \\ (the next piece is literal); 1: not JSON.
_bsig_jpiece() {
  if [ -n "$_bsig_esc1" ]; then
    [ -n "$_bsig_instr" ] || return 1
    _bsig_jesc || {
      [ "$?" -eq 3 ] || return 1
      _bsig_esc1=''
      return 3
    }
  elif [ -n "$_bsig_hi" ]; then
    return 1
  fi
  _bsig_esc1=1
}

# _bsig_jesc: the one reading of a JSON escape, for replies and key:=JSON.
# _bsig_x is the piece of text after an escaping backslash: its escape is
# read and handed to _bsig_jcp, and _bsig_x becomes the literal text after
# it. Status 1: not a valid escape; 3: the piece is empty, so the escape was
# \\ and the next piece is literal text.
_bsig_jesc() {
  case $_bsig_x in
    '')
      [ -z "$_bsig_hi" ] || return 1
      _bsig_cp=92
      _bsig_jcp || return 1
      return 3
      ;;
    \"*) _bsig_cp=34 ;;
    /*) _bsig_cp=47 ;;
    b*) _bsig_cp=8 ;;
    f*) _bsig_cp=12 ;;
    n*) _bsig_cp=10 ;;
    r*) _bsig_cp=13 ;;
    t*) _bsig_cp=9 ;;
    u*)
      _bsig_x=${_bsig_x#u}
      _bsig_hex4 || return 1
      _bsig_code
      return
      ;;
    *) return 1 ;;
  esac
  [ -z "$_bsig_hi" ] || return 1
  _bsig_x=${_bsig_x#?}
  _bsig_jcp
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
# between); a low one alone, or a high one not followed by a low one fail.
# The character goes to _bsig_jcp.
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
  _bsig_jcp
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

