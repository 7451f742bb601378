# -- the fence: the mark in its sorted place, written by the shell that took the key --

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

