#!/bin/bash
# A known effect found: RAID1 on 2 loop devices (64 MiB), suite quick (8 MiB,
# 1 s phases), against the same stack with faults.delay of 5 ms on member 0,
# --repeat auto (rounds interleaved, at most 5). compare --baseline says the
# delayed stack's random writes (4 KiB, QD32: each waits for the slow member)
# are `slower` (paired interval wholly below 0; the sequential figures of
# quick in this kernel are too noisy to decide in 5 rounds), the
# results record why the rounds stopped, and nothing is left.
#   tests/integration/run.sh verdict_ab
set -u
. "$(dirname "$0")/verdict_lib.sh"

y=$resdir
for n in a b; do
	cat > "$y/vab-$n.yml" <<YML
name: vab-$n
devices:
  loop: {count: 2, size: 64MiB}
raid: {level: 1}
fs: {block_size: 4096}
bench: {suites: [quick], size: 8MiB, runtime: 1s, per_layer: false}
YML
done
printf 'faults:\n  delay: {member: 0, latency: 5ms}\n' >> "$y/vab-b.yml"
cols=stack,quick.randwrite_iops
auto_run ab "$y/vab-a.yml" "$y/vab-b.yml" --max-repeat 5 --baseline vab-a --columns "$cols"
[ "$RC" = 0 ] && ok "A/B: exit 0" || bad "A/B: exit $RC: $(echo "$LOG" | tail -5)"
run_order_ok ab 5 && ok "A/B: run_order says auto, the rounds and why they stopped" || bad "A/B: run_order (above)"
"$SB" compare --baseline vab-a --columns "$cols" --format json "$resdir/ab" > "$y/vab.json"
if python3 - "$y/vab.json" <<'PY'
import json, sys
rows = {r["stack"]: r for r in json.load(open(sys.argv[1]))["rows"]}
b, errs = rows.get("vab-b", {}), []
for c in ("quick.randwrite_iops",):
    print("    %s: %s %s%% [%s, %s] (%s)" % (c, b.get(c + "_verdict"), b.get(c + "_diff_pct"),
          b.get(c + "_ci_low_pct"), b.get(c + "_ci_high_pct"), b.get(c + "_method")))
    if b.get(c + "_verdict") != "slower" or not b.get(c + "_ci_high_pct", 0) < 0 or \
       b.get(c + "_method") != "paired t on log ratios":
        errs.append(c)
sys.exit(1 if errs else 0)
PY
then ok "A/B: the 5 ms member is slower, its paired interval below 0"
else bad "A/B: verdicts (above)"; fi
"$SB" compare --baseline vab-a --columns "$cols" "$resdir/ab" | grep -q "paired t on log ratios" &&
	ok "A/B: the text table names the method" || bad "A/B: no method line"
rm -f "$y"/vab-*.yml "$y/vab.json"
assert_clean "A/B"
finished=1
