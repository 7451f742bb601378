# -- the fence (issue 17): the key, HMAC-SHA256 in shell arithmetic, the mark ------

# Under a fenced orchestrator every line a helper writes carries
# "@FENCE_MARK_FIELD@":"RUN.SEQ.MAC", MAC = HMAC-SHA256 with the key's secret over
# the domain, RUN, SEQ, KIND and the payload text (spec/fenced-signals.md). The
# key is taken once, when this file is sourced: from the descriptor
# @FENCE_KEY_FD_VARIABLE@ names (read, then closed) or from @FENCE_KEY_VARIABLE@;
# both variables are unset, so nothing the script starts sees the key, the
# variable or the descriptor. Only the secret's HMAC pad states are kept, in
# unexported _bsig_Fi* and _bsig_Fo* variables (as good as the key: `set`
# shows them); what hashing leaves behind is wiped after the pads and each
# mark. SEQ counts the lines this shell marks: a subshell's count (a helper in
# $(...) or a pipeline) would not reach its parent, so a subshell refuses to
# mark (_bsig_Fhere). No program is started (SHA-256 is arithmetic), but dash
# takes a long message's bytes from od. This part hashes; fence_mark puts the
# mark in a line; fence_key takes the key when the library is sourced.

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

