#!/bin/bash
# `stackbench ciphers` vs `openssl speed -evp`, side by side, per block size:
# prints both figures in MB/s (10^6 bytes/s; openssl prints 1000s of
# bytes/s) and the ratio stackbench / openssl. Reports only, asserts no
# timing. CTR ciphers are the same loop in both (one EVP_EncryptUpdate per
# block); for gcm and chacha20-poly1305 openssl runs with -aead (a fresh
# nonce, AAD and tag per block, TLS-like), which is what stackbench does for
# SSH packets (AAD 4 bytes there, 13 in openssl).
#   tests/bench/ciphers-openssl.sh [SECONDS=1] [CIPHERS="aes128-ctr aes256-ctr aes128-gcm chacha20-poly1305"]
set -uo pipefail
secs=${1:-1}
ciphers=${2:-"aes128-ctr aes256-ctr aes128-gcm chacha20-poly1305"}
SB=${STACKBENCH_BIN:-$(dirname "$0")/../../build/stackbench}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (figures on a loaded machine move a lot)"
for c in $ciphers; do
	case $c in
	aes128-ctr) evp=aes-128-ctr; aead= ;;
	aes256-ctr) evp=aes-256-ctr; aead= ;;
	aes128-gcm) evp=aes-128-gcm; aead=-aead ;;
	aes256-gcm) evp=aes-256-gcm; aead=-aead ;;
	chacha20-poly1305) evp=chacha20-poly1305; aead=-aead ;;
	*) echo "unknown cipher $c" >&2; exit 2 ;;
	esac
	# shellcheck disable=SC2086
	openssl speed -evp "$evp" $aead -seconds "$secs" -mr 2>/dev/null >"$tmp/o" ||
		{ echo "$c: openssl speed failed"; continue; }
	"$SB" ciphers --dm-crypt none --ssh "$c" --seconds "$secs" --json >"$tmp/s.json" ||
		{ echo "$c: stackbench ciphers failed"; continue; }
	python3 - "$c" "$tmp/o" "$tmp/s.json" <<'PY'
import json, sys
name, ofile, sfile = sys.argv[1:]
# -mr: "+H:16:64:..." then "+F:N:name:v16:v64:..." in bytes/s
lines = open(ofile).read().splitlines()
sizes = [int(x) for x in [l for l in lines if l.startswith("+H:")][0].split(":")[1:]]
vals = [float(x) for x in [l for l in lines if l.startswith("+F:")][0].split(":")[3:]]
o = dict(zip(sizes, (v / 1e6 for v in vals)))  # bytes/s -> MB/s
s = json.load(open(sfile))["ssh"][0]
print("%s (%s)" % (s["cipher"], s["implementation"]))
print("  %8s %12s %12s %8s" % ("block", "openssl", "stackbench", "ratio"))
for b in sorted(o):
    v = s["blocks"].get(str(b))
    if v is None:
        continue
    print("  %8d %12.1f %12.1f %7.2fx" % (b, o[b], v, v / o[b] if o[b] else 0))
PY
done
