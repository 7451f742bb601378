# -- the fence: the key taken when the library is sourced ------------------------

# _bsig_Fno PROBLEM: no key could be taken; the library stops the shell when sourced
# (one line on stderr and an unmarked FAILED saying why, exit status
# @FENCE_KEY_REFUSED_STATUS@): unkeyed, every line it wrote would be refused.
_bsig_Fno() { _bsig_Fwhy="no signal key: $1"; }

# _bsig_Fpad BYTE: the state after compressing the secret XOR BYTE (an HMAC pad).
_bsig_Fpad() {
  _bsig_sha_iv
  _bsig_Fx=$_bsig_Fsec _bsig_Fc=0
  while [ "$_bsig_Fc" -lt 16 ]; do
    if [ -n "$_bsig_Fx" ]; then
      _bsig_Fr=${_bsig_Fx#????????}
      eval "_bsig_W$_bsig_Fc=\$((0x\${_bsig_Fx%\"\$_bsig_Fr\"} ^ $1))"
      _bsig_Fx=$_bsig_Fr
    else
      eval "_bsig_W$_bsig_Fc=\$(($1))"
    fi
    _bsig_Fc=$((_bsig_Fc + 1))
  done
  _bsig_sha_block
}

# _bsig_Fread_t: whether read has -t (a timeout): not in dash.
_bsig_Fread_t() {
  # shellcheck disable=SC3045 # the point is to find out
  case $_bsig_sh in
    sh) (IFS= read -r -t 0 _bsig_Fx </dev/null) 2>/dev/null || [ "$?" -le 1 ] ;;
    *) return 0 ;;
  esac
}

