#!/bin/bash
# The bonnie suite makes the system calls bonnie++ 2.00a makes (strace of
# both, same command line, same directory): every close of the data file
# and of each seeker is fsync()ed with or without -b; the file tests use one
# directory, bonnie++'s names (10 hex digits and 0-12 random characters
# after them, or before them for the random test), call sync() after the
# last create and after removing the directory at the end of each delete,
# inside the timing; with -b the fsyncs of files and directory are
# bonnie++'s (the seeks' updates are a random tenth: within 15 %).
set -uo pipefail
. "$(dirname "$0")/../lib.sh"
sb_test bonnie-syscalls --root --shm
command -v strace >/dev/null || { fail "needs strace"; exit; }
command -v bonnie++ >/dev/null || { fail "needs Debian's bonnie++"; exit; }
mkdir "$TMP/d"
tr() { strace -f -qq -o "$1" -e trace=fsync,sync,openat,unlinkat,unlink,rmdir,mkdir "${@:2}" >/dev/null 2>&1; }

# without -b: the empty first create's close, the data file's three closes
# and the 5 seekers' closes, nothing else
tr "$TMP/nob" "$SB" bonnie -d "$TMP/d" -s 16 -r 8 -n 0 -f -u root -q || { fail "bonnie failed"; exit; }
n=$(grep -c 'fsync(' "$TMP/nob")
[ "$n" = 9 ] || fail "without -b: $n fsyncs, bonnie++ makes 9 on the data file (1 empty + 3 phases + 5 seekers)"

tr "$TMP/sb" "$SB" bonnie -d "$TMP/d" -s 16 -r 8 -n 1 -f -b -u root -q || { fail "bonnie -b failed"; exit; }
tr "$TMP/bo" bonnie++ -d "$TMP/d" -s 16 -r 8 -n 1 -f -b -u root -q || { fail "bonnie++ failed"; exit; }
python3 - "$TMP/sb" "$TMP/bo" <<'PY' || fail "system calls differ from bonnie++'s"
import re, sys
def calls(p):
    return [l.split(None, 1)[1] for l in open(p) if " " in l]
sb, bo = calls(sys.argv[1]), calls(sys.argv[2])
bad = []
# the test files: O_CREAT|O_EXCL in one directory, bonnie++'s names
made = [re.search(r'openat\((\d+|AT_FDCWD), "([^"]+)", O_WRONLY\|O_CREAT\|O_EXCL', c) for c in sb]
names = [m.group(2) for m in made if m]
if len(names) != 2048:
    bad.append(f"{len(names)} files created, want 2 x 1024")
if any("/" in n for n in names):
    bad.append(f"files in subdirectories: {[n for n in names if '/' in n][:3]}")
seq, ran = names[:1024], names[1024:]
if not all(re.fullmatch(r"[0-9a-f]{10}[A-Za-z0-9]{0,12}", n) and int(n[:10], 16) == i for i, n in enumerate(seq)):
    bad.append(f"sequential names not bonnie++'s, in index order: {seq[:3]}")
if not all(re.fullmatch(r"[A-Za-z0-9]{0,12}[0-9a-f]{10}", n) and int(n[-10:], 16) == i for i, n in enumerate(ran)):
    bad.append(f"random names not bonnie++'s, created in index order: {ran[:3]}")
if not any(len(n) != len(seq[0]) for n in seq):
    bad.append("every name has the same length (0-12 random characters expected)")
# sync() right after the last create of each test, and right after each rmdir of the directory
def follows(cs, pred):
    return [cs[i + 1].startswith("sync(") if i + 1 < len(cs) else False for i, c in enumerate(cs) if pred(c)]
creates = [i for i, c in enumerate(sb) if "O_CREAT|O_EXCL" in c and "O_WRONLY" in c]
for i in (creates[1023], creates[-1]):
    if not sb[i + 1 + sum(1 for c in sb[i + 1:i + 3] if c.startswith("fsync("))].startswith("sync("):
        bad.append(f"no sync() after the last create: {sb[i:i + 4]}")
rm = follows(sb, lambda c: c.startswith("rmdir(") and ".files" in c)
if rm != [True, True]:
    bad.append(f"rmdir of the test directory then sync(): {rm}")
nb = lambda cs, s: sum(1 for c in cs if c.startswith(s))
if nb(sb, "unlinkat(") != 2048:
    bad.append(f"{nb(sb, 'unlinkat(')} unlinks, want 2048")
fs, fb = nb(sb, "fsync("), nb(bo, "fsync(")
# fixed: 2048 x 2 (create: file, directory) + 2048 (delete: directory) + 9 closes
# (the data file is created twice); the rest are the seeks' updates
if abs(fs - fb) > 0.15 * max(fb - 6153, 1):
    bad.append(f"fsyncs: stackbench {fs}, bonnie++ {fb}")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY

# the block phases (output, rewrite, input), from the first unlink of the
# data file's name (bonnie++ creates, fsyncs, closes and unlinks it once
# before the real create) to the timer's stop after the third close: the same calls with the same
# arguments in the same order (strings, pointers and O_CLOEXEC aside; the
# allocator's brk/mmap left out) - no O_DIRECT, 8 KiB each, one fsync at each
# close, nothing else in the timed window (issue 29: stackbench asked
# whether stderr is a terminal there)
for t in sb bo; do
	cmd=("$SB" bonnie); [ $t = bo ] && cmd=(bonnie++)
	strace -qq -o "$TMP/blk.$t" "${cmd[@]}" -d "$TMP/d" -s 4 -r 2 -n 0 -f -b -u root -q \
		>/dev/null 2>&1 || fail "${cmd[*]} -s 4 failed"
