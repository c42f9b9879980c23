#!/bin/bash
# build-and-test of a LUKS stack (aes-xts-plain64, 512-bit key, 4096-byte
# sectors) running the copy suite, in the throwaway kernel: the results
# record the stack's cipher under "ciphers" (both sector sizes, both
# directions, the kernel driver), compare shows it as cipher_ceiling and
# turns the copy figures into a backup time; every tool's copies are intact
# and nothing is left (the harness checks loops, dm, mounts, state).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test copy-luks --uml --scratch -- "$@"
cat >"$TMP/copyluks.yml" <<YML
description: copy suite on LUKS
devices:
  loop: {count: 1, size: 160MiB, dir: $TMP/loops}
luks: {type: luks2, cipher: aes-xts-plain64, key_size: 512, sector_size: 4096}
fs: {type: ext4}
bench: {suites: [copy], size: 24MiB, per_layer: false}
YML
mkdir -p "$TMP/other"
"$sb" -q build-and-test --results "$TMP/res" --set bench.copy_dir="$TMP/other" "$TMP/copyluks.yml" \
	>"$TMP/out" 2>&1 || { cat "$TMP/out"; fail "build-and-test failed"; }
python3 - "$TMP/res" <<'PY' || fail "results check failed"
import sys, sbresults
r = sbresults.one(sys.argv[1])
c = r["ciphers"]
assert c["unit"] == "MB/s (10^6 bytes/s)" and c["ssh"] == [], c
dm = c["dm_crypt"]
assert len(dm) == 1 and dm[0]["cipher"] == "aes-xts-plain64" and dm[0]["key_bits"] == 512, dm
assert "error" not in dm[0] and dm[0]["driver"], dm
for sec in ("512", "4096"):
    assert dm[0]["sectors"][sec]["encrypt_mbs"] > 0 and dm[0]["sectors"][sec]["decrypt_mbs"] > 0, dm
s = sbresults.suite(r, "copy")
assert len(s["figures"]) == 18, sorted(s["figures"])
assert all(x["intact"] for x in s["copies"]) and len(s["copies"]) == 12, s["copies"]
print("ciphers:", dm[0]["driver"], dm[0]["sectors"]["4096"], "copy rsync_tree_in", s["figures"]["rsync_tree_in"])
PY
sb_results check "$TMP/res"; [ $? = 1 ] && fail "results file does not match docs/results-schema.json"
"$sb" compare --columns stack,cipher,luks_sector,cipher_ceiling,copy.rsync_tree_in --backup-size 1TiB "$TMP/res" \
	>"$TMP/cmp" || fail "compare failed"
cat "$TMP/cmp"
python3 - "$TMP/res" "$TMP/cmp" <<'PY' || fail "compare: cipher_ceiling is not the slower direction at the 4096 sector"
import sys, sbresults
s = sbresults.get(sbresults.one(sys.argv[1]), "ciphers.dm_crypt[0].sectors.4096")
want = min(s["encrypt_mbs"], s["decrypt_mbs"])
row = [l.split() for l in open(sys.argv[2]) if l.startswith("copyluks ")][0]
assert row[1:3] == ["aes-xts-plain64", "4096"], row
got = float(row[3])
assert abs(got - want) <= max(0.05 * want, 0.1), (got, want)
PY
grep -q "^A backup of 1.0 TiB" "$TMP/cmp" || fail "compare: no backup estimate"
grep -qE "^copyluks +rsync +[0-9]+ (h|min|d) " "$TMP/cmp" || fail "compare: no rsync backup row"
left=$(find "$TMP/other" -mindepth 1 | head -3)
[ -z "$left" ] || fail "left in the other directory: $left"
sb_end
