# -- the fence (issue 17): the key, HMAC-SHA256 in shell arithmetic, the mark ------

# Under a fenced orchestrator every line a helper writes carries
# "@FENCE_MARK_FIELD@":"RUN.SEQ.MAC", MAC = HMAC-SHA256 with the key's secret over
# the domain, RUN, SEQ, KIND and the payload text (spec/fenced-signals.md). The
# key is taken once, when this file is sourced: from the descriptor
# @FENCE_KEY_FD_VARIABLE@ names (read, then closed) or from @FENCE_KEY_VARIABLE@;
# both variables are unset, so nothing the script starts sees the key, the
# variable or the descriptor. Only the secret's HMAC pad states are kept, in
# unexported _bsig_Fi* and _bsig_Fo* variables (as good as the key: `set`
# shows them); what hashing leaves behind is wiped after the pads and each mark. SEQ counts the lines this shell marks: a
# subshell's count (a helper in $(...) or a pipeline) would not reach its
# parent, so a subshell refuses to mark (_bsig_Fhere). No program is started (SHA-256 is arithmetic), but
# dash takes a long message's bytes from od.

@FENCE_SHA256@

# Sourced again, the library keeps the key it took (the variables are gone).
_bsig_Fkey=${_bsig_Fkey-}
_bsig_Fseq=${_bsig_Fseq:-0}

# _bsig_Floop TEXT: _bsig_Fl becomes the byte values of TEXT (at most 64
# bytes, in the C locale), each after a space: a byte's value is its place in
# _bsig_Fbt, the 255 bytes other than NUL.
_bsig_Floop() {
  _bsig_Fc=$1 _bsig_Fl=''
  while [ -n "$_bsig_Fc" ]; do
    _bsig_Fr=${_bsig_Fc#?}
    _bsig_Fx=${_bsig_Fc%"$_bsig_Fr"}
    _bsig_Fc=$_bsig_Fr
    _bsig_Fx=${_bsig_Fbt%%"$_bsig_Fx"*}
    _bsig_Fl="$_bsig_Fl $((${#_bsig_Fx} + 1))"
  done
}

# _bsig_Fpadded COUNT: _bsig_Fl, the values of the last COUNT (< 64) bytes,
# becomes the last block: those, 128 (the bit after the message), zeros.
_bsig_Fpadded() {
  _bsig_Fl="$_bsig_Fl 128" _bsig_Fx=$(($1 + 1))
  while [ "$_bsig_Fx" -lt 64 ]; do _bsig_Fl="$_bsig_Fl 0" _bsig_Fx=$((_bsig_Fx + 1)); done
}

# _bsig_Fbytes TEXT (64 bytes): _bsig_Fl becomes their 64 values.
# _bsig_Ftail TEXT (under 64 bytes): _bsig_Fl becomes the last block's values.
# bash, zsh and ksh93 convert a block in one printf -v (a character past the
# end is 0, which no byte of a shell string is); mksh in one arithmetic
# expansion (1#C is the byte C); dash and busybox one byte at a time.
case $_bsig_sh in
  bash | zsh | ksh)
    _bsig_Fbytes() {
      _bsig_Fc=$1
      # shellcheck disable=SC3045,SC3057 # printf -v and substrings: these shells
      $_bsig_bi printf -v _bsig_Fl ' %d' @FENCE_PRINTF_ARGS@ 2>/dev/null
    }
    _bsig_Ftail() {
      _bsig_Fbytes "$1$_bsig_F80"
    }
    ;;
  mksh)
    # A string for eval: other shells' parsers (and shellcheck) lack 1#C.
    eval '_bsig_Fbytes() { _bsig_Fc=$1 _bsig_Fl="@FENCE_MKSH_ARGS@"; }'
    _bsig_Ftail() {
      _bsig_Floop "$1"
      _bsig_Fpadded "${#1}"
    }
    ;;
  *)
    _bsig_Fbytes() {
      _bsig_Floop "$1"
    }
    _bsig_Ftail() {
      _bsig_Floop "$1"
      _bsig_Fpadded "${#1}"
    }
    ;;
esac

# _bsig_Fblock BYTES: compress one block given as 64 byte values.
_bsig_Fblock() {
  # shellcheck disable=SC2086 # byte values: split on purpose
  eval "_bsig_sha_words $1"
  _bsig_sha_block
}

