#!/bin/bash
# Install every Debian 12 package stackbench needs to build, test and run.
# Idempotent and quiet: packages already installed are not touched, and
# `apt-get update` runs only when something is missing. Needs root.
#   scripts/install-deps.sh          install what is missing
#   scripts/install-deps.sh --check  list what is missing, install nothing
set -euo pipefail

pkgs=(
	# build
	meson ninja-build pkg-config gcc clang
	libblockdev-dev libblockdev-mdraid-dev libblockdev-lvm-dev libblockdev-loop-dev
	libblockdev-fs-dev libblockdev-crypto-dev
	libcryptsetup-dev libdevmapper-dev libmount-dev libudev-dev libblkid-dev libaio-dev libyaml-dev
	libjson-c-dev libcairo2-dev
	# stackbench job --ioengine=io_uring, optional in meson.build
	liburing-dev
	# stackbench job numa_cpu_nodes / numa_mem_policy, optional in meson.build
	libnuma-dev
	# stackbench ciphers: OpenSSL's EVP interface (libcrypto)
	libssl-dev
	# the verify checksums of fio, src/bench/fioverify.c: crc32c, crc32, crc64 from ISA-L, xxhash
	libisal-dev libxxhash-dev
	# compare's confidence intervals: t quantiles (and the tests' RNG)
	libgsl-dev
	# tests: unit suite, sanitizers and the fuzzer with clang
	libcmocka-dev libclang-rt-14-dev python3
	# tests: job_fio_rate.sh sums rates with bc, as fio job files may
	bc
	# run: the tools stackbench drives or compares against, and the
	# throwaway kernel for machines whose kernel lacks md/device-mapper
	user-mode-linux mdadm lvm2 cryptsetup-bin e2fsprogs xfsprogs btrfs-progs udev kmod util-linux
	fio bonnie++ procps
	# fio2gnuplot (tests/integration/host/job_fio.sh) imports six; fio does not depend on it
	python3-six
	# iostat, to cross-check the per-device statistics
	sysstat
	# the results' environment: real disks' SMART identity and health (smartctl --json)
	smartmontools
	# tests/bench: the machine's own CPU steadiness (helios_relations.sh)
	# and the cipher ratios (ciphers-openssl.sh)
	openssl
	# tests/integration/host/bonnie_syscalls.sh compares system calls with bonnie++'s
	strace
	# the HTML report's test: headless Chromium, HTML5 strict parsing
	chromium python3-html5lib
	# packaging and its tests: the .deb build, man -l, the completion,
	# git describe for --version, the results JSON Schema check
	debhelper dpkg-dev fakeroot man-db bash-completion git python3-jsonschema
	# the copy suite times these (cp is coreutils)
	rsync curl
	# stackbench fleet: the playbook runs on Ansible; its test starts private sshds
	ansible openssh-server
	# export: (src/export): the SSHFS client, the NFS server tools (run in
	# private namespaces only), the link measurement
	sshfs nfs-kernel-server iperf3
	# export smb: the private smbd and smbpasswd (samba), the client's
	# mount.cifs (cifs-utils); ip, tc and ss make and probe the private
	# link (iproute2; Priority important, so not on every machine)
	samba cifs-utils iproute2
	# halt: how the throwaway kernel's init (scripts/sandbox/uml-init.sh) ends
	systemd-sysv
	# every program above is checked by tests/tools/program_packages.py
	# the ARM builds (scripts/cross-test.sh): cross compilers and qemu-user
	gcc-arm-linux-gnueabihf gcc-aarch64-linux-gnu qemu-user
	# tests/bench/arm_system.sh: the armhf root from the Debian archive (debootstrap,
	# first stage only), packed as an initramfs (cpio), booted under qemu-system-arm
	debootstrap cpio qemu-system-arm
)