done
python3 - "$TMP/blk.sb" "$TMP/blk.bo" <<'PY' || fail "block phases: system calls differ from bonnie++'s"
import re, sys
def window(p):
    cs = [l.rstrip("\n") for l in open(p)]
    # from the first unlink of the data file's name: bonnie++ creates it
    # twice, its per-char test's empty file (fsync()ed, closed, unlinked) first
    start = min(i for i, c in enumerate(cs) if re.match(r'unlink\(.*Bonnie\.\d+"', c))
    last = max(i for i, c in enumerate(cs) if re.match(r'openat\(.*Bonnie\.\d+", O_RDWR\|O_CREAT', c))
    out, closes = [], 0
    for i, c in enumerate(cs[start:], start):
        # the per-char test's timer start (getrusage) is not timing anything with -f
        if re.match(r'(brk|mmap|munmap|mprotect)\(', c) or (i < last and c.startswith("getrusage(")):
            continue
        c = re.sub(r'"[^"]*"(\.\.\.)?', 'S', c.replace("|O_CLOEXEC", ""))
        c = re.sub(r'0x[0-9a-f]+', 'P', re.sub(r'\{ru_utime.*\}', '...', c))
        out.append(re.sub(r'\s+', ' ', c))
        closes += c.startswith("close(") and i > last
        if closes == 3 and c.startswith("getrusage("):
            break
    runs = []
    for c in out:
        if runs and runs[-1][1] == c:
            runs[-1][0] += 1
        else:
            runs.append([1, c])
    return runs
sb, bo = window(sys.argv[1]), window(sys.argv[2])
if sb != bo:
    for i, (a, b) in enumerate(zip(sb + [[0, "-"]] * len(bo), bo + [[0, "-"]] * len(sb))):
        if a != b:
            print(f"first difference at call group {i}: stackbench {a[0]} x {a[1]!r}, bonnie++ {b[0]} x {b[1]!r}",
                  file=sys.stderr)
            break
    sys.exit(1)
if len(sb) < 1536:   # rewrite alone alternates read, lseek, write: 512 chunks
    print(f"only {len(sb)} call groups in the window", file=sys.stderr)
    sys.exit(1)
PY

# the seekers take bonnie++'s tickets from a pipe, one 4-byte read() per seek
# plus each seeker's end ticket (-s SIZE:CHUNK:SEEKS:PROCS: 500 by 3)
for t in sb bo; do
	cmd=("$SB" bonnie); [ $t = bo ] && cmd=(bonnie++)
	strace -f -qq -o "$TMP/rd.$t" -e trace=read "${cmd[@]}" -d "$TMP/d" -s 16:8192:500:3 -r 8 -n 0 -f \
		-u root -q >/dev/null 2>&1 || fail "${cmd[*]} -s 16:8192:500:3 failed"
	n=$(grep -Ec ', 4\) += 4$' "$TMP/rd.$t")
	[ "$n" = 503 ] || fail "${cmd[*]}: $n 4-byte ticket reads, bonnie++'s seekers make 500 + 3"
done

# -s 0 -n 1:1k -b: files of 0..1024 bytes, each written, fsync()ed with its
# directory, read back by both stat tests (1024 files each) in one read()
for t in sb bo; do
	cmd=("$SB" bonnie); [ $t = bo ] && cmd=(bonnie++)
	strace -f -qq -o "$TMP/n.$t" -e trace=fsync,read,write,openat "${cmd[@]}" -d "$TMP/d" -s 0 -n 1:1k -b \
		-u root -q >/dev/null 2>&1 || fail "${cmd[*]} -s 0 -n 1:1k -b failed"
done
python3 - "$TMP/n.sb" "$TMP/n.bo" <<'PY' || fail "-s 0 -n 1:1k -b: system calls differ from bonnie++'s"
import re, sys
def count(p):
    cs = [l.split(None, 1)[1] for l in open(p) if " " in l]
    fsync = sum(1 for c in cs if c.startswith("fsync("))
    # data of the test files: writes and reads of 1..1024 bytes on a file
    # opened after the test directory (not the terminal, not /proc)
    rd = sum(1 for c in cs if re.match(r'read\(\d+, ".*"\.*, (\d+)\) = \1$', c) and 0 < int(c.rsplit("= ", 1)[1]) <= 1024
             and not c.startswith("read(0"))
    return fsync, rd
(fs, rs), (fb, rb) = count(sys.argv[1]), count(sys.argv[2])
bad = []
if fs != fb or fs != 2048 * 3:
    bad.append(f"fsyncs: stackbench {fs}, bonnie++ {fb}, want 2048 x 3 (create: file, directory; delete: directory)")
# sizes are random 0..1024: about 1/1025 of the files are empty and not read
# (read(fd, buf, size) = size: exactly the bytes left, as bonnie++ asks for
# them; a few other small reads of either tool match too, and a random
# file or two is empty)
if not all(abs(x - 2048) <= 64 for x in (rs, rb)):
    bad.append(f"data reads: stackbench {rs}, bonnie++ {rb}, want about 2 x 1024")
if bad:
    print("\n".join(bad), file=sys.stderr)
    sys.exit(1)
PY
[ -z "$(ls -A "$TMP/d")" ] || fail "files left: $(ls "$TMP/d")"
sb_end