# _bsig_Fod TEXT: dash, whose only way to cut a long string is quadratic or
# worse, reads a long TEXT's byte values from od (POSIX) and compresses its
# whole blocks; _bsig_Fl becomes the rest. Status 1 (nothing compressed)
# when od fails or its count is wrong: the caller cuts TEXT itself.
_bsig_Fod() {
  _bsig_Fl=$(command printf '%s' "$1" | command od -An -v -tu1 2>/dev/null) || return 1
  _bsig_Fx=0
  # shellcheck disable=SC2086 # byte values: split on purpose
  for _bsig_Fc in $_bsig_Fl; do _bsig_Fx=$((_bsig_Fx + 1)); done
  [ "$_bsig_Fx" -eq "${#1}" ] || return 1
  _bsig_Fx=0 _bsig_Fr=''
  # shellcheck disable=SC2086 # byte values: split on purpose
  for _bsig_Fc in $_bsig_Fl; do
    _bsig_Fr="$_bsig_Fr $_bsig_Fc" _bsig_Fx=$((_bsig_Fx + 1))
    if [ "$_bsig_Fx" -eq 64 ]; then
      _bsig_Fblock "$_bsig_Fr"
      _bsig_Fx=0 _bsig_Fr=''
    fi
  done
  _bsig_Fl=$_bsig_Fr
}

