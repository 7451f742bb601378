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

# -- key:=JSON: checked and written in canonical form (spec/canonical-form.md) -----

# _bsig_jnum: consume the JSON number at the start of _bsig_s, within the
# binding's limits, and write it canonically into _bsig_jno. An integer (no
# fraction, no exponent) keeps its digits (at most @MAX_INTEGER_DIGITS@; -0 is
# 0). A number with a fraction or an exponent is a double, written as
# ECMAScript's Number::toString: exact here for at most @FLOAT_DIGITS@ significant
# digits and a decimal exponent from @FLOAT_EXPONENT_MIN@ (a decimal of that many
# digits reads back from its double unchanged, so its own digits are the
# shortest); past that _bsig_jerr says why. A double must not round to infinity.
_bsig_jnum() {
  _bsig_q=${_bsig_s%%[!0123456789eE.+-]*}
  _bsig_s=${_bsig_s#"$_bsig_q"}
  _bsig_jtok=$_bsig_q _bsig_sg=''
  case $_bsig_q in -*) _bsig_sg=- ;; esac
  _bsig_q=${_bsig_q#-}
  _bsig_ni=${_bsig_q%%[!0123456789]*} _bsig_nf='' _bsig_ne='' _bsig_es='' _bsig_nx=''
  case $_bsig_ni in 0 | [123456789]*) ;; *) return 1 ;; esac
  case $_bsig_ni in 0?*) return 1 ;; esac
  _bsig_q=${_bsig_q#"$_bsig_ni"}
  case $_bsig_q in
    .[0123456789]*)
      _bsig_q=${_bsig_q#.}
      _bsig_nf=${_bsig_q%%[!0123456789]*}
      _bsig_q=${_bsig_q#"$_bsig_nf"}
      _bsig_nx=1
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
      _bsig_nx=1
      ;;
  esac
  [ -z "$_bsig_q" ] || return 1
  if [ -z "$_bsig_nx" ]; then
    if [ "${#_bsig_ni}" -gt @MAX_INTEGER_DIGITS@ ]; then
      _bsig_jcut
      _bsig_jerr="integer $_bsig_x has more than @MAX_INTEGER_DIGITS@ digits, more than readers accept"
      return 1
    fi
    _bsig_jno=$_bsig_sg$_bsig_ni
    [ "$_bsig_ni" != 0 ] || _bsig_jno=0
    return 0
  fi
  if ! _bsig_finite; then
    _bsig_jcut
    _bsig_jerr="number $_bsig_x is past the double range (it reads as infinity, which JSON cannot carry)"
    return 1
  fi
  _bsig_double
}

# _bsig_finite: is the number in _bsig_ni._bsig_nf e _bsig_es _bsig_ne below
# the least value a double rounds to infinity (as Python's float() decides)?
# That value is 0.D x 10^E with D and E from the emitter; the number is
# 0.d x 10^e with d its digits without leading zeros (_bsig_d, exponent
# _bsig_e; _bsig_d empty for zero).
_bsig_finite() {
  _bsig_d=$_bsig_ni$_bsig_nf
  _bsig_z=${_bsig_d%%[!0]*}
  _bsig_e=0
  if [ "$_bsig_z" = "$_bsig_d" ]; then
    _bsig_d=''
    return 0
  fi
  _bsig_d=${_bsig_d#"$_bsig_z"}
  _bsig_ne=${_bsig_ne#"${_bsig_ne%%[!0]*}"}
  if [ "${#_bsig_ne}" -gt 8 ]; then
    # Far below the double range: a refusal for _bsig_double to explain.
    [ "$_bsig_es" = - ] || return 1
    _bsig_e=-999999999
    return 0
  fi
  _bsig_e=$((${#_bsig_ni} - ${#_bsig_z} + $_bsig_es${_bsig_ne:-0}))
  [ "$_bsig_e" -le @FLOAT_LIMIT_EXPONENT@ ] || return 1
  [ "$_bsig_e" -eq @FLOAT_LIMIT_EXPONENT@ ] || return 0
  _bsig_lt "$_bsig_d" @FLOAT_LIMIT_DIGITS@
}

# _bsig_jcut: _bsig_x becomes the number as given, cut for a message.
_bsig_jcut() {
  _bsig_x=$_bsig_jtok
  [ "${#_bsig_x}" -le 40 ] || _bsig_x="${_bsig_x%"${_bsig_x#????????????????????????????????????????}"}..."
}

# _bsig_double: _bsig_jno becomes the double 0._bsig_d x 10^_bsig_e (sign
# _bsig_sg) as Number::toString writes it, or _bsig_jerr says why it cannot be.
_bsig_double() {
  if [ -z "$_bsig_d" ]; then
    _bsig_jno=0
    return 0
  fi
  _bsig_d=${_bsig_d%"${_bsig_d##*[!0]}"}
  if [ "${#_bsig_d}" -gt @FLOAT_DIGITS@ ]; then
    _bsig_jcut
    _bsig_jerr="number $_bsig_x has more than @FLOAT_DIGITS@ significant digits: the shell helpers cannot round it as a double; write at most @FLOAT_DIGITS@, or an integer"
    return 1
  fi
  if [ "$_bsig_e" -le @FLOAT_EXPONENT_MIN@ ]; then
    _bsig_jcut
    _bsig_jerr="number $_bsig_x is below 1e@FLOAT_EXPONENT_MIN@, where doubles lose digits: the shell helpers cannot round it; write 0 or a larger number"
    return 1
  fi
  # Number::toString with k digits and the point after digit n (= _bsig_e).
  if [ "$_bsig_e" -ge "${#_bsig_d}" ] && [ "$_bsig_e" -le 21 ]; then
    _bsig_times $((_bsig_e - ${#_bsig_d})) 0
    _bsig_jno=$_bsig_d$_bsig_r
  elif [ "$_bsig_e" -gt 0 ] && [ "$_bsig_e" -le 21 ]; then
    # The first _bsig_e digits, one at a time (at most 15).
    _bsig_x=$_bsig_d _bsig_y='' _bsig_dk=0
    while [ "$_bsig_dk" -lt "$_bsig_e" ]; do
      _bsig_y=$_bsig_y${_bsig_x%"${_bsig_x#?}"} _bsig_x=${_bsig_x#?} _bsig_dk=$((_bsig_dk + 1))
    done
    _bsig_jno=$_bsig_y.$_bsig_x
  elif [ "$_bsig_e" -gt -6 ] && [ "$_bsig_e" -le 0 ]; then
    _bsig_times $((-_bsig_e)) 0
    _bsig_jno=0.$_bsig_r$_bsig_d
  else
    _bsig_x=${_bsig_d#?}
    [ -z "$_bsig_x" ] || _bsig_x=.$_bsig_x
    if [ "$_bsig_e" -gt 0 ]; then _bsig_y=+$((_bsig_e - 1)); else _bsig_y=$((_bsig_e - 1)); fi
    _bsig_jno=${_bsig_d%"${_bsig_d#?}"}${_bsig_x}e$_bsig_y
  fi
  _bsig_jno=$_bsig_sg$_bsig_jno
}

# _bsig_lt A B: is A before B in byte order?
case $_bsig_sh in
  zsh) _bsig_lt() { eval '[[ $1 < $2 ]]'; } ;;
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

# -- the text being built: one level per open object ---------------------------------
# Level 0 is the whole value; level N (N objects open) holds the member of the
# innermost object being read. A member's key and value are kept apart until
# the object closes, then written in key order into the level below. Each
# level appends through buffers flushed into bigger ones (as _bsig_acc does),
# so every byte is copied a bounded number of times per level.

# _bsig_jput TEXT: append TEXT at the current level.
_bsig_jput() {
  _bsig_w=$_bsig_w$1
  _bsig_wn=$((_bsig_wn + 1))
  [ "$_bsig_wn" -lt 16 ] || _bsig_jflush
}

# _bsig_jflush: the small buffer into the current level's buffers.
_bsig_jflush() {
  _bsig_wn=0
  [ -n "$_bsig_w" ] || return 0
  eval "_bsig_jV$_bsig_jd=\$_bsig_jV$_bsig_jd\$_bsig_w _bsig_jVn$_bsig_jd=\$((_bsig_jVn$_bsig_jd + 1))"
  _bsig_w=''
  eval "_bsig_y=\$_bsig_jVn$_bsig_jd"
  [ "$_bsig_y" -ge 16 ] || return 0
  eval "_bsig_jW$_bsig_jd=\$_bsig_jW$_bsig_jd\$_bsig_jV$_bsig_jd _bsig_jV$_bsig_jd='' _bsig_jVn$_bsig_jd=0"
  eval "_bsig_jWn$_bsig_jd=\$((_bsig_jWn$_bsig_jd + 1)) _bsig_y=\$_bsig_jWn$_bsig_jd"
  [ "$_bsig_y" -ge 16 ] || return 0
  eval "_bsig_jX$_bsig_jd=\$_bsig_jX$_bsig_jd\$_bsig_jW$_bsig_jd _bsig_jW$_bsig_jd='' _bsig_jWn$_bsig_jd=0"
}

# _bsig_jtake: the current level's text into _bsig_j; the level is empty again.
_bsig_jtake() {
  _bsig_jflush
  eval "_bsig_j=\$_bsig_jX$_bsig_jd\$_bsig_jW$_bsig_jd\$_bsig_jV$_bsig_jd"
  eval "_bsig_jX$_bsig_jd='' _bsig_jW$_bsig_jd='' _bsig_jV$_bsig_jd='' _bsig_jVn$_bsig_jd=0 _bsig_jWn$_bsig_jd=0"
}

# _bsig_jopen: an object opens. First pass: written at once (all at level 0),
# its keys checked against the one before (_bsig_jP at depth _bsig_jpd, empty
# for none). Second pass: a new
# level, no member yet, in order so far.
_bsig_jopen() {
  if [ -z "$_bsig_jslow" ]; then
    _bsig_jput '{'
    _bsig_jpd=$((_bsig_jpd + 1))
    eval "_bsig_jP$_bsig_jpd=''"
    return 0
  fi
  _bsig_jflush
  _bsig_jd=$((_bsig_jd + 1))
  eval "_bsig_jn$_bsig_jd=0 _bsig_jo$_bsig_jd=1"
  eval "_bsig_jX$_bsig_jd='' _bsig_jW$_bsig_jd='' _bsig_jV$_bsig_jd='' _bsig_jVn$_bsig_jd=0 _bsig_jWn$_bsig_jd=0"
}

# _bsig_jkey: a key has closed. Its sort key (in _bsig_acc: the characters,
# with controls as \001 and two digits, and EE/EF lead bytes as F8/F9 so that
# byte order is UTF-16 code unit order) is compared with the one before: in
# the first pass, a key not after it ends the pass (status 4); in the second,
# the key's text and sort key are kept as the object's next member, a key
# equal to the one before is refused, one before it marks the object for
# sorting.
_bsig_jkey() {
  _bsig_acc_end
  [ -n "$_bsig_jB32" ] || _bsig_jbytes_init
  # shellcheck disable=SC2154 # _bsig_jbytes_init sets _bsig_jB32 to _bsig_jB255
  case $_bsig_j in
    *"$_bsig_jB238"* | *"$_bsig_jB239"*)
      _bsig_repl "$_bsig_jB238" "$_bsig_jB248"
      _bsig_repl "$_bsig_jB239" "$_bsig_jB249"
      ;;
  esac
  _bsig_kc=$_bsig_j
  if [ -z "$_bsig_jslow" ]; then
    eval "_bsig_y=\$_bsig_jP$_bsig_jpd _bsig_jP$_bsig_jpd=x\$_bsig_kc"
    [ -n "$_bsig_y" ] || return 0
    _bsig_y=${_bsig_y#x}
    if [ "$_bsig_y" = "$_bsig_kc" ] || _bsig_lt "$_bsig_kc" "$_bsig_y"; then return 4; fi
    return 0
  fi
  _bsig_jtake
  eval "_bsig_jm=\$((_bsig_jn$_bsig_jd + 1))"
  eval "_bsig_jn$_bsig_jd=\$_bsig_jm _bsig_jK${_bsig_jd}_$_bsig_jm=\$_bsig_kc _bsig_jT${_bsig_jd}_$_bsig_jm=\$_bsig_j"
  [ "$_bsig_jm" -gt 1 ] || return 0
  eval "_bsig_y=\$_bsig_jo$_bsig_jd"
  [ -n "$_bsig_y" ] || return 0
  eval "_bsig_y=\$_bsig_jK${_bsig_jd}_$((_bsig_jm - 1))"
  if [ "$_bsig_y" = "$_bsig_kc" ]; then
    _bsig_jerr="key $_bsig_j given twice in one object"
    return 1
  fi
  _bsig_lt "$_bsig_kc" "$_bsig_y" || return 0
  eval "_bsig_y=\$_bsig_jT${_bsig_jd}_$((_bsig_jm - 1))"
  eval "_bsig_jo$_bsig_jd='' _bsig_jF$_bsig_jd=\"\$_bsig_j before \$_bsig_y\""
}

# _bsig_jcomma: a comma between an object's members.
_bsig_jcomma() {
  if [ -n "$_bsig_jslow" ]; then _bsig_jmember; else _bsig_jput ,; fi
}

# _bsig_jshut AFTER-MEMBER: the innermost object closes (AFTER-MEMBER set:
# after a member, not empty).
_bsig_jshut() {
  if [ -z "$_bsig_jslow" ]; then
    _bsig_jput '}'
    _bsig_jpd=$((_bsig_jpd - 1))
    return 0
  fi
  [ -z "$1" ] || _bsig_jmember
  _bsig_jclose
}

# _bsig_jmember: the member being read ends: its value's text is kept.
_bsig_jmember() {
  _bsig_jtake
  eval "_bsig_jm=\$_bsig_jn$_bsig_jd"
  eval "_bsig_jA${_bsig_jd}_$_bsig_jm=\$_bsig_j"
}

# _bsig_jclose: the innermost object closes: its members, in key order, go
# into the level below as one object.
_bsig_jclose() {
  _bsig_jl=$_bsig_jd _bsig_jc=0
  eval "_bsig_jc=\$_bsig_jn$_bsig_jl"
  eval "_bsig_y=\$_bsig_jo$_bsig_jl"
  _bsig_jorder=''
  if [ -n "$_bsig_y" ]; then
    _bsig_jm=0
    while [ "$_bsig_jm" -lt "$_bsig_jc" ]; do
      _bsig_jm=$((_bsig_jm + 1))
      _bsig_jorder="$_bsig_jorder $_bsig_jm"
    done
  else
    _bsig_jsort || return 1
  fi
  _bsig_jd=$((_bsig_jl - 1))
  _bsig_jput '{'
  _bsig_y=''
  for _bsig_jm in $_bsig_jorder; do
    eval "_bsig_x=\$_bsig_jT${_bsig_jl}_$_bsig_jm _bsig_q=\$_bsig_jA${_bsig_jl}_$_bsig_jm"
    eval "_bsig_jT${_bsig_jl}_$_bsig_jm='' _bsig_jA${_bsig_jl}_$_bsig_jm='' _bsig_jK${_bsig_jl}_$_bsig_jm=''"
    # The payload's own fields (bernstein_emit --known KIND :=JSON): their types.
    if [ -n "$_bsig_jkind" ] && [ "$_bsig_jl" -eq 1 ]; then
      _bsig_jsep=$_bsig_y _bsig_jkt=${_bsig_x#\"}
      _bsig_jfield "$_bsig_jkind" "${_bsig_jkt%\"}" "$_bsig_q" || { _bsig_jerr=field; return 1; }
      _bsig_x=\"$_bsig_jkt _bsig_y=$_bsig_jsep
    fi
    _bsig_jput "$_bsig_y$_bsig_x:"
    _bsig_jput "$_bsig_q"
    _bsig_y=,
  done
  _bsig_jput '}'
  _bsig_x='' _bsig_q=''
}

# _bsig_jsort: _bsig_jorder becomes the members of level _bsig_jl in key
# order, by insertion: at most @MAX_SORTED_MEMBERS@ members, so the cost stays
# bounded; a bigger object must come with its keys in order.
_bsig_jsort() {
  if [ "$_bsig_jc" -gt @MAX_SORTED_MEMBERS@ ]; then
    eval "_bsig_y=\$_bsig_jF$_bsig_jl"
    _bsig_jerr="an object of more than @MAX_SORTED_MEMBERS@ members must have its keys in canonical order (UTF-16 code units): $_bsig_y"
    return 1
  fi
  _bsig_jm=0
  while [ "$_bsig_jm" -lt "$_bsig_jc" ]; do
    _bsig_jm=$((_bsig_jm + 1))
    eval "_bsig_kc=\$_bsig_jK${_bsig_jl}_$_bsig_jm"
    _bsig_jb='' _bsig_ja=''
    for _bsig_e in $_bsig_jorder; do
      if [ -z "$_bsig_ja" ]; then
        eval "_bsig_y=\$_bsig_jK${_bsig_jl}_$_bsig_e"
        if [ "$_bsig_y" = "$_bsig_kc" ]; then
          eval "_bsig_y=\$_bsig_jT${_bsig_jl}_$_bsig_jm"
          _bsig_jerr="key $_bsig_y given twice in one object"
          return 1
        fi
        ! _bsig_lt "$_bsig_kc" "$_bsig_y" || _bsig_ja=" $_bsig_jm"
      fi
      if [ -n "$_bsig_ja" ]; then _bsig_ja="$_bsig_ja $_bsig_e"; else _bsig_jb="$_bsig_jb $_bsig_e"; fi
    done
    [ -n "$_bsig_ja" ] || _bsig_ja=" $_bsig_jm"
    _bsig_jorder=$_bsig_jb$_bsig_ja
  done
}

# _bsig_jcp: the character _bsig_cp of an escape. Decoding a reply: its UTF-8
# bytes go into the format (U+0000 fails). Writing key:=JSON: its canonical
# form (spec rule 3) goes into the text, and into a key's sort key.
_bsig_jcp() {
  if [ -n "$_bsig_decode" ]; then
    # The format's own escapes for the short ones, octal for the others.
    case $_bsig_cp in
      0) return 1 ;;
      34) _bsig_acc '"' ;;
      47) _bsig_acc / ;;
      92) _bsig_acc "\\\\" ;;
      8) _bsig_acc '\b' ;;
      9) _bsig_acc '\t' ;;
      10) _bsig_acc '\n' ;;
      12) _bsig_acc '\f' ;;
      13) _bsig_acc '\r' ;;
      *) _bsig_utf8 "$_bsig_cp" ;;
    esac
    return 0
  fi
  case $_bsig_cp in
    34) _bsig_jput '\"' && _bsig_y='"' ;;
    92) _bsig_jput \\\\ && _bsig_y=\\ ;;
    8) _bsig_jput '\b' && _bsig_y=${_bsig_c1}08 ;;
    9) _bsig_jput '\t' && _bsig_y=${_bsig_c1}09 ;;
    10) _bsig_jput '\n' && _bsig_y=${_bsig_c1}10 ;;
    12) _bsig_jput '\f' && _bsig_y=${_bsig_c1}12 ;;
    13) _bsig_jput '\r' && _bsig_y=${_bsig_c1}13 ;;
    133) _bsig_jput '\u0085' && _bsig_y=$_bsig_u85 ;;
    8232) _bsig_jput '\u2028' && _bsig_y=$_bsig_u2028 ;;
    8233) _bsig_jput '\u2029' && _bsig_y=$_bsig_u2029 ;;
    ? | [12]? | 3[01])
      _bsig_hx $((_bsig_cp >> 4))
      _bsig_y=$_bsig_h
      _bsig_hx $((_bsig_cp & 15))
      _bsig_jput "\\u00$_bsig_y$_bsig_h"
      _bsig_y=$_bsig_c1$((_bsig_cp / 10))$((_bsig_cp % 10))
      ;;
    *)
      _bsig_jbytes "$_bsig_cp"
      _bsig_jput "$_bsig_y"
      ;;
  esac
  [ -z "$_bsig_strkey" ] || _bsig_acc "$_bsig_y"
}

