
# -- the fence: read only by a shell handed a key ---------------------------------

# Only a shell handed a key marks, and the key is taken now, when the library is
# sourced. Without either variable nothing below is ever called, so sourcing
# ends here and the fence (half of this file) is not even parsed: a wrapper
# that takes no key pays nothing for it. Sourced again, the library keeps the
# key it took (the variables are gone by then, the functions still defined).
_bsig_Fkey=${_bsig_Fkey-}
# Untraced: a caller's set -x shows neither variable's name.
_bsig_Fwant() { _bsig_Fx=${@FENCE_KEY_VARIABLE@+1}${@FENCE_KEY_FD_VARIABLE@+1}; }
{ _bsig_Fwant; } 2>/dev/null
case $_bsig_Fx in
  '') return 0 ;;
esac