# _bsig_Fhash TEXT BEFORE: hash TEXT after BEFORE bytes already compressed
# into _bsig_H0..7, then pad and finish: _bsig_H0..7 is the digest.
_bsig_Fhash() {
  _bsig_Fm=$1 _bsig_Fn=$((${#1} + $2)) _bsig_Fo=0
  if [ -z "$_bsig_Fsub" ] && [ "${#1}" -gt 256 ] && _bsig_Fod "$1"; then
    _bsig_Fpadded "$((${#1} % 64))"
  else
    while [ "$((${#_bsig_Fm} - _bsig_Fo))" -ge 64 ]; do
      if [ -n "$_bsig_Fsub" ]; then
        # shellcheck disable=SC3057 # substrings: every shell but dash
        _bsig_Fc=${_bsig_Fm:$_bsig_Fo:64}
        _bsig_Fo=$((_bsig_Fo + 64))
      else
        _bsig_Fr=${_bsig_Fm#????????????????????????????????????????????????????????????????}
        _bsig_Fc=${_bsig_Fm%"$_bsig_Fr"}
        _bsig_Fm=$_bsig_Fr
      fi
      _bsig_Fbytes "$_bsig_Fc"
      _bsig_Fblock "$_bsig_Fl"
    done
    if [ -n "$_bsig_Fsub" ]; then
      # shellcheck disable=SC3057 # substrings: every shell but dash
      _bsig_Ftail "${_bsig_Fm:$_bsig_Fo}"
    else
      _bsig_Ftail "$_bsig_Fm"
    fi
  fi
  _bsig_Fm='' _bsig_Fc='' _bsig_Fr=''
  # The last block: the rest, 128, zeros, and the length in bits in its last
  # 8 bytes (words 14 and 15), or in a block of its own when they are taken.
  # shellcheck disable=SC2086 # byte values: split on purpose
  eval "_bsig_sha_words $_bsig_Fl"
  if [ "$((_bsig_Fn % 64))" -ge 56 ]; then
    _bsig_sha_block
    _bsig_W0=0 _bsig_W1=0 _bsig_W2=0 _bsig_W3=0 _bsig_W4=0 _bsig_W5=0 _bsig_W6=0 _bsig_W7=0
    _bsig_W8=0 _bsig_W9=0 _bsig_W10=0 _bsig_W11=0 _bsig_W12=0 _bsig_W13=0
  fi
  _bsig_W14=$((_bsig_Fn >> 29)) _bsig_W15=$((_bsig_Fn << 3 & 0xffffffff))
  _bsig_sha_block
}

# _bsig_Fhex: _bsig_Fhx becomes _bsig_H0..7 as 64 lowercase hex digits.
_bsig_Fhex() {
  _bsig_Fhx=''
  for _bsig_Fx in 0 1 2 3 4 5 6 7; do
    eval "_bsig_Fc=\$_bsig_H$_bsig_Fx"
    for _bsig_Fr in 28 24 20 16 12 8 4 0; do
      eval "_bsig_Fhx=\$_bsig_Fhx\$_bsig_Fn$((_bsig_Fc >> _bsig_Fr & 15))"
    done
  done
  _bsig_Fc='' _bsig_Fr=''
}

# _bsig_Fmac KIND PAYLOAD SEQ: _bsig_Fhx becomes the MAC of a line: the inner
# hash continues from the inner pad's state, the outer hash of its digest from
# the outer pad's (two compressions a line fewer than from the secret).
_bsig_Fmac() {
  _bsig_H0=$_bsig_Fi0 _bsig_H1=$_bsig_Fi1 _bsig_H2=$_bsig_Fi2 _bsig_H3=$_bsig_Fi3
  _bsig_H4=$_bsig_Fi4 _bsig_H5=$_bsig_Fi5 _bsig_H6=$_bsig_Fi6 _bsig_H7=$_bsig_Fi7
  _bsig_Fhash "@FENCE_MAC_DOMAIN@$_bsig_nl$_bsig_Frun$_bsig_nl$3$_bsig_nl$1$_bsig_nl$2" 64
  _bsig_W0=$_bsig_H0 _bsig_W1=$_bsig_H1 _bsig_W2=$_bsig_H2 _bsig_W3=$_bsig_H3
  _bsig_W4=$_bsig_H4 _bsig_W5=$_bsig_H5 _bsig_W6=$_bsig_H6 _bsig_W7=$_bsig_H7
  _bsig_W8=$((0x80000000)) _bsig_W9=0 _bsig_W10=0 _bsig_W11=0 _bsig_W12=0 _bsig_W13=0
  _bsig_W14=0 _bsig_W15=$(((64 + 32) * 8))
  _bsig_H0=$_bsig_Fo0 _bsig_H1=$_bsig_Fo1 _bsig_H2=$_bsig_Fo2 _bsig_H3=$_bsig_Fo3
  _bsig_H4=$_bsig_Fo4 _bsig_H5=$_bsig_Fo5 _bsig_H6=$_bsig_Fo6 _bsig_H7=$_bsig_Fo7
  _bsig_sha_block
  _bsig_Fhex
  _bsig_sha_wipe
}

# _bsig_Fafter KEY (a key as JSON writes it, without quotes): status 0 when KEY
# sorts after the mark, 1 before it, 2 when it is the mark. Byte order of the
# written text is the order of the keys (UTF-16 code units): an escape's
# backslash, like the character it stands for, is below every byte of the
# mark, and a non-ASCII byte, like its character, above.
_bsig_Fafter() {
  [ "$1" != "@FENCE_MARK_FIELD@" ] || return 2
  _bsig_Fq=$1
  for _bsig_Fv in @FENCE_MARK_BYTES@; do
    [ -n "$_bsig_Fq" ] || return 1
    _bsig_Fr=${_bsig_Fq#?}
    _bsig_Fx=${_bsig_Fq%"$_bsig_Fr"}
    _bsig_Fq=$_bsig_Fr
    _bsig_Fx=${_bsig_Fbt%%"$_bsig_Fx"*}
    _bsig_Fx=$((${#_bsig_Fx} + 1))
    [ "$_bsig_Fx" -eq "$_bsig_Fv" ] || {
      _bsig_Fq='' _bsig_Fr=''
      [ "$_bsig_Fx" -gt "$_bsig_Fv" ]
      return
    }
  done
  _bsig_Fq='' _bsig_Fr=''
}

# _bsig_Fplace MEMBERS (sorted, as the JSON writer wrote them): _bsig_Fb becomes
# the members from the first top-level key that sorts after the mark on (empty
# when none does), _bsig_Fa the members before it. One pass over the text's
# quotes: outside strings, brackets count the depth; a string after a "," at
# depth 1 is a key. Status 2: a top-level key is the mark.
_bsig_Fplace() {
  # zsh splits unquoted expansions only with shwordsplit (until this returns).
  case $_bsig_sh in zsh) setopt localoptions shwordsplit ;; esac
  _bsig_Fa=$1 _bsig_Fb=''
  IFS=\"
  # shellcheck disable=SC2086 # split on purpose; noglob is on; y keeps a last empty piece
  $_bsig_bi set -- ${1}y
  IFS=$_bsig_ifs_own
  _bsig_Fb='' _bsig_Fd=1 _bsig_Fin='' _bsig_Fk='' _bsig_Fkq=''
  while [ "$#" -gt 0 ]; do
    _bsig_Fq=$1
    shift
    if [ -n "$_bsig_Fin" ]; then
      # In a string: a quote after an odd run of backslashes is part of it.
      _bsig_Fr=$_bsig_Fq
      while :; do case $_bsig_Fr in *\\\\) _bsig_Fr=${_bsig_Fr%??} ;; *) break ;; esac; done
      case $_bsig_Fr in
        *\\)
          [ -z "$_bsig_Fkq" ] || _bsig_Fk="$_bsig_Fk$_bsig_Fq\""
          continue
          ;;
      esac
      _bsig_Fin=''
      [ -n "$_bsig_Fkq" ] || continue
      _bsig_Fk=$_bsig_Fk$_bsig_Fq _bsig_Fkq=''
      if _bsig_Fafter "$_bsig_Fk"; then
        IFS=\"
        _bsig_Fb="\"$_bsig_Fk\"$*"
        IFS=$_bsig_ifs_own
        _bsig_Fb=,${_bsig_Fb%y}
        _bsig_Fa=${_bsig_Fa%"$_bsig_Fb"} _bsig_Fk=''
        return 0
      else
        _bsig_Fst=$?
      fi
      _bsig_Fk=''
      [ "$_bsig_Fst" -eq 1 ] || return 2
    else
      case $_bsig_Fq in
        *[][{}]*)
          _bsig_Fr=$_bsig_Fq
          while [ -n "$_bsig_Fr" ]; do
            _bsig_Fx=${_bsig_Fr#?}
            case ${_bsig_Fr%"$_bsig_Fx"} in
              '{' | '[') _bsig_Fd=$((_bsig_Fd + 1)) ;;
              '}' | ']') _bsig_Fd=$((_bsig_Fd - 1)) ;;
            esac
            _bsig_Fr=$_bsig_Fx
          done
          ;;
      esac
      _bsig_Fin=1
      case $_bsig_Fq in *,) [ "$_bsig_Fd" -ne 1 ] || _bsig_Fkq=1 ;; esac
    fi
  done
  _bsig_Fq='' _bsig_Fr=''
}

# _bsig_Fmarked KIND MEMBERS: write the line of KIND and MEMBERS (as
# _bsig_line takes them) with the mark in its sorted place: first, unless a key
# sorts before it (upper case, digits: only in bernstein_emit KIND :=JSON);
# then after the top-level keys below it (_bsig_Fplace). Status 2 (and a
# message) for a payload that holds the mark already, or when the numbers are
# used up; no number is used then. Status 1: stdout failed.
_bsig_Fmarked() {
  _bsig_Fa='' _bsig_Fb=''
  case $2 in
    '' | ,) _bsig_Fp='' ;;
    @FENCE_MARK_AFTER@) _bsig_Fp="{${2#,}}" _bsig_Fb=$2 ;;
    @FENCE_MARK_SAME@)
      _bsig_err "$_bsig_Fheld"
      return 2
      ;;
    *)
      if _bsig_Fplace "$2"; then :; else
        _bsig_Fa='' _bsig_Fb=''
        _bsig_err "$_bsig_Fheld"
        return 2
      fi
      _bsig_Fp="{${2#,}}"
      ;;
  esac
  if ! _bsig_Fhere; then
    _bsig_Fa='' _bsig_Fb=''
    _bsig_err "$_bsig_Fsubshell"
    return 2
  fi
  if [ "$_bsig_Fseq" -ge "$_bsig_Fmax" ]; then
    _bsig_Fa='' _bsig_Fb=''
    _bsig_err "this shell's sequence numbers are used up: nothing more can be marked"
    return 2
  fi
  _bsig_Fmac "$1" "$_bsig_Fp" "$((_bsig_Fseq + 1))"
  _bsig_Fp="$_bsig_Fa,\"@FENCE_MARK_FIELD@\":\"$_bsig_Frun.$((_bsig_Fseq + 1)).$_bsig_Fhx\"$_bsig_Fb"
  _bsig_Fp=${_bsig_Fp#,} _bsig_Fa='' _bsig_Fb=''
  _bsig_Fseq=$((_bsig_Fseq + 1))
  _bsig_out "@PREFIX@$1 {$_bsig_Fp}" || { _bsig_Fp='' && return 1; }
  _bsig_Fp=''
}
_bsig_Fheld="the payload already holds \"@FENCE_MARK_FIELD@\", the fence's mark: a line is marked once, by the helper that writes it"

