#!/bin/bash
# bench.per_layer's models in the kernel, the tunable keys read back and the
# capture: ONE build-and-test of five small stacks (32 MiB members, a dd
# pass of 8 MiB): RAID5 (3 members), RAID6 (4), RAID1 over dm-integrity
# (journal), RAID1 -> dm-cache (writethrough) and btrfs raid1 over 2
# members (125 MiB: mkfs.btrfs's smallest; its row is measured on a file).
# Asserted (structure and arithmetic, which hold at any load):
#  - a row per layer, in build order, each with its model's sentence
#    (RAID5/RAID6, never RAID1's; integrity's journal; the cache's counted
#    hit rate; btrfs raid1's copy per pid) and an expected figure per key;
#  - each expected figure recomputed here from the measured figures of
#    the rows below by the model's formula (docs/layers.md), to the 0.1 the
#    results round to;
#  - compare --per-layer prints every layer with its sentence;
#  - raid.stripe_cache_size, sync_speed_*, the members' scheduler,
#    nr_requests, read_ahead_kb and the block layers' read_ahead_kb (md,
#    integrity, cache: one shared key) read back as asked;
#  - the environment: dm tables with the keys hidden, md tunables, each
#    member's queue, SMART "not available: ..." on loop devices.
# Measured / expected is printed, not asserted: these members are loop
# devices on files in UML's page cache, so every figure is UML's one CPU
# copying pages (CPU-bound: an array cannot gain from parallel members,
# the ratio says how the CPU is shared, not whether the model holds). The
# bands are asserted with device-bound members (each behind the block
# throttle) by tests/bench/model_bands.sh (docs/layers.md "Speed bands").
# Then the shipped matrix stacks/raid5-stripe-cache.yml end to end: its
# four cells (stripe_cache_size 256, 1024, 4096, 8192) built and tested by
# one build-and-test --baseline raid5-stripe-cache-256 at the smallest sizes
# that still run it (16 MiB members, the quick suite on 4 MiB, twice for
# the verdict columns, no per-layer pass); each cell's stripe_cache_size read back from
# its results as built, the table's four cells with the size in their label
# and its verdict columns against the baseline cell.
# Runtime: 229 s in the throwaway kernel at a host load average of 6-10
# (166 s at ~3 with four stacks, before btrfs joined); the matrix adds
# 118 s at a host load of 16-20 (four RAID5 builds and teardowns; the
# whole test ran 272 s in its last run, 544 s with the dd suite at a load
# of 10-20), to be read against the
# 229 s of the rest at that load; its weight in tests/integration/run.sh
# (145) is CI's figure from before the matrix joined.
set -u
. "$(dirname "$0")/layers_lib.sh"
res=$state/res
sets=(--set devices.loop.dir="$work" --set bench.size=8MiB
      --set 'bench.suites=[dd]' --results "$res")
cat > "$state/r5.yml" <<YML
description: per-layer RAID5
devices: {loop: {count: 3, size: 32MiB}, scheduler: none, nr_requests: 32, read_ahead_kb: 256}
raid: {level: 5, devices: 3, chunk: 64KiB, stripe_cache_size: 1024, sync_speed_min: 2000, sync_speed_max: 90000, read_ahead_kb: 768}
fs: {type: ext4}
YML
cat > "$state/r6.yml" <<YML
description: per-layer RAID6
devices: {loop: {count: 4, size: 32MiB}}
raid: {level: 6, devices: 4, chunk: 64KiB}
fs: {type: ext4}
YML
cat > "$state/integ.yml" <<YML
description: per-layer integrity
devices: {loop: {count: 2, size: 32MiB}}
integrity: {algorithm: crc32c, journal: journal, sector_size: 4096, read_ahead_kb: 384}
raid: {level: 1, devices: 2, sync: wait}
fs: {type: ext4}
YML
cat > "$state/cache.yml" <<YML
description: per-layer cache
devices: {loop: {count: 2, size: 32MiB}}
raid: {level: 1, devices: 2}
cache: {size: 8MiB, mode: writethrough, dir: $work, read_ahead_kb: 1536}
fs: {type: ext4}
YML
cat > "$state/btr.yml" <<YML
description: per-layer btrfs raid1
devices: {loop: {count: 2, size: 125MiB}}
fs: {type: btrfs, data_profile: raid1}
YML
t0=$(date +%s)
out=$("$SB" -q build-and-test "${sets[@]}" "$state/r5.yml" "$state/r6.yml" "$state/integ.yml" "$state/cache.yml" "$state/btr.yml" 2>&1) &&
	ok "build-and-test of the five stacks" || { bad "build-and-test"; echo "$out" | tail -20; }
