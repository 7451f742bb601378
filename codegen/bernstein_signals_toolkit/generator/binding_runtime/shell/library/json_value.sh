# -- key:=JSON read (written by json_number and json_write, spec/canonical-form.md) --

# _bsig_lt A B: is A before B in byte order? bash and zsh run the helpers in
# the C locale; ksh93's test compares by the caller's collation, so there the
# comparison alone runs in the C locale (mksh, dash and busybox compare bytes).
case $_bsig_sh in
  # zsh's [[ < ]] puts bytes 0x83-0x9F (kept in its internal Meta encoding) after
  # 0xA0, even in the C locale; its (o) sort orders them as bytes.
  zsh) _bsig_lt() { eval 'local -a _bsig_lts; _bsig_lts=("$2" "$1"); _bsig_lts=("${(@o)_bsig_lts}"); [[ $1 != "$2" && $_bsig_lts[1] == "$1" ]]'; } ;;
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