_bsig_Fsubshell="a subshell (\$(...), a pipeline, ( )) cannot mark a line: its sequence number would not reach this shell's; call the helper in the main shell"

# _bsig_Fwhere: _bsig_Fx becomes which shell process this is, without a fork:
# the pid from /proc/self/stat, read by the builtin read; in ksh93, whose
# $(...) and ( ) need no process, the subshell level. Status 1: not known.
_bsig_Fwhere() {
  case $_bsig_sh in
    ksh) eval '_bsig_Fx=k${.sh.subshell}' ;;
    *) { IFS=' ' read -r _bsig_Fx _bsig_Fr </proc/self/stat; } 2>/dev/null || return 1 ;;
  esac
  _bsig_Fr=''
}

# _bsig_Fhere: status 0 when this is the shell that took the key (or where
# that cannot be told: no /proc).
_bsig_Fhere() {
  [ -n "$_bsig_Fpid" ] || return 0
  _bsig_Fwhere || return 0
  [ "$_bsig_Fx" = "$_bsig_Fpid" ]
}

# _bsig_fence_line KIND MEMBERS: _bsig_Fmarked in the C locale (byte lengths
# and byte patterns), whatever the caller's.
_bsig_fence_line() {
  case $_bsig_sh in
    bash | zsh | sh)
      # shellcheck disable=SC3043 # bash, zsh, busybox sh: restored on return
      local LC_ALL=C
      _bsig_Fmarked "$@"
      ;;
    ksh)
      _bsig_Flc=${LC_ALL-} _bsig_Flcs=${LC_ALL+1}
      LC_ALL=C
      if _bsig_Fmarked "$@"; then _bsig_Fst=0; else _bsig_Fst=$?; fi
      if [ -n "$_bsig_Flcs" ]; then LC_ALL=$_bsig_Flc; else unset LC_ALL; fi
      return "$_bsig_Fst"
      ;;
    *) _bsig_Fmarked "$@" ;;
  esac
}

