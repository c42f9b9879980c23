#!/bin/bash
# stackbench ciphers on this kernel: every SSH cipher has a positive figure
# at each of openssl speed's six block sizes, the implementation says AES-NI
# exactly when the CPU has it, and OPENSSL_ia32cap masking AES-NI off is seen
# (named "no AES-NI" and slower at 16 KiB). dm-crypt rows: measured (driver
# named, both sector sizes, both directions) where this kernel has AF_ALG,
# else a row saying the kernel has no AF_ALG. Bad input exits 2 with a
# sentence. No root-only objects; runs as any user.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test ciphers --shm

"$SB" ciphers --json -t 0.05 >"$TMP/a.json" || fail "ciphers --json failed"
"$SB" ciphers -t 0.05 >"$TMP/a.txt" || fail "ciphers (table) failed"
OPENSSL_ia32cap="~0x200000200000000" "$SB" ciphers --json -t 0.2 --dm-crypt none --ssh aes128-ctr >"$TMP/noni.json" ||
	fail "ciphers with AES-NI masked failed"
"$SB" ciphers --json -t 0.2 --dm-crypt none --ssh aes128-ctr >"$TMP/ni.json" || fail "ciphers aes128-ctr failed"
aesni=0
grep -qw aes /proc/cpuinfo && aesni=1
python3 - "$TMP" "$aesni" <<'PY' || fail "figures check failed"
import sys, sbresults
d, aesni = sys.argv[1], sys.argv[2] == "1"
a = sbresults.load(d + "/a.json")
assert a["unit"] == "MB/s (10^6 bytes/s)", a["unit"]
names = [s["cipher"] for s in a["ssh"]]
assert names == ["chacha20-poly1305@openssh.com", "aes128-ctr", "aes256-ctr",
                 "aes128-gcm@openssh.com", "aes256-gcm@openssh.com"], names
for s in a["ssh"]:
    assert "error" not in s, s
    assert sorted(s["blocks"], key=int) == ["16", "64", "256", "1024", "8192", "16384"], s
    for b, v in s["blocks"].items():
        assert 0.1 < v < 100000, f"{s['cipher']} {b} B: {v} MB/s"
    if s["cipher"].startswith("aes"):
        assert ("AES-NI" in s["implementation"] and "no AES-NI" not in s["implementation"]) == aesni, s
assert len(a["dm_crypt"]) == 4, a["dm_crypt"]
for r in a["dm_crypt"]:
    if "error" in r:
        assert "AF_ALG" in r["error"], r
        continue
    assert r["driver"] and r["driver"] != "unknown", r
    for sec in ("512", "4096"):
        f = r["sectors"][sec]
        assert f["encrypt_mbs"] > 0 and f["decrypt_mbs"] > 0, r
ni = sbresults.get(sbresults.load(d + "/ni.json"), "ssh[0]")
no = sbresults.get(sbresults.load(d + "/noni.json"), "ssh[0]")
assert "no AES-NI" in no["implementation"], no
if aesni:
    # AES-NI vs vpaes is several times apart; 1.3x leaves room for a loaded machine
    assert ni["blocks"]["16384"] > 1.3 * no["blocks"]["16384"], (ni, no)
print("ciphers: ok; aes128-ctr 16 KiB %.0f MB/s with AES-NI, %.0f without; dm-crypt: %s" % (
    ni["blocks"]["16384"], no["blocks"]["16384"],
    ", ".join(r.get("driver", "not measured") for r in a["dm_crypt"])))
PY
grep -q "^SSH ciphers, OpenSSL EVP encrypt, by block size; MB/s (10^6 bytes/s)" "$TMP/a.txt" || fail "table lacks the SSH header"
grep -q "^dm-crypt ciphers, kernel crypto API" "$TMP/a.txt" || fail "table lacks the dm-crypt header"
for bad in "--ssh rc4" "--dm-crypt aes" "--seconds -1" "--nope" "extra"; do
	# shellcheck disable=SC2086
	"$SB" ciphers $bad >"$TMP/out" 2>"$TMP/err"
	rc=$?
	[ $rc = 2 ] || fail "ciphers $bad: exit $rc, want 2"
	grep -q "stackbench: ciphers: " "$TMP/err" || fail "ciphers $bad: no sentence: $(cat "$TMP/err")"
done
sb_end
