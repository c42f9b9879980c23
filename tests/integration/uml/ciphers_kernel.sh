#!/bin/bash
# stackbench ciphers where the kernel has AF_ALG (the throwaway kernel's
# crypto modules): every default dm-crypt cipher is measured at 512 and
# 4096-byte sectors in both directions, the driver is the one /proc/crypto
# lists for that name, and a 4096-byte sector is not slower per byte than a
# 512-byte one (fewer requests); libcryptsetup's 1 MiB benchmark of each
# is there too; cryptsetup benchmark runs the same
# cipher for a sanity ratio (printed, not asserted: UML timing is noisy).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test ciphers-kernel --uml --scratch -- "$@"

"$sb" ciphers --json -t 0.3 --ssh none >"$TMP/c.json" || fail "ciphers failed"
python3 - "$TMP/c.json" <<'PY' || fail "dm-crypt rows check failed"
import sys, sbresults
rows = sbresults.get(sbresults.load(sys.argv[1]), "dm_crypt")
assert [(r["cipher"], r["key_bits"]) for r in rows] == [
    ("aes-xts-plain64", 256), ("aes-xts-plain64", 512), ("aes-cbc-essiv:sha256", 256),
    ("xchacha12,aes-adiantum-plain64", 256)], rows
proc = open("/proc/crypto").read()
for r in rows:
    assert "error" not in r, r
    assert ("driver       : %s\n" % r["driver"]) in proc, ("driver not in /proc/crypto", r)
    s5, s4 = r["sectors"]["512"], r["sectors"]["4096"]
    for f in (s5, s4):
        assert f["encrypt_mbs"] > 0 and f["decrypt_mbs"] > 0, r
    # 8x fewer requests for the same bytes; generous for a loaded machine
    assert s4["encrypt_mbs"] + s4["decrypt_mbs"] > 0.8 * (s5["encrypt_mbs"] + s5["decrypt_mbs"]), r
    w = r["request_1MiB"]
    assert "error" not in w and w["encrypt_mbs"] > 0 and w["decrypt_mbs"] > 0, r
    print("%-32s %3d  512: %7.1f/%7.1f  4096: %7.1f/%7.1f  1 MiB: %7.1f/%7.1f MB/s  %s" % (
        r["cipher"], r["key_bits"], s5["encrypt_mbs"], s5["decrypt_mbs"],
        s4["encrypt_mbs"], s4["decrypt_mbs"], w["encrypt_mbs"], w["decrypt_mbs"], r["driver"]))
assert rows[3]["kernel_name"] == "adiantum(xchacha12,aes)", rows[3]
assert rows[2]["kernel_name"] == "essiv(cbc(aes),sha256)", rows[2]
PY
if command -v cryptsetup >/dev/null; then
	cryptsetup benchmark -c aes-xts-plain64 -s 512 2>/dev/null | tail -1 | sed 's/^/cryptsetup benchmark (1 MiB requests, MiB\/s): /'
fi
sb_end
