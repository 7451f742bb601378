# -- key:=JSON written in canonical form: numbers, key order ----------------------