echo "    five stacks: $(( $(date +%s) - t0 )) s"
assert_clean "per-layer stacks"
python3 - "$res" <<'PY' && ok "per-layer rows, models and their arithmetic, keys read back, environment" || bad "per-layer checks (above)"
import glob, json, sys
bad = []
def f(name):
    g = sorted(glob.glob("%s/%s-*.json" % (sys.argv[1], name)))
    return json.load(open(g[0])) if g else None
R = {n: f(n) for n in ("r5", "r6", "integ", "cache", "btr")}
def rows(r): return (r or {}).get("per_layer") or []
K = ("seq_write_mbs", "seq_read_mbs", "randread_4k_iops")
def fig(x, k): return x["figures"].get(k)
def close(name, x, k, want):
    got = x["expected"].get(k)
    if want is None or got is None or abs(got - want) > 0.051 + 1e-9 * abs(want):
        bad.append("%s %s %s: expected %r recorded, the model's formula gives %r" % (name, x["layer"], k, got, want))
def band(name, x, k):
    m, e = fig(x, k), x["expected"].get(k)
    ratio = m / e if m is not None and e else None
    print("    %-5s %-9s %-16s expected %8.1f measured %8.1f ratio %s (CPU-bound members: printed only)" % (
          name, x["layer"], k, e or -1, m or -1, "%.2f" % ratio if ratio else "-"))
# 1. a row per layer in build order, figures and expectations present
for name, layers in (("r5", ["loop"] * 3 + ["md"]), ("r6", ["loop"] * 4 + ["md"]),
                     ("integ", ["loop", "loop", "integrity", "integrity", "md"]), ("cache", ["loop", "loop", "md", "cache"]),
                     ("btr", ["loop", "loop", "btrfs"])):
    r = R[name]
    if not r: bad.append("%s: no results file" % name); R[name] = None; continue
    got = [x["layer"] for x in rows(r)]
    if got != layers: bad.append("%s: layers %r, expected %r" % (name, got, layers)); R[name] = None; continue
    for x in rows(r):
        for k in K:
            if fig(x, k) is None: bad.append("%s %s: %s not measured" % (name, x["layer"], k))
            if x["layer"] != "loop" and (x["expected"].get(k) is None or not x["model"].get(k)):
                bad.append("%s %s: no expected %s or no sentence" % (name, x["layer"], k))
# 2. each model's figures from the rows below, by its formula
def md_check(name, x, below, level):
    p = {5: 1, 6: 2}.get(level, 0)
    n = len(below)
    if None in [fig(b, k) for b in below for k in K]: return
    w = [fig(b, "seq_write_mbs") for b in below]; r = [fig(b, "seq_read_mbs") for b in below]
    d = n - p if p else 1
    # md's pl_observe: the members' queue/rotational; RAID5/6 on all
    # non-rotational members read a stream from every member
    nr = x.get("nonrot_members")
    if not isinstance(nr, int) or not 0 <= nr <= n: bad.append("%s: nonrot_members %r of %d" % (name, nr, n))
    close(name, x, "seq_write_mbs", d * min(w))
    close(name, x, "seq_read_mbs", (n if p and nr == n else d) * sum(r) / n)
    close(name, x, "randread_4k_iops", sum(fig(b, "randread_4k_iops") for b in below))
