#!/bin/sh
# CI (root, Debian): build the Debian package with `make deb`, install it with
# apt-get, check the installed binary, manual and shell completions, remove
# it; runs lintian on the package when it is installed.  Exits non-zero on
# the first failure.  Needs the build dependencies in debian/control (make
# deps) and installs debhelper when it is missing.  dpkg-buildpackage starts
# with `make clean`: the package is built in a copy of the tree (the files
# git knows, and new ones it does not ignore), so that this tree's builds
# stay (CI's make check after this pass reuses them).
set -eu
cd "$(dirname "$0")/.."

fail() {
	echo "deb.sh: FAIL: $*" >&2
	exit 1
}

# debhelper is not among `make deps`; dpkg-dev comes with build-essential.
if ! command -v dh >/dev/null; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y debhelper
fi
tmp=$(mktemp -d)
installed=0
cleanup() {
	rc=$?
	rm -rf "$tmp"
	if [ "$installed" = 1 ]; then
		DEBIAN_FRONTEND=noninteractive apt-get remove -y agrep-gpu \
		    >/dev/null || rc=1
	fi
	exit $rc
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

mkdir "$tmp/src"
if git rev-parse --git-dir >/dev/null 2>&1; then
	# (the files git knows that are there, and new ones it does not ignore)
	# shellcheck disable=SC2016 # sh -c's own script
	git ls-files -z --cached --others --exclude-standard |
	    xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\0" "$f"; done' sh |
	    tar --null -T - -cf - | tar -xf - -C "$tmp/src"
else	# (dpkg-buildpackage's make clean removes the other build outputs)
	tar --exclude=./build -cf - . | tar -xf - -C "$tmp/src"
fi
# (every core: debhelper builds with one job unless told)
export DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-parallel=$(nproc)}"
(cd "$tmp/src" && make deb)
version=$(dpkg-parsechangelog -S Version)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
deb=$tmp/src/build/agrep-gpu_${version}_${arch}.deb
[ -f "$deb" ] || fail "$deb not built"
if command -v lintian >/dev/null; then
	lintian --fail-on error,warning "$deb" || fail "lintian: $deb"
fi
mkdir -p build
cp "$deb" build/

DEBIAN_FRONTEND=noninteractive apt-get install -y "$deb"
installed=1
dpkg-query -W -f='${Status}\n' agrep-gpu | grep -qx 'install ok installed' ||
    fail "agrep-gpu is not installed"

# A search with one error, a line that must not match, on the host matcher
# (no OpenCL needed on the CI machine) and on the default device.
printf 'hello world\nsomething else\nhelo there\n' > "$tmp/in"
for dev in host ""; do
	out=$(AGREP_GPU_DEVICE=$dev /usr/bin/agrep-gpu -n -k1 hello "$tmp/in") ||
	    fail "/usr/bin/agrep-gpu -k1 (device '$dev') exited $?"
	[ "$out" = "$(printf '1:hello world\n3:helo there')" ] ||
	    fail "unexpected output (device '$dev'): $out"
done
st=0
/usr/bin/agrep-gpu -k1 xyzzy "$tmp/in" >/dev/null || st=$?
[ "$st" = 1 ] || fail "no match: exit status $st, expected 1"
echo hello | /usr/bin/agrep-gpu -k1 helo >/dev/null || fail "stdin search"

for f in /usr/share/man/man1/agrep-gpu.1.gz \
    /usr/share/bash-completion/completions/agrep-gpu \
    /usr/share/zsh/vendor-completions/_agrep-gpu \
    /usr/share/fish/vendor_completions.d/agrep-gpu.fish \
    /usr/share/doc/agrep-gpu/copyright; do
	[ -s "$f" ] || fail "$f is not installed"
	dpkg -S "$f" >/dev/null 2>&1 || fail "$f does not belong to agrep-gpu"
done
zcat /usr/share/man/man1/agrep-gpu.1.gz | grep -q '^\.Sh FILES' ||
    fail "the installed manual lacks FILES"
bash -c '. /usr/share/bash-completion/completions/agrep-gpu &&
    complete -p agrep-gpu' >/dev/null || fail "bash completion does not load"

DEBIAN_FRONTEND=noninteractive apt-get remove -y agrep-gpu
installed=0
[ ! -e /usr/bin/agrep-gpu ] || fail "/usr/bin/agrep-gpu left after remove"
echo "deb.sh: ok (build/${deb##*/})"
