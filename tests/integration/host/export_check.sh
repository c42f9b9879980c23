#!/bin/bash
# export_luks's results check (tests/integration/uml/export_luks_check.py)
# can fail: on results shaped like build-and-test's with export (a local row,
# its local_again entries, SSHFS/NFS/SMB client rows with local_bound and
# the server's disk_util) it passes as written, and fails - saying why -
# when a client figure exceeds the local figure measured next to it by more
# than 5 %, exceeds the measured link, or a client job's bytes did not reach
# the server's dm-crypt mapping (a client that measured a page cache). No
# root, no kernel objects: it writes JSON files only.
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test export-check --shm
check=$src/tests/integration/uml/export_luks_check.py

# make DIR [FAULT]: the results of one run, FAULT changing one figure
make() {
	mkdir -p "$1"
	python3 - "$1" "${2:-}" <<'PY'
import json, sys
out, fault = sys.argv[1], sys.argv[2]
M = 1 << 20
def dd(w, r, dm_w=64 * M, dm_r=64 * M):
    jobs = []
    for rw, moved in (("write", dm_w), ("read", dm_r)):
        jobs.append({"jobname": "dd", "job options": {"rw": rw},
                     "read": {"io_bytes": 64 * M if rw == "read" else 0},
                     "write": {"io_bytes": 64 * M if rw == "write" else 0},
                     "disk_util": [{"name": "dm-0", rw + "_bytes": moved}, {"name": "md127"}]})
    return [{"suite": "dd", "figures": {"write": {"value": w}, "read": {"value": r}}, "jobs": jobs}]
link = {"rate": "1gbit", "rate_bps": 10**9, "measured": {"to_server_bps": 9.3e8, "to_client_bps": 9.1e8}}
t = lambda m, s: "2026-12-01T18:%02d:%02dZ" % (m, s)
targets = [("sshfs-chacha20", "sshfs", "Ciphers=chacha20-poly1305@openssh.com,Compression=no", "chacha20-poly1305@openssh.com", 9, 11),
           ("nfs-4.2", "nfs", "vers=4.2,proto=tcp", None, 33, 40),
           ("smb-3.1.1", "smb", "vers=3.1.1", None, 44, 45)]
again_w, again_r = [35.3, 50.1, 32.2], [32.3, 63.7, 35.8]
local = {"stack": {"name": "export-luks"}, "suites": dd(23.7, 41.1),
         "ciphers": {"ssh": [{"cipher": "chacha20-poly1305@openssh.com", "blocks": {"16384": 1073.0}}]},
         "export": {"side": "local", "label": "local", "link": link, "ended": t(0, 22),
                    "local_again": [{"after": n, "started": t(1 + 2 * i, 10), "ended": t(1 + 2 * i, 50),
                                     "suites": dd(again_w[i], again_r[i])} for i, (n, *_) in enumerate(targets)]}}
rows = [local]
bw, br = 23.7, 41.1
for i, (n, proto, opts, cipher, w, r) in enumerate(targets):
    dm_w = 64 * M
    if fault == "above-local" and proto == "nfs":
        w = max(bw, again_w[i]) * 1.08
    if fault == "above-link" and proto == "smb":
        r = 120.0
    if fault == "cache" and proto == "smb":
        dm_w = 8 * M
    lb = {"suite": "dd", "before": {"measured": "x", "write_mbs": bw, "read_mbs": br},
          "after": {"measured": "local again after " + n, "write_mbs": again_w[i], "read_mbs": again_r[i]},
          "write_mbs": max(bw, again_w[i]), "read_mbs": max(br, again_r[i])}
    pl = {"layer": "export", "expected": {"seq_write_mbs": 30.0}}
    if cipher:
        pl["ssh_cipher_mbs"] = 1073.0
    rows.append({"stack": {"name": "export-luks." + n}, "suites": dd(w, r, dm_w=dm_w), "per_layer": [pl],
                 "export": {"side": "client", "protocol": proto, "options": opts, "cipher": cipher, "link": link,
                            "started": t(2 * i, 30), "ended": t(1 + 2 * i, 5), "local_bound": lb}})
    bw, br = again_w[i], again_r[i]
for d in rows:
    json.dump(d, open("%s/%s.json" % (out, d["stack"]["name"]), "w"))
PY
}

make "$TMP/good"
if out=$("$check" "$TMP/good" 2>&1); then ok "the check passes results that hold"
else fail "the check fails results that hold:"; echo "$out" | sed 's/^/    /'; fi
for fault in above-local:"exceeds the local one" above-link:"exceeds the measured link" \
	cache:"on the server's dm-crypt mapping"; do
	make "$TMP/${fault%%:*}" "${fault%%:*}"
	out=$("$check" "$TMP/${fault%%:*}" 2>&1); rc=$?
	if [ $rc = 1 ] && grep -qF "${fault#*:}" <<<"$out"; then ok "${fault%%:*}: the check fails, saying '${fault#*:}'"
	else fail "${fault%%:*}: exit $rc, want 1 saying '${fault#*:}':"; echo "$out" | sed 's/^/    /'; fi
done
sb_end