# ... and the -dev packages of every meson.build dependency for armhf (the
# Helios4) and arm64, multiarch beside the amd64 ones (pkgconf:ARCH brings
# the ARCH-linux-gnu-pkg-config the cross files name). A package that is not
# co-installable with its amd64 twin makes apt-get fail, and this script
# with it, loudly (--no-remove: apt-get would otherwise swap the amd64 one
# out). Not libblockdev-mdraid-dev:ARCH: its library depends on mdadm, which
# is one architecture per machine (mdadm:armhf would replace the host's);
# the build needs only its header, which the amd64 package puts in
# /usr/include where the cross compilers look too (the plugin is dlopened).
# Not libgsl-dev:ARCH either: it is not multiarch (Debian 12 would remove the
# amd64 one); the cross builds link the runtime libraries libgsl27:ARCH and
# libgslcblas0:ARCH by file name and use the amd64 package's headers
# (meson.build says how).
cross_archs=(armhf arm64)
cross_dev=(
	libblockdev-dev libblockdev-lvm-dev libblockdev-loop-dev
	libblockdev-fs-dev libblockdev-crypto-dev libcryptsetup-dev libdevmapper-dev libmount-dev
	libudev-dev libblkid-dev libaio-dev libyaml-dev libjson-c-dev libcairo2-dev libssl-dev libxxhash-dev
	libglib2.0-dev libcmocka-dev pkgconf libgsl27 libgslcblas0 liburing-dev
)
for a in "${cross_archs[@]}"; do
	for p in "${cross_dev[@]}"; do
		pkgs+=("$p:$a")
	done
done

missing=()
for p in "${pkgs[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing+=("$p")
	fi
done

if [ "${1:-}" = --check ]; then
	[ ${#missing[@]} -eq 0 ] && { echo "install-deps: everything is installed"; exit 0; }
	echo "install-deps: missing: ${missing[*]}"
	exit 1
fi
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "install-deps: these packages are missing and installing them needs root:" >&2
	echo "  apt-get install ${missing[*]}" >&2
	exit 1
fi
# the foreign architectures first, so that apt-get update lists their packages
for a in "${cross_archs[@]}"; do
	dpkg --print-foreign-architectures | grep -qx "$a" || dpkg --add-architecture "$a"
done
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp /tmp/stackbench-apt.XXXXXX)
# Installing a server package (nfs-kernel-server, samba, iperf3's daemon) must not
# start or enable it on this machine: stackbench runs its own instances in
# private namespaces. invoke-rc.d asks /usr/sbin/policy-rc.d; exit 101 =
# "action forbidden". Ours only if there is none, removed afterwards.
policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
	printf '#!/bin/sh\n# stackbench install-deps: no service starts while it installs\nexit 101\n' > /usr/sbin/policy-rc.d
	chmod 755 /usr/sbin/policy-rc.d
	policy=1
fi
trap 'rm -f "$log"; [ -n "$policy" ] && rm -f /usr/sbin/policy-rc.d' EXIT
# ... and what systemd would enable for next boot is disabled again, for the
# server packages this run installs (not for ones that were there before)
fresh=()
for p in nfs-kernel-server rpcbind samba; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || fresh+=("$p")
done
if ! { apt-get update -qq && apt-get install -y -qq --no-install-recommends --no-remove "${missing[@]}"; } >"$log" 2>&1; then
	tail -n 30 "$log" >&2
	echo "install-deps: apt-get failed (full log above, last 30 lines)" >&2
	exit 1
fi
if [ -d /run/systemd/system ]; then
	for p in "${fresh[@]}"; do
		case $p in
		nfs-kernel-server) systemctl disable --now nfs-server.service >/dev/null 2>&1 || true ;;
		rpcbind) systemctl disable --now rpcbind.service rpcbind.socket >/dev/null 2>&1 || true ;;
		samba) systemctl disable --now smbd.service nmbd.service samba-ad-dc.service >/dev/null 2>&1 || true ;;
		esac
	done
fi
echo "install-deps: done" >&2