# _bsig_Fwarn PROBLEM: the one line a bad key gets (it never holds the key).
_bsig_Fwarn() {
  _bsig_fn=bernstein-signals
  _bsig_err "$1; this shell writes unmarked signals"
}

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
        _bsig_Fwarn "@FENCE_KEY_FD_VARIABLE@ is not a descriptor number @FENCE_KEY_FD_RANGE@"
        return 0
        ;;
    esac
    _bsig_Fsrc="the text on fd $_bsig_Fx (@FENCE_KEY_FD_VARIABLE@)"
    _bsig_Fc=''
    # The number is one digit: safe in eval.
    if { eval "true <&$_bsig_Fx"; } 2>/dev/null; then :; else
      eval "exec $_bsig_Fx<&-"
      _bsig_Fwarn "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, which cannot be read"
      return 0
    fi
    # A pipe or a file: a terminal or a device (/dev/zero) could make read
    # wait or never end. Where /dev/fd is missing, only a terminal is known.
    if [ -t "$_bsig_Fx" ] || { [ -e "/dev/fd/$_bsig_Fx" ] &&
      [ ! -p "/dev/fd/$_bsig_Fx" ] && [ ! -f "/dev/fd/$_bsig_Fx" ]; }; then
      eval "exec $_bsig_Fx<&-"
      _bsig_Fwarn "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, which is not a pipe or file"
      return 0
    fi
    # A writer that keeps its end open must not hang the script: read -t
    # where the shell has it (dash has not: there the orchestrator must close it).
    _bsig_Fst=0
    if [ "$_bsig_sh" = zsh ]; then
      # zsh's read -t waits for the first character only: one at a time.
      _bsig_Fr=0
      while [ "$_bsig_Fr" -le @FENCE_KEY_BYTES@ ]; do
        eval "read -r -t @FENCE_KEY_READ_SECONDS@ -k 1 -u $_bsig_Fx _bsig_Fy" 2>/dev/null || break
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
      _bsig_Fwarn "@FENCE_KEY_FD_VARIABLE@ names fd $_bsig_Fx, which gave no whole key within @FENCE_KEY_READ_SECONDS@ s (its writer did not close it)"
      return 0
    fi
    eval "exec $_bsig_Fx<&-"
  fi
  _bsig_Fc=${_bsig_Fc%"$_bsig_nl"}
  case $_bsig_Fc in
    @FENCE_KEY_PATTERN@) ;;
    *)
      _bsig_Fc=''
      _bsig_Fwarn "$_bsig_Fsrc is not a signal key: @FENCE_KEY_SHAPE@"
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
_bsig_Ftake
_bsig_st=0
_bsig_leave
