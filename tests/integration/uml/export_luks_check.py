#!/usr/bin/python3
"""The results check of export_luks.sh, on its own so that
tests/integration/host/export_check.sh can show it fails on results where a
client figure exceeds the link or the local figure measured next to it, or
a client job's bytes did not reach the server's dm-crypt mapping.
   export_luks_check.py RESULTS_DIR   exit 0 if all holds, 1 saying what not"""
import glob, json, sys
rows = {}
for f in glob.glob(sys.argv[1] + "/*.json"):
    d = json.load(open(f))
    rows[d["stack"]["name"]] = d
def fig(d, name):
    for s in d["suites"]:
        if s["suite"] == "dd":
            return s["figures"][name]["value"]
ok = True
def bad(msg):
    global ok
    ok = False
    print("    " + msg)
local = rows.get("export-luks")
if not local or local.get("export", {}).get("side") != "local":
    bad("no local row marked export.side=local: %s" % sorted(rows))
    sys.exit(1)
clients = {n: d for n, d in rows.items() if n != "export-luks"}
if sorted(clients) != ["export-luks.nfs-4.2", "export-luks.smb-3.1.1", "export-luks.sshfs-chacha20"]:
    bad("client rows: %s" % sorted(clients))
order = []
for n, d in sorted(clients.items()):
    e = d.get("export", {})
    link = e.get("link", {})
    m = link.get("measured", {})
    want = {"nfs": "vers=4.2,", "smb": "vers=3.1.1"}.get(e.get("protocol"), "Ciphers=%s," % e.get("cipher"))
    if e.get("protocol") != n.split(".", 1)[1].split("-")[0] or not e.get("options", "").startswith(want):
        bad("%s: protocol/options/cipher: %s" % (n, e))
    if link.get("rate") != "1gbit" or link.get("rate_bps") != 10**9:
        bad("%s: link as asked: %s" % (n, link))
    up, down = m.get("to_server_bps", 0) / 8e6, m.get("to_client_bps", 0) / 8e6
    if not (0 < up <= 125 * 1.05 and 0 < down <= 125 * 1.05):
        bad("%s: measured link %.1f / %.1f MB/s is not within the 1 Gbit/s shaping" % (n, up, down))
    w, r = fig(d, "write"), fig(d, "read")
    # The local bound is the stack's own figure measured in the same
    # minutes: export_rows.c runs local, client 1, local, client 2, ...,
    # local, and each client row's export.local_bound holds the local
    # figures right before and right after it and the larger of each pair
    # (on this loaded machine the stack's own dd moves by 2x from one
    # minute to the next: 18 / 45 / 28 MB/s write in three passes).
    lb = e.get("local_bound", {})
    lw, lr = lb.get("write_mbs") or 0, lb.get("read_mbs") or 0
    print("    %s: write %.1f MB/s (link %.1f, local %.1f: %s / %s), read %.1f MB/s (link %.1f, local %.1f: %s / %s)"
          % (n, w, up, lw, lb.get("before", {}).get("write_mbs"), lb.get("after", {}).get("write_mbs"),
             r, down, lr, lb.get("before", {}).get("read_mbs"), lb.get("after", {}).get("read_mbs")))
    if not (lw > 0 and lr > 0 and lb.get("before", {}).get("measured") and lb.get("after", {}).get("measured")):
        bad("%s: no local bound measured before and after the row: %s" % (n, lb))
    if w > up * 1.05 or r > down * 1.05:
        bad("%s: a client figure exceeds the measured link" % n)
    if w > lw * 1.05 or r > lr * 1.05:
        bad("%s: a client figure exceeds the local one measured next to it (+5 %%)" % n)
    # ...and for the right reason: while each client job ran, the job's
    # bytes went to (write: before the clock stopped, the final fsync
    # included) or came from (read: caches dropped) the server's dm-crypt
    # mapping - not the client's or the server's page cache.
    for s in d["suites"]:
        for j in s.get("jobs", []):
            rw = j["job options"]["rw"]
            side = "read" if rw == "read" else "write"
            moved = j[side]["io_bytes"]
            dm = [u for u in j.get("disk_util", []) if u.get("name", "").startswith("dm-")]
            got = dm[0].get(side + "_bytes", 0) if dm else 0
            if not dm or got < 0.95 * moved:
                bad("%s: job %s (%s): %d bytes on the client, %d on the server's dm-crypt mapping"
                    % (n, j["jobname"], s["suite"], moved, got))
    order.append((e.get("started", ""), e.get("ended", ""), n))
    pl = d.get("per_layer", [{}])[-1]
    if pl.get("layer") != "export" or not pl.get("expected", {}).get("seq_write_mbs"):
        bad("%s: no per-layer export row with an expected figure: %s" % (n, pl))
    # SSHFS: the cipher ceiling is the local row's ciphers.ssh figure at
    # 16 KiB (run.c records the export's SSH ciphers; export_rows.c uses it)
    if e.get("protocol") == "sshfs":
        c = [x for x in local.get("ciphers", {}).get("ssh", []) if x.get("cipher") == e.get("cipher")]
        want = c[0].get("blocks", {}).get("16384") if c else None
        if not want or pl.get("ssh_cipher_mbs") != want:
            bad("%s: ssh_cipher_mbs %s, the local row's ciphers.ssh at 16384: %s"
                % (n, pl.get("ssh_cipher_mbs"), want))
        else:
            print("    %s: SSH cipher ceiling %.0f MB/s (ciphers.ssh, 16 KiB blocks)" % (n, want))
# the sequence: local, client, local again, client, ..., local again
again = local["export"].get("local_again", [])
if len(again) != len(clients):
    bad("local_again: %d entries for %d client rows" % (len(again), len(clients)))
seq = [("", local["export"].get("ended", ""), "local")]
for (cs, ce, n), a in zip(sorted(order), again):
    seq += [(cs, ce, n), (a.get("started", ""), a.get("ended", ""), "local again after " + a.get("after", ""))]
    if a.get("after") != n.split(".", 1)[1]:
        bad("local_again after %s, next to client row %s" % (a.get("after"), n))
times = [t for st, en, _ in seq for t in (st, en) if t]
if times != sorted(times) or len(times) != 2 * len(seq) - 1:
    bad("not measured in turn: %s" % seq)
else:
    print("    order: " + ", ".join("%s %s-%s" % (w, st[11:], en[11:]) for st, en, w in seq))
sys.exit(0 if ok else 1)
