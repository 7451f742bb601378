# -- key:=JSON numbers: the limits, and doubles written in canonical form ---------

# _bsig_jnum: consume the JSON number at the start of _bsig_s, within the
# binding's limits, and write it canonically into _bsig_jno. An integer (no
# fraction, no exponent) keeps its digits (at most @MAX_INTEGER_DIGITS@; -0 is
# 0). A number with a fraction or an exponent is a double, written as
# ECMAScript's Number::toString: exact here for at most @FLOAT_DIGITS@ significant
# digits and a decimal exponent from @FLOAT_EXPONENT_MIN@ (a decimal of that many
# digits reads back from its double unchanged, so its own digits are the
# shortest); past that _bsig_jerr says why. A double must not round to infinity.
# The text left (_bsig_s) is at most _bsig_jnmax characters (the longest
# integer, inside the deepest nesting): pattern expansions on longer text take
# quadratic time in some shells (bash), so longer text is refused first.
_bsig_jnum() {
  if [ "${#_bsig_s}" -gt "$_bsig_jnmax" ]; then
    _bsig_jtok=$_bsig_s
    _bsig_jcut
    _bsig_jerr="number $_bsig_x has more than $_bsig_jnmax characters: the shell helpers refuse it; write at most @FLOAT_DIGITS@ significant digits, or an integer of at most @MAX_INTEGER_DIGITS@ digits"
    return 1
  fi
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

# The longest number text: a sign and the longest integer, a bracket and a
# space on each side of each level of the deepest nesting.
_bsig_jnmax=$((@MAX_INTEGER_DIGITS@ + 1 + 4 * (@MAX_VALUE_DEPTH@ + 1)))

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

# _bsig_jcut: _bsig_x becomes the number as given, cut to 40 characters for a
# message: one character at a time, by a case (cutting a long literal prefix
# or suffix takes quadratic time in some shells).
_bsig_jcut() {
  _bsig_x='' _bsig_y=$_bsig_jtok _bsig_dk=0
  while [ -n "$_bsig_y" ]; do
    if [ "$_bsig_dk" -ge 40 ]; then
      _bsig_x=$_bsig_x...
      break
    fi
    case $_bsig_y in
      0*) _bsig_x=${_bsig_x}0 ;; 1*) _bsig_x=${_bsig_x}1 ;; 2*) _bsig_x=${_bsig_x}2 ;;
      3*) _bsig_x=${_bsig_x}3 ;; 4*) _bsig_x=${_bsig_x}4 ;; 5*) _bsig_x=${_bsig_x}5 ;;
      6*) _bsig_x=${_bsig_x}6 ;; 7*) _bsig_x=${_bsig_x}7 ;; 8*) _bsig_x=${_bsig_x}8 ;;
      9*) _bsig_x=${_bsig_x}9 ;; e*) _bsig_x=${_bsig_x}e ;; E*) _bsig_x=${_bsig_x}E ;;
      .*) _bsig_x=$_bsig_x. ;; +*) _bsig_x=$_bsig_x+ ;; -*) _bsig_x=$_bsig_x- ;;
      *) break ;;
    esac
    _bsig_y=${_bsig_y#?} _bsig_dk=$((_bsig_dk + 1))
  done
  _bsig_y=''
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

