#!/bin/bash
# bench.per_layer's models in the kernel, and the new keys and the capture:
# build-and-test of small RAID5 (3 members), RAID6 (4), RAID1 over
# dm-integrity (journal) and RAID1 -> dm-cache (writethrough) stacks, one
# dd pass each. Every results file has a row per layer with the right
# model's sentence (RAID5/RAID6, not RAID1's; integrity; cache with its
# counted hit rate), the measured figure within the stated band of the
# expected one where the sentence claims it (printed: model vs measured),
# the md tunables asked for read back (stripe_cache_size, sync_speed_*,
# read_ahead_kb), the members' scheduler/nr_requests read back where the
# kernel offers them, and the environment: dm tables (keys hidden), md
# tunables, each member's queue and SMART "not available: ..." on
# loop devices. Then stacks/raid5-stripe-cache.yml end to end (4 sizes).
#   scripts/uml-run.sh -- tests/integration/uml/per_layer_models.sh
# Not in the CI sweep (not executable, so tests/integration/run.sh passes it
# over): ~8 min in the throwaway kernel, and its model bands did not hold on
# a loaded 2-core machine (RAID5 stream read 0.18 of expected, RAID1 over
# integrity write 0.35). Run it by hand, quiet, with the line above, until
# the bands are measured quiet and the test is small enough for CI.
set -u
. "$(dirname "$0")/layers_lib.sh"
res=$state/res
sets=(--set devices.loop.size=64MiB --set devices.loop.dir="$work" --set bench.size=8MiB
      --set 'bench.suites=[dd]' --results "$res")
cat > "$state/r5.yml" <<YML
description: per-layer RAID5
devices: {loop: {count: 3}, scheduler: none, nr_requests: 32, read_ahead_kb: 256}
raid: {level: 5, devices: 3, chunk: 64KiB, stripe_cache_size: 1024, sync_speed_min: 2000, sync_speed_max: 90000, read_ahead_kb: 768}
fs: {type: ext4}
YML
cat > "$state/r6.yml" <<YML
description: per-layer RAID6
devices: {loop: {count: 4}}
raid: {level: 6, devices: 4, chunk: 64KiB}
fs: {type: ext4}
YML
cat > "$state/integ.yml" <<YML
description: per-layer integrity
devices: {loop: {count: 2}}
integrity: {algorithm: crc32c, journal: journal, sector_size: 4096}
raid: {level: 1, devices: 2, sync: wait}
fs: {type: ext4}
YML
cat > "$state/cache.yml" <<YML
description: per-layer cache
devices: {loop: {count: 2}}
raid: {level: 1, devices: 2}
cache: {size: 16MiB, mode: writethrough, dir: $work}
fs: {type: ext4}
YML
t0=$(date +%s)
out=$("$SB" -q build-and-test "${sets[@]}" "$state/r5.yml" "$state/r6.yml" "$state/integ.yml" "$state/cache.yml" 2>&1) &&
	ok "build-and-test of the four stacks" || { bad "build-and-test"; echo "$out" | tail -20; }
echo "    four stacks: $(( $(date +%s) - t0 )) s, load $(cut -d' ' -f1-3 /proc/loadavg)"
assert_clean "per-layer stacks"
python3 - "$res" <<'PY' && ok "per-layer rows, models, keys read back, environment" || bad "per-layer checks (above)"
import glob, json, sys
bad = []
def f(name):
    g = sorted(glob.glob("%s/%s-*.json" % (sys.argv[1], name)))
    return json.load(open(g[0])) if g else None
def rows(r): return (r or {}).get("per_layer") or []
def band(stack, r, k, lo, hi, why):
    m, e = r["figures"].get(k), r["expected"].get(k)
    ratio = m / e if m is not None and e else None
    print("    %-6s %-9s %-16s expected %8.1f measured %8.1f  ratio %s  [%s]" % (stack, r["layer"], k, e or -1, m or -1,
          "%.2f" % ratio if ratio else "-", r["model"].get(k)))
    if ratio is None or not lo <= ratio <= hi:
        bad.append("%s %s %s: measured/expected %s outside %.2f..%.2f (%s)" % (stack, r["layer"], k, ratio, lo, hi, why))
for name, layers in (("r5", ["loop"] * 3 + ["md"]), ("r6", ["loop"] * 4 + ["md"]),
                     ("integ", ["loop", "loop", "integrity", "integrity", "md"]), ("cache", ["loop", "loop", "md", "cache"])):
    r = f(name)
    if not r: bad.append("%s: no results file" % name); continue
    got = [x["layer"] for x in rows(r)]
    if got != layers: bad.append("%s: layers %r, expected %r" % (name, got, layers)); continue
    env = r.get("environment") or {}
    mem = env.get("members") or []
    if len(mem) != layers.count("loop"): bad.append("%s: %d members captured" % (name, len(mem)))
    for m in mem:
        if not isinstance(m.get("smart"), str) or not m["smart"].startswith("not available: "): bad.append("%s: smart %r" % (name, m.get("smart")))
        if "rotational" not in (m.get("queue") or {}): bad.append("%s: queue %r" % (name, m.get("queue")))
    if "md_tunables" not in env: bad.append("%s: no md_tunables" % name)
    for x in rows(r):
        for k in ("seq_write_mbs", "seq_read_mbs", "randread_4k_iops"):
            if x["layer"] != "loop" and x["expected"].get(k) is None: bad.append("%s %s: no expected %s" % (name, x["layer"], k))
    if name in ("integ", "cache"):
        tabs = env.get("dm_tables") or {}
        if not tabs: bad.append("%s: no dm tables" % name)
        print("    %s dm tables: %r" % (name, tabs))
