# -- the caller's state: saved on entry to a public function, restored on return --

# Every public function runs _bsig_enter first and _bsig_leave last, whatever
# path it takes (the wrappers at the end of this file). Inside, the helpers
# trace nothing (xtrace, verbose off: answers must not reach a trace), export
# nothing (allexport off), see no nounset, do no pathname expansion (noglob),
# use their own IFS, match case-sensitively (bash nocasematch off) and, in
# mksh, work on bytes (utf8-mode off). zsh wrappers add `emulate -LR zsh`,
# which resets every zsh option for the call. Nested calls (a helper inside
# bernstein_run's command, a trap during a helper) keep the outer saved state.
_bsig_enter() {
  _bsig_depth=$((_bsig_depth + 1))
  [ "$_bsig_depth" -eq 1 ] || return 0
  _bsig_opts=$-
  _bsig_ifs_set=${IFS+1} _bsig_ifs=${IFS-}
  IFS=$_bsig_ifs_own
  case $_bsig_sh in
    zsh) $_bsig_bi set +xvau ;;
    mksh) $_bsig_bi set +xvauU -f ;;
    bash)
      $_bsig_bi set +xvau -f
      # shellcheck disable=SC3044 # bash only
      if builtin shopt -q nocasematch; then
        _bsig_ncm=1
        builtin shopt -u nocasematch
      else
        _bsig_ncm=''
      fi
      ;;
    *) $_bsig_bi set +xvau -f ;;
  esac
  return 0
}

# _bsig_restore: put the saved state back (the trace option last).
_bsig_restore() {
  _bsig_clear
  case $_bsig_sh in
    zsh) ;;
    *) case $_bsig_opts in *f*) ;; *) $_bsig_bi set +f ;; esac ;;
  esac
  case $_bsig_sh in
    bash)
      # shellcheck disable=SC3044 # bash only
      [ -z "$_bsig_ncm" ] || builtin shopt -s nocasematch
      ;;
    mksh) case $_bsig_opts in *U*) $_bsig_bi set -U ;; esac ;;
  esac
  case $_bsig_opts in *a*) $_bsig_bi set -a ;; esac
  case $_bsig_opts in *u*) $_bsig_bi set -u ;; esac
  case $_bsig_opts in *v*) $_bsig_bi set -v ;; esac
  case $_bsig_opts in
    *x*)
      if [ -n "$_bsig_ifs_set" ]; then IFS=$_bsig_ifs; else unset IFS; fi
      $_bsig_bi set -x
      ;;
    *) if [ -n "$_bsig_ifs_set" ]; then IFS=$_bsig_ifs; else unset IFS; fi ;;
  esac
}

# _bsig_leave: the end of every public function; returns _bsig_st.
_bsig_leave() {
  _bsig_depth=$((_bsig_depth - 1))
  if [ "$_bsig_depth" -le 0 ]; then
    _bsig_depth=0
    _bsig_restore
  fi
  return "$_bsig_st"
}

# _bsig_clear: forget every global that may hold an answer or other data.
_bsig_clear() {
  _bsig_s='' _bsig_f='' _bsig_af='' _bsig_dec='' _bsig_j='' _bsig_q='' _bsig_x=''
  _bsig_b1='' _bsig_b2='' _bsig_b3='' _bsig_b4='' _bsig_rto='' _bsig_key='' _bsig_a=''
  _bsig_line_rest='' _bsig_raw=''
}