for name, level, want in (("r5", 5, "RAID5: full stripes write (members - 1) = 2 x"),
                          ("r6", 6, "RAID6: full stripes write (members - 2) = 2 x"),
                          ("integ", 1, "RAID1: every write goes to every member")):
    if not R[name]: continue
    rs = rows(R[name]); x = rs[-1]
    md_check(name, x, [b for b in rs if b["layer"] == rs[-2]["layer"]], level)
    if not x["model"]["seq_write_mbs"].startswith(want): bad.append("%s model %r" % (name, x["model"]))
    if not x["model"]["randread_4k_iops"].startswith("RAID%d: random reads spread over every member" % level):
        bad.append("%s randread model %r" % (name, x["model"]["randread_4k_iops"]))
    if level != 1 and "RAID1" in x["limit"] + json.dumps(x["model"]): bad.append("%s names RAID1: %r" % (name, x["limit"]))
if R["r5"]:
    note = rows(R["r5"])[-1].get("model_note", "")
    # 1 MiB against a 2 x 64 KiB stripe: whole stripes
    if not note.startswith("RAID5: the 1 MiB writes cover whole stripes (2 x 64 KiB = 128 KiB)"): bad.append("r5 note %r" % note)
if R["integ"]:
    rs = rows(R["integ"])
    for i in (0, 1):
        x, m = rs[2 + i], rs[i]
        if not x["model"]["seq_write_mbs"].startswith("integrity with a journal"): bad.append("integ model %r" % x["model"])
        if None not in [fig(m, k) for k in K]:
            close("integ", x, "seq_write_mbs", fig(m, "seq_write_mbs") / 2)
            close("integ", x, "seq_read_mbs", fig(m, "seq_read_mbs"))
            close("integ", x, "randread_4k_iops", fig(m, "randread_4k_iops"))
if R["cache"]:
    md_check("cache", rows(R["cache"])[2], rows(R["cache"])[:2], 1)
    x, o = rows(R["cache"])[3], rows(R["cache"])[2]
    c = x.get("cache") or {}
    print("    cache counters: %r" % c)
    h = c.get("read_hit_rate")
    def mix(h, fast, origin): return origin if h <= 0 or fast <= 0 else 1 / (h / fast + (1 - h) / origin)
    if h is None or c.get("fast_seq_read_mbs") is None:
        bad.append("cache: no hit rate counted or fast device not measured: %r" % c)
    elif None not in [fig(o, k) for k in K]:
        close("cache", x, "seq_write_mbs", fig(o, "seq_write_mbs"))
        close("cache", x, "seq_read_mbs", mix(h, c["fast_seq_read_mbs"], fig(o, "seq_read_mbs")))
        close("cache", x, "randread_4k_iops", mix(h, c["fast_randread_4k_iops"], fig(o, "randread_4k_iops")))
        if not x["model"]["seq_read_mbs"].startswith("cache: reads hit %.0f %%" % (h * 100)): bad.append("cache model %r" % x["model"])
    if not x["model"]["seq_write_mbs"].startswith("cache writethrough: every write reaches the origin"): bad.append("cache write model %r" % x["model"])
if R["btr"]:
    rs = rows(R["btr"]); x = rs[2]
    if None not in [fig(b, k) for b in rs[:2] for k in K]:
        close("btr", x, "seq_write_mbs", min(fig(b, "seq_write_mbs") for b in rs[:2]))
        close("btr", x, "seq_read_mbs", sum(fig(b, "seq_read_mbs") for b in rs[:2]) / 2)
        close("btr", x, "randread_4k_iops", sum(fig(b, "randread_4k_iops") for b in rs[:2]) / 2)
    if not x["model"]["seq_write_mbs"].startswith("btrfs raid1: two copies of every block: 1 x the slowest"): bad.append("btr model %r" % x["model"])
    if "its pid picks" not in x["model"]["randread_4k_iops"]: bad.append("btr randread model %r" % x["model"])
    if not x["device"].endswith("/.sb-per-layer"): bad.append("btr: measured on %r, not a file of the filesystem" % x["device"])
