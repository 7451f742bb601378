# -- the fixed helpers' --help, then one function per kind, generated ---------------
@KIND_FUNCTIONS@

# -- the public functions: each wraps its _bsig_do_* in _bsig_enter/_bsig_leave -------
@WRAPPERS@
