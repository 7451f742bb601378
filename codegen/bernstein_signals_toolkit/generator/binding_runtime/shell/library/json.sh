# -- JSON reading: validation of `key:=JSON` and decoding of replies ------------------

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

# -- key:=JSON: read here, written by json_write.sh (spec/canonical-form.md) ---------

# _bsig_lt A B: is A before B in byte order? bash and zsh run the helpers in
# the C locale; ksh93's test compares by the caller's collation, so there the
# comparison alone runs in the C locale (mksh, dash and busybox compare bytes).
case $_bsig_sh in
  zsh) _bsig_lt() { eval '[[ $1 < $2 ]]'; } ;;
  ksh)
    # shellcheck disable=SC3012 # ksh93 has it in [
    _bsig_lt() { LC_ALL=C command [ "$1" \< "$2" ]; }
    ;;
  *)
    # shellcheck disable=SC3012 # every shell here but zsh has it in [
    _bsig_lt() { [ "$1" \< "$2" ]; }
    ;;
esac

# _bsig_jvalue TEXT [DEPTH]: is TEXT exactly one JSON value on one line (JSON
# whitespace limited to space and tab, as in the grammar) that a reader
# accepts: nesting at most DEPTH deep (default @MAX_VALUE_DEPTH@: the payload
# around a key:= value is one more level), numbers as _bsig_jnum says, no lone surrogate, escaped or
# as raw UTF-8 bytes (ED A0..BF)? If so, _bsig_j becomes its canonical text;
# if not, _bsig_jerr may say why (else it is empty). Linear in the length:
# TEXT is split once on backslashes (escapes), each piece once on quotes
# (strings), the text outside strings once on white space and commas; the
# tokens of what is left between two commas are read one at a time. The
# first pass writes objects as they come; only when an object's keys are out
# of order (or one comes twice) does a second pass keep each object's members
# apart and sort them (at most @MAX_SORTED_MEMBERS@ an object). With
# _bsig_jkind set (bernstein_emit --known KIND :=JSON) the second pass is the
# only one: it checks the payload's members' types when the payload closes.
_bsig_jvalue() {
  # zsh splits unquoted expansions only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_jslow=$_bsig_jkind
  _bsig_jpass "$@" && return 0
  [ "$?" -eq 4 ] && [ -z "$_bsig_jslow" ] || return 1
  _bsig_jslow=1
  _bsig_jpass "$@"
}

# _bsig_jpass TEXT [DEPTH]: one pass of _bsig_jvalue; status 4: keys out of
# order, in the first pass.
# shellcheck disable=SC2141 # IFS is a backslash on purpose
_bsig_jpass() {
  _bsig_stack='' _bsig_want=v _bsig_decode='' _bsig_instr='' _bsig_esc1='' _bsig_hi=''
  _bsig_jerr='' _bsig_strkey='' _bsig_jd=0 _bsig_jpd=0 _bsig_w='' _bsig_wn=0 _bsig_jmax=${2:-@MAX_VALUE_DEPTH@}
  _bsig_jX0='' _bsig_jW0='' _bsig_jV0='' _bsig_jVn0=0 _bsig_jWn0=0
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
  for _bsig_x in "$@"; do
    _bsig_jpiece || { [ "$?" -eq 3 ] && continue; return 1; }
    _bsig_jquotes "$_bsig_x" || return
  done
  [ "$_bsig_want" = n ] && [ -z "$_bsig_stack" ] && [ -z "$_bsig_instr" ] || return 1
  _bsig_jtake
}

# _bsig_jquotes TEXT: a piece of a key:= value without backslashes: each quote
# opens or closes a string; text in a string is checked and written, text
# outside read as structure.
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
        _bsig_jput '"'
        if [ -n "$_bsig_strkey" ]; then
          _bsig_want=c
          _bsig_jkey || return
        else
          _bsig_want=n
        fi
      else
        case $_bsig_want in
          v | a) _bsig_strkey='' ;;
          o | k) _bsig_strkey=1 && _bsig_acc_start ;;
          *) return 1 ;;
        esac
        _bsig_instr=1
        _bsig_jput '"'
      fi
    fi
    if [ -n "$_bsig_instr" ]; then
      [ -z "$_bsig_hi" ] || [ -z "$_bsig_sp" ] || return 1
      case $_bsig_sp in *["$_bsig_ctl"]*) return 1 ;; esac
      if [ -n "$_bsig_sp" ]; then
        _bsig_jput "$_bsig_sp"
        [ -z "$_bsig_strkey" ] || _bsig_acc "$_bsig_sp"
      fi
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
        \{*) _bsig_want=k && _bsig_jcomma ;;
        \[*) _bsig_want=v && _bsig_jput , ;;
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
            [ "${#_bsig_stack}" -lt "$_bsig_jmax" ] || return 1
            _bsig_stack="{$_bsig_stack" _bsig_want=o _bsig_s=${_bsig_s#?}
            _bsig_jopen
            ;;
          \[*)
            [ "${#_bsig_stack}" -lt "$_bsig_jmax" ] || return 1
            _bsig_stack="[$_bsig_stack" _bsig_want=a _bsig_s=${_bsig_s#?}
            _bsig_jput '['
            ;;
          true*) _bsig_s=${_bsig_s#true} _bsig_want=n && _bsig_jput true ;;
          false*) _bsig_s=${_bsig_s#false} _bsig_want=n && _bsig_jput false ;;
          null*) _bsig_s=${_bsig_s#null} _bsig_want=n && _bsig_jput null ;;
          [-0123456789]*)
            _bsig_jnum || return 1
            _bsig_want=n
            _bsig_jput "$_bsig_jno"
            ;;
          \]*)
            [ "$_bsig_want" = a ] || return 1
            _bsig_stack=${_bsig_stack#?} _bsig_want=n _bsig_s=${_bsig_s#?}
            _bsig_jput ']'
            ;;
          *) return 1 ;;
        esac
        ;;
      o)
        case $_bsig_s in
          \}*)
            _bsig_stack=${_bsig_stack#?} _bsig_want=n _bsig_s=${_bsig_s#?}
            _bsig_jshut '' || return 1
            ;;
          *) return 1 ;;
        esac
        ;;
      c)
        case $_bsig_s in :*) _bsig_want=v _bsig_s=${_bsig_s#?} ;; *) return 1 ;; esac
        [ -n "$_bsig_jslow" ] || _bsig_jput :
        ;;
      n)
        case ${_bsig_stack%"${_bsig_stack#?}"}$_bsig_s in
          \{,*) _bsig_want=k _bsig_s=${_bsig_s#?} && _bsig_jcomma ;;
          \[,*) _bsig_want=v _bsig_s=${_bsig_s#?} && _bsig_jput , ;;
          \{\}*)
            _bsig_stack=${_bsig_stack#?} _bsig_s=${_bsig_s#?}
            _bsig_jshut 1 || return 1
            ;;
          \[\]*) _bsig_stack=${_bsig_stack#?} _bsig_s=${_bsig_s#?} && _bsig_jput ']' ;;
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

