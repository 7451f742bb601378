# -- which shell ---------------------------------------------------------------

_bsig_sh='sh'
if [ -n "${BASH_VERSION-}" ]; then
  _bsig_sh=bash
elif [ -n "${ZSH_VERSION-}" ]; then
  _bsig_sh=zsh
elif [ -n "${KSH_VERSION-}" ]; then
  case $KSH_VERSION in
    *MIRBSD* | *LEGACY*) _bsig_sh=mksh ;;
    *) _bsig_sh=ksh ;;
  esac
fi
# How a helper reaches a builtin past a caller's function of the same name
# (bash and zsh let a function shadow even `set`; in zsh `command` would look
# for a program). Used unquoted, only while the helper's own IFS is in force.
case $_bsig_sh in
  bash | zsh) _bsig_bi='builtin' ;;
  *) _bsig_bi='command' ;;
esac
# Whether read has -d (all but dash): a subshell tries it, once.
_bsig_read_d=1
if [ "$_bsig_sh" = sh ]; then
  # shellcheck disable=SC3045 # the point is to find out
  if (IFS= command read -r -d x _bsig_x) </dev/null 2>/dev/null; then :; else
    [ "$?" -le 1 ] || _bsig_read_d=''
  fi
fi
# Without read -d (dash): every byte but NUL and tab, to find runs of tabs.
_bsig_notab=''
[ -n "$_bsig_read_d" ] || _bsig_notab=$(command printf '\001\002\003\004\005\006\007\010\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037\040\041\042\043\044\045\046\047\050\051\052\053\054\055\056\057\060\061\062\063\064\065\066\067\070\071\072\073\074\075\076\077\100\101\102\103\104\105\106\107\110\111\112\113\114\115\116\117\120\121\122\123\124\125\126\127\130\131\132\133\134\135\136\137\140\141\142\143\144\145\146\147\150\151\152\153\154\155\156\157\160\161\162\163\164\165\166\167\170\171\172\173\174\175\176\177\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277\300\301\302\303\304\305\306\307\310\311\312\313\314\315\316\317\320\321\322\323\324\325\326\327\330\331\332\333\334\335\336\337\340\341\342\343\344\345\346\347\350\351\352\353\354\355\356\357\360\361\362\363\364\365\366\367\370\371\372\373\374\375\376\377')
_bsig_fn=bernstein
_bsig_term=''
_bsig_guarded=''
_bsig_old_exit=''
_bsig_depth=0
_bsig_pending=''
# A NUL byte, where a variable can hold one (zsh); other shells' read drops it.
_bsig_nul=''
[ "$_bsig_sh" != zsh ] || eval '_bsig_nul=$'"'"'\0'"'"
_bsig_nl='
'
_bsig_ifs_own=" 	$_bsig_nl"

# -- output: builtins only (Debian's mksh has no printf builtin, but print -r) --

case $_bsig_sh in
  mksh)
    _bsig_out() { command print -r -- "$1"; }
    _bsig_err() { _bsig_one_line "$1" && command print -ru2 -- "$_bsig_fn: $_bsig_msg"; }
    _bsig_t=$(command print -n '\0011/\0015/\0001\0002\0003\0004\0005\0006\0007\0010\0011\0012\0013\0014\0015\0016\0017\0020\0021\0022\0023\0024\0025\0026\0027\0030\0031\0032\0033\0034\0035\0036\0037/\0302\0205/\0342\0200\0250/\0342\0200\0251/\0355/\0240\0241\0242\0243\0244\0245\0246\0247\0250\0251\0252\0253\0254\0255\0256\0257\0260\0261\0262\0263\0264\0265\0266\0267\0270\0271\0272\0273\0274\0275\0276\0277/\0200\0201\0202\0203\0204\0205\0206\0207\0210\0211\0212\0213\0214\0215\0216\0217\0220\0221\0222\0223\0224\0225\0226\0227\0230\0231\0232\0233\0234\0235\0236\0237/')
    _bsig_oct='\0'
    ;;
  bash | zsh)
    _bsig_out() { builtin printf '%s\n' "$1"; }
    _bsig_err() { _bsig_one_line "$1" && builtin printf '%s\n' "$_bsig_fn: $_bsig_msg" >&2; }
    _bsig_t=$(builtin printf '\011/\015/\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037/\302\205/\342\200\250/\342\200\251/\355/\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277/\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237/')
    _bsig_oct=\\
    ;;
  *)
    _bsig_out() { command printf '%s\n' "$1"; }
    _bsig_err() { _bsig_one_line "$1" && command printf '%s\n' "$_bsig_fn: $_bsig_msg" >&2; }
    _bsig_t=$(command printf '\011/\015/\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\025\026\027\030\031\032\033\034\035\036\037/\302\205/\342\200\250/\342\200\251/\355/\240\241\242\243\244\245\246\247\250\251\252\253\254\255\256\257\260\261\262\263\264\265\266\267\270\271\272\273\274\275\276\277/\200\201\202\203\204\205\206\207\210\211\212\213\214\215\216\217\220\221\222\223\224\225\226\227\230\231\232\233\234\235\236\237/')
    _bsig_oct=\\
    ;;
esac
# "/" separates the parts: "|" would be an alternation in ksh patterns.
_bsig_tab=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_cr=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_ctl=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u85=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u2028=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_u2029=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_ed=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_a0bf=${_bsig_t%%/*} _bsig_t=${_bsig_t#*/}
_bsig_cont=${_bsig_t%%/*}$_bsig_a0bf _bsig_t=''
_bsig_ws=" $_bsig_tab"

# _bsig_one_line MESSAGE: _bsig_msg becomes MESSAGE, JSON-escaped when an
# argument quoted in it holds a control or line-breaking character: one
# problem, one line on stderr.
_bsig_one_line() {
  _bsig_msg=$1
  case $_bsig_msg in
    *["$_bsig_ctl"]* | *"$_bsig_u85"* | *"$_bsig_u2028"* | *"$_bsig_u2029"*) ;;
    *) _bsig_has_nul "$1" || return 0 ;;
  esac
  _bsig_ej=$_bsig_j
  _bsig_esc "$_bsig_msg"
  _bsig_msg=$_bsig_j _bsig_j=$_bsig_ej
  return 0
}

