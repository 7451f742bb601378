# -- key:=JSON written in canonical form: levels, key order, characters ----------
# (Read by _bsig_jvalue in json_value.sh: it calls these as it reads the text.)

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