try:
    import jsonschema, os
    schema = json.load(open(os.path.join(os.environ.get("SB_ROOT", "."), "docs/results-schema.json")))
    for n in ("r5", "r6", "integ", "cache"):
        if f(n):
            errs = [e.message for e in jsonschema.validators.validator_for(schema)(schema).iter_errors(f(n))]
            if errs: bad.append("%s: not valid against the schema: %s" % (n, errs[:3]))
except ImportError:
    print("    (python3-jsonschema missing: schema not checked)")
md = {n: rows(f(n))[-1] for n in ("r5", "r6", "integ") if f(n)}
if "r5" in md:
    x = md["r5"]
    if not x["model"]["seq_write_mbs"].startswith("RAID5: full stripes write (members - 1) = 2 x"): bad.append("r5 model %r" % x["model"])
    if "RAID1" in x["limit"]: bad.append("r5 limit names RAID1: %r" % x["limit"])
    if "whole stripes" not in x.get("model_note", "") and "partial stripes" not in x.get("model_note", ""): bad.append("r5 note %r" % x.get("model_note"))
    print("    r5 note: " + x.get("model_note", ""))
    # UML: one CPU computes the parity: writes are CPU-bound far below the
    # members' sum, so only reads are held to a band
    band("r5", x, "seq_read_mbs", 0.5, 1.6, "a stream over (n-1)..n members")
    band("r5", x, "seq_write_mbs", 0, 99, "printed only: one CPU's parity")
    band("r5", x, "randread_4k_iops", 0, 99, "printed only")
    t = f("r5")["stack"]["built"]
    tun = f("r5")["environment"]["md_tunables"]
    for k, v in (("stripe_cache_size", 1024), ("sync_speed_min", 2000), ("sync_speed_max", 90000), ("read_ahead_kb", 768)):
        if tun.get(k) != v: bad.append("r5 md %s read back %r, asked %r" % (k, tun.get(k), v))
    for m in f("r5")["environment"]["members"]:
        q = m["queue"]
        print("    r5 member %s queue: %r" % (m["device"], q))
        if q.get("read_ahead_kb") != 256: bad.append("member read_ahead_kb %r" % q.get("read_ahead_kb"))
        if "[none]" not in str(q.get("scheduler")) and q.get("scheduler") != "none": bad.append("member scheduler %r" % q.get("scheduler"))
        if q.get("nr_requests") != 32: bad.append("member nr_requests %r" % q.get("nr_requests"))
if "r6" in md:
    x = md["r6"]
    if not x["model"]["seq_write_mbs"].startswith("RAID6: full stripes write (members - 2) = 2 x"): bad.append("r6 model %r" % x["model"])
    # UML, one CPU: RAID6's stream is bound by the CPU (0.41 measured at
    # load 2-10), not by its members: printed, not held to a band
    band("r6", x, "seq_read_mbs", 0, 99, "printed only: one CPU")
    band("r6", x, "seq_write_mbs", 0, 99, "printed only: one CPU's parity")
for x in rows(f("integ"))[2:4]:
    if not x["model"]["seq_write_mbs"].startswith("integrity with a journal"): bad.append("integ model %r" % x["model"])
    band("integ", x, "seq_write_mbs", 0.5, 1.5, "1/2 the member")
    # UML: crc32c in generic C on one CPU bounds the reads (0.29-0.45 of
    # the member measured): printed, not held to a band
    band("integ", x, "seq_read_mbs", 0, 99, "printed only: one CPU checks every tag")
if "integ" in md:
    band("integ", md["integ"], "seq_write_mbs", 0.5, 1.5, "RAID1 over integrity")
c = rows(f("cache"))[-1:] 
for x in c:
    if "hit" not in x["model"]["seq_read_mbs"] and "not counted" not in x["model"]["seq_read_mbs"]: bad.append("cache model %r" % x["model"])
    print("    cache counters: %r" % x.get("cache"))
    if "read_hit_rate" not in (x.get("cache") or {}): bad.append("cache: no hit rate counted")
    band("cache", x, "seq_write_mbs", 0.5, 1.5, "writethrough: the origin's")
    # UML: the fast device's cold read (a file through hostfs) is no
    # measure of its hits (3.6x measured): printed, not held to a band
    band("cache", x, "seq_read_mbs", 0, 99, "printed only: the fast device's figure in UML")
for b in bad: print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
out=$("$SB" compare --per-layer "$res"/r5-*.json 2>&1)
echo "$out" | sed 's/^/    /' | tail -8
grep -q "md (/dev/md[0-9]*): .*RAID5: " <<<"$out" && ok "compare --per-layer: RAID5's sentence" || bad "compare --per-layer: no RAID5 sentence"
grep -q "RAID1" <<<"$out" && bad "compare --per-layer names RAID1 on a RAID5" || ok "compare --per-layer: no RAID1 sentence on RAID5"
# the matrix stack, its four sizes, end to end
rm -rf "$res"
t0=$(date +%s)
out=$("$SB" -q build-and-test "${sets[@]}" --set bench.per_layer=false \
	"$root/stacks/raid5-stripe-cache.yml" 2>&1) && ok "raid5-stripe-cache matrix ran" || { bad "matrix"; echo "$out" | tail -20; }
echo "    matrix: $(( $(date +%s) - t0 )) s"
echo "$out" | tail -6 | sed 's/^/    /'
for n in 256 1024 4096 8192; do
	v=$(python3 -c 'import json,sys,glob; r=json.load(open(glob.glob(sys.argv[1])[0])); print(r["environment"]["md_tunables"]["stripe_cache_size"])' "$res/raid5-stripe-cache-$n-*.json" 2>&1)
	check "matrix $n: stripe_cache_size read back" "$n" "$v"
done
assert_clean "matrix"