# _bsig_Ftake: take the key from the environment (the start-up step).
_bsig_Ftake() {
  # zsh puts back on return an xtrace that _bsig_enter turned off: off here too.
  case $_bsig_sh in zsh) setopt localoptions noxtrace noverbose ;; esac
  _bsig_Fx=${@FENCE_KEY_FD_VARIABLE@-} _bsig_Fr=${@FENCE_KEY_FD_VARIABLE@+1}
  _bsig_Fc=${@FENCE_KEY_VARIABLE@-} _bsig_Fp=${@FENCE_KEY_VARIABLE@+1}
  unset @FENCE_KEY_FD_VARIABLE@ @FENCE_KEY_VARIABLE@
  [ -n "$_bsig_Fr$_bsig_Fp" ] || return 0
  _bsig_Fsrc=@FENCE_KEY_VARIABLE@
  if [ -n "$_bsig_Fr" ]; then
    case $_bsig_Fx in
      [@FENCE_KEY_FDS@]) ;;
      *)
        _bsig_Fno "@FENCE_KEY_FD_VARIABLE@ is not a descriptor number @FENCE_KEY_FD_RANGE@"
        return 0
        ;;
    esac
    _bsig_Fsrc="the text on fd $_bsig_Fx (@FENCE_KEY_FD_VARIABLE@)"
    _bsig_Fc=''
    # The number is one digit: safe in eval.
    if { eval "true <&$_bsig_Fx"; } 2>/dev/null; then :; else
      eval "exec $_bsig_Fx<&-"
      _bsig_Fno "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, which cannot be read"
      return 0
    fi
    # A socket only: /proc/PID/fd/N reopens a pipe or a file for any process of
    # this user, which could take the key or swap in its own first; a terminal
    # or a device could make read wait or never end.
    if [ ! -S "/dev/fd/$_bsig_Fx" ]; then
      if [ -p "/dev/fd/$_bsig_Fx" ]; then
        _bsig_Fy="a pipe, @FENCE_KEY_EXPOSED@"
      elif [ -f "/dev/fd/$_bsig_Fx" ]; then
        _bsig_Fy="a file, @FENCE_KEY_EXPOSED@"
      else
        _bsig_Fy="not a socket"
      fi
      eval "exec $_bsig_Fx<&-"
      _bsig_Fno "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, $_bsig_Fy"
      _bsig_Fy=''
      return 0
    fi
    # A writer that keeps its end open must not hang the script: read -t
    # where the shell has it (dash has not: there the orchestrator must close it).
    _bsig_Fst=0
    if [ "$_bsig_sh" = zsh ]; then
      # zsh's read -t waits for the first character only: one at a time, each
      # for what is left of the whole wait (a float SECONDS, local to this function).
      # shellcheck disable=SC3043 # zsh only: a float clock, local to this call
      local -F SECONDS=0
      _bsig_Fr=0
      # shellcheck disable=SC3028 # the float clock above
      while [ "$_bsig_Fr" -le @FENCE_KEY_BYTES@ ]; do
        _bsig_Fy=$((@FENCE_KEY_READ_SECONDS@ - SECONDS))
        if [ "$((_bsig_Fy > 0))" = 0 ] ||
          ! eval "read -r -t $_bsig_Fy -k 1 -u $_bsig_Fx _bsig_Fy" 2>/dev/null; then
          [ "$((SECONDS < @FENCE_KEY_READ_SECONDS@))" = 1 ] || _bsig_Fst=129
          break
        fi
        [ "$_bsig_Fy" != "$_bsig_nl" ] || break
        _bsig_Fc=$_bsig_Fc$_bsig_Fy _bsig_Fr=$((_bsig_Fr + 1))
      done
      _bsig_Fy=''
    elif _bsig_Fread_t; then
      { eval "IFS= read -r -t @FENCE_KEY_READ_SECONDS@ _bsig_Fc <&$_bsig_Fx"; } 2>/dev/null || _bsig_Fst=$?
    else
      { eval "IFS= read -r _bsig_Fc <&$_bsig_Fx"; } 2>/dev/null || :
    fi
    if [ "$_bsig_Fst" -gt 128 ]; then
      eval "exec $_bsig_Fx<&-"
      _bsig_Fno "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, which gave no whole key within @FENCE_KEY_READ_SECONDS@ s (its writer did not close it)"
      return 0
    fi
    eval "exec $_bsig_Fx<&-"
  fi
  _bsig_Fc=${_bsig_Fc%"$_bsig_nl"}
  case $_bsig_Fc in
    @FENCE_KEY_PATTERN@) ;;
    *)
      _bsig_Fc=''
      _bsig_Fno "$_bsig_Fsrc is not a signal key: @FENCE_KEY_SHAPE@"
      return 0
      ;;
  esac
  _bsig_Frun=${_bsig_Fc%%:*} _bsig_Fsec=${_bsig_Fc#*:} _bsig_Fc='' _bsig_Fseq=0
  _bsig_Fpad 0x36363636
  _bsig_Fi0=$_bsig_H0 _bsig_Fi1=$_bsig_H1 _bsig_Fi2=$_bsig_H2 _bsig_Fi3=$_bsig_H3
  _bsig_Fi4=$_bsig_H4 _bsig_Fi5=$_bsig_H5 _bsig_Fi6=$_bsig_H6 _bsig_Fi7=$_bsig_H7
  _bsig_Fpad 0x5c5c5c5c
  _bsig_Fo0=$_bsig_H0 _bsig_Fo1=$_bsig_H1 _bsig_Fo2=$_bsig_H2 _bsig_Fo3=$_bsig_H3
  _bsig_Fo4=$_bsig_H4 _bsig_Fo5=$_bsig_H5 _bsig_Fo6=$_bsig_H6 _bsig_Fo7=$_bsig_H7
  _bsig_Fsec='' _bsig_Fx=''
  _bsig_sha_wipe
  _bsig_Fn0=0 _bsig_Fn1=1 _bsig_Fn2=2 _bsig_Fn3=3 _bsig_Fn4=4 _bsig_Fn5=5 _bsig_Fn6=6 _bsig_Fn7=7
  _bsig_Fn8=8 _bsig_Fn9=9 _bsig_Fn10=a _bsig_Fn11=b _bsig_Fn12=c _bsig_Fn13=d _bsig_Fn14=e _bsig_Fn15=f
  case $_bsig_sh in
    mksh) _bsig_Fbt=$(command print -n '@FENCE_BYTES_MKSH@') ;;
    *) _bsig_Fbt=$(command printf '@FENCE_BYTES@') ;;
  esac
  # The byte 0x80 (the padding's first), alone: this locale may not cut it out of _bsig_Fbt.
  case $_bsig_sh in
    bash | zsh | ksh) _bsig_F80=$($_bsig_bi printf '\200') ;;
  esac
  # Substrings (${VAR:OFFSET:LENGTH}) where the shell has them (not dash).
  _bsig_Fsub=''
  # shellcheck disable=SC3057 # the point is to find out
  if (eval '_bsig_Fx=abc; [ "${_bsig_Fx:1:1}" = b ]') 2>/dev/null; then _bsig_Fsub=1; fi
  # The most lines a shell marks: mksh counts in 32 bits.
  case $_bsig_sh in
    mksh) _bsig_Fmax=2147483647 ;;
    *) _bsig_Fmax=@FENCE_MAX_SEQUENCE@ ;;
  esac
  # The shell that took the key: only it marks (_bsig_Fhere).
  _bsig_Fpid=''
  if _bsig_Fwhere; then _bsig_Fpid=$_bsig_Fx; fi
  _bsig_Fx=''
  _bsig_Fkey=1
}

# Taken now, untraced and unexported (the caller's options come back after).
{ _bsig_enter; } 2>/dev/null
_bsig_Fwhy=''
_bsig_Ftake
_bsig_st=0
_bsig_leave
case $_bsig_Fwhy in
  ?*)
    _bsig_fn=bernstein-signals
    _bsig_err "$_bsig_Fwhy"
    bernstein_failed --@FAILED_REASON@ "$_bsig_Fwhy" || :
    exit @FENCE_KEY_REFUSED_STATUS@
    ;;
esac