# 3. speed bands: printed with the band a quiet machine holds
print("    measured / expected (CPU-bound members; the bands: tests/bench/model_bands.sh):")
if R["r5"]: band("r5", rows(R["r5"])[-1], "seq_read_mbs")
if R["integ"]:
    for x in rows(R["integ"])[2:4]: band("integ", x, "seq_write_mbs")
    band("integ", rows(R["integ"])[-1], "seq_write_mbs")
if R["cache"]: band("cache", rows(R["cache"])[-1], "seq_write_mbs")
if R["btr"]:
    for k in K: band("btr", rows(R["btr"])[-1], k)
for name, x, k in (("r5", -1, "seq_write_mbs"), ("r6", -1, "seq_write_mbs"), ("r6", -1, "seq_read_mbs")):
    if R[name]: band(name, rows(R[name])[x], k)
# 4. keys read back, environment
def built(name, layer):
    return [b for b in R[name]["stack"]["built"] if b["layer"] == layer][0]
if R["r5"]:
    tun = R["r5"]["environment"]["md_tunables"]
    for k, v in (("stripe_cache_size", 1024), ("sync_speed_min", 2000), ("sync_speed_max", 90000)):
        if tun.get(k) != v: bad.append("r5 md %s read back %r, asked %r" % (k, tun.get(k), v))
    for m in R["r5"]["environment"]["members"]:
        q = m["queue"]
        if q.get("read_ahead_kb") != 256: bad.append("member read_ahead_kb %r" % q.get("read_ahead_kb"))
        if "[none]" not in str(q.get("scheduler")) and q.get("scheduler") != "none": bad.append("member scheduler %r" % q.get("scheduler"))
        if q.get("nr_requests") != 32: bad.append("member nr_requests %r" % q.get("nr_requests"))
for name, layer, v in (("r5", "md", 768), ("integ", "integrity", 384), ("cache", "cache", 1536)):
    if R[name]:
        got = built(name, layer).get("read_ahead_kb")
        print("    %s %s read_ahead_kb: asked %d, read back %r" % (name, layer, v, got))
        if got != v: bad.append("%s %s read_ahead_kb read back %r, asked %d" % (name, layer, got, v))
if R["r6"] and built("r6", "md").get("read_ahead_kb") in (None, 0): bad.append("r6: the kernel's read_ahead_kb not read back")
for name, r in R.items():
    if not r: continue
    env = r.get("environment") or {}
    mem = env.get("members") or []
    if len(mem) != [x["layer"] for x in rows(r)].count("loop"): bad.append("%s: %d members captured" % (name, len(mem)))
    for m in mem:
        if not isinstance(m.get("smart"), str) or not m["smart"].startswith("not available: "): bad.append("%s: smart %r" % (name, m.get("smart")))
        if "rotational" not in (m.get("queue") or {}): bad.append("%s: queue %r" % (name, m.get("queue")))
    if name != "btr" and "md_tunables" not in env: bad.append("%s: no md_tunables" % name)
    if name in ("integ", "cache"):
        tabs = env.get("dm_tables") or {}
        print("    %s dm tables: %r" % (name, tabs))
        if not tabs: bad.append("%s: no dm tables" % name)
        want = "integrity" if name == "integ" else "cache"
        if not any((" %s " % want) in t for t in tabs.values()): bad.append("%s: no %s table" % (name, want))
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
# compare --per-layer: a line per layer with the limit the run recorded,
# whose sentence is one of that row's model sentences
python3 - "$SB" "$res" <<'PY' && ok "compare --per-layer: a line per layer with its model's sentence" || bad "compare --per-layer (above)"
import glob, json, subprocess, sys
bad = []
for n, words in (("r5", ["RAID5: "]), ("r6", ["RAID6: "]), ("integ", ["integrity", "RAID1: "]), ("cache", ["cache", "RAID1: "]), ("btr", ["btrfs raid1: "])):
    g = sorted(glob.glob("%s/%s-*.json" % (sys.argv[2], n)))
    if not g: bad.append("%s: no results" % n); continue
    r = json.load(open(g[0]))
    out = subprocess.run([sys.argv[1], "compare", "--per-layer", g[0]], capture_output=True, text=True).stdout
    lines = out.splitlines()
    for x in r["per_layer"]:
        line = " %s (%s): %s" % (x["layer"], x["device"], x["limit"].split(": ", 1)[1])
        if not any(l.endswith(line) for l in lines): bad.append("%s: no line ending %r" % (n, line))
        if x["layer"] != "loop" and not any(v and v in x["limit"] for v in x["model"].values()):
            bad.append("%s %s: limit %r names none of its model's sentences" % (n, x["layer"], x["limit"]))
    for w in words:
        if not any(w in l for l in lines if " md (" in l or " integrity (" in l or " cache (" in l or " btrfs (" in l):
            bad.append("%s: no %r sentence in compare's limit lines" % (n, w))
    if n in ("r5", "r6") and "RAID1" in out: bad.append("%s: compare names RAID1" % n)
    print("\n".join("    " + l for l in lines[-6:]))
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY

# the shipped stripe_cache_size matrix, end to end (see the header)
t0=$(date +%s)
out=$("$SB" build-and-test --set devices.loop.dir="$work" --set devices.loop.size=16MiB \
	--set 'bench.suites=[quick]' --set bench.size=4MiB --set bench.repeat=2 --set bench.per_layer=false --results "$state/sc" \
	--baseline raid5-stripe-cache-256 "$root/stacks/raid5-stripe-cache.yml" 2>"$state/sc.err") &&
	ok "build-and-test of stacks/raid5-stripe-cache.yml (four cells)" ||
	{ bad "build-and-test of the stripe_cache_size matrix"; tail -20 "$state/sc.err"; }
echo "    stripe_cache_size matrix: $(( $(date +%s) - t0 )) s"
echo "$out" | sed 's/^/    | /'
assert_clean "stripe_cache_size matrix"
python3 - "$state/sc" "$out" <<'PY' && ok "matrix: four cells, stripe_cache_size as built, the table's cells and verdict columns" || bad "stripe_cache_size matrix (above)"
import glob, json, re, sys
bad = []
sizes = (256, 1024, 4096, 8192)
files = sorted(glob.glob(sys.argv[1] + "/*.json"))
if len(files) != 4: bad.append("%d results files, expected 4: %r" % (len(files), files))
for n in sizes:
    g = glob.glob("%s/raid5-stripe-cache-%d-*.json" % (sys.argv[1], n))
    if len(g) != 1: bad.append("cell %d: %d results files" % (n, len(g))); continue
    r = json.load(open(g[0]))
    md = [b for b in r["stack"]["built"] if b["layer"] == "md"]
    got = md[0].get("tunables", {}).get("stripe_cache_size") if md else None
    env = r["environment"]["md_tunables"].get("stripe_cache_size")
    print("    cell %d: stripe_cache_size as built %r, in the environment %r" % (n, got, env))
    if got != n or env != n: bad.append("cell %d: stripe_cache_size read back %r / %r" % (n, got, env))
lines = sys.argv[2].splitlines()
head = [l for l in lines if l.startswith("Stack ")]
if not head: bad.append("no table")
else:
    if head[0].count("vs raid5-stripe-cache-256, 95 % CI") < 2: bad.append("no verdict columns: %r" % head[0])
    if head[0].count("% of raid5-stripe-cache-256") < 2: bad.append("no % of baseline columns: %r" % head[0])
    for n in sizes:
        row = [l for l in lines if re.match(r"raid5-stripe-cache-%d\s" % n, l)]
        if len(row) != 1: bad.append("table: %d rows for cell %d" % (len(row), n)); continue
        if n != 256 and row[0].count("n too small for a verdict") + len(re.findall(r"faster|slower|no detectable difference", row[0])) < 2:
            bad.append("cell %d: no verdicts in %r" % (n, row[0]))
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