# _bsig_hx N: _bsig_h becomes the lowercase hex digit of N (0 to 15).
_bsig_hx() {
  case $1 in
    10) _bsig_h=a ;; 11) _bsig_h=b ;; 12) _bsig_h=c ;; 13) _bsig_h=d ;; 14) _bsig_h=e ;; 15) _bsig_h=f ;;
    *) _bsig_h=$1 ;;
  esac
}

# _bsig_jbytes CODE: _bsig_y becomes the UTF-8 bytes of CODE (32 or more),
# from one variable per byte, made once (one printf) at first use.
_bsig_jbytes() {
  [ -n "$_bsig_jB32" ] || _bsig_jbytes_init
  if [ "$1" -lt 128 ]; then
    eval "_bsig_y=\$_bsig_jB$1"
  elif [ "$1" -lt 2048 ]; then
    eval "_bsig_y=\$_bsig_jB$((192 | ($1 >> 6)))\$_bsig_jB$((128 | ($1 & 63)))"
  elif [ "$1" -lt 65536 ]; then
    eval "_bsig_y=\$_bsig_jB$((224 | ($1 >> 12)))\$_bsig_jB$((128 | (($1 >> 6) & 63)))\$_bsig_jB$((128 | ($1 & 63)))"
  else
    eval "_bsig_y=\$_bsig_jB$((240 | ($1 >> 18)))\$_bsig_jB$((128 | (($1 >> 12) & 63)))\$_bsig_jB$((128 | (($1 >> 6) & 63)))\$_bsig_jB$((128 | ($1 & 63)))"
  fi
}

# _bsig_jbytes_init: _bsig_jB32 to _bsig_jB255, one byte each.
_bsig_jbytes_init() {
  _bsig_f='' _bsig_i=32
  while [ "$_bsig_i" -lt 256 ]; do
    _bsig_f="$_bsig_f$_bsig_oct$((_bsig_i >> 6))$(((_bsig_i >> 3) & 7))$((_bsig_i & 7))\\n"
    _bsig_i=$((_bsig_i + 1))
  done
  _bsig_render
  _bsig_i=32 _bsig_f=''
  while [ "$_bsig_i" -lt 256 ]; do
    eval "_bsig_jB$_bsig_i=\${_bsig_dec%%\"\$_bsig_nl\"*}"
    _bsig_dec=${_bsig_dec#*"$_bsig_nl"}
    _bsig_i=$((_bsig_i + 1))
  done
  _bsig_dec=''
}
_bsig_jB32=''
_bsig_c1=${_bsig_ctl%"${_bsig_ctl#?}"}

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

