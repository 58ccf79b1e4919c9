#!/bin/bash
# bench/gpu-dz-fetch.sh: run on the development machine, from the project
# root, before a GPU machine call that builds --decompress there (its
# machines have no decompression headers, no libisal and no bgzip, pzstd or
# igzip, and cannot reach a mirror).  Puts the packages as .deb files into
# .devdeps/dz/ (git-ignored, carried with .devdeps) and writes
# .devdeps/dz-setup.sh, which unpacks them into /tmp/dz there, never into /
# (library packages unpacked into / break that machine's linker:
# ../shared/device/README.md).  Then, on the GPU machine:
#   bash .devdeps/opencl-setup.sh && source .devdeps/dz-setup.sh &&
#   CFLAGS="-O2 -g $DZ_CFLAGS" LDFLAGS="$DZ_LDFLAGS" make -j16 agrep-gpu
# (CFLAGS in the environment: on make's command line it would replace the
# Makefile's -std=gnu11 -D_GNU_SOURCE).  bench/gpu-decomp.sh uses them.
set -eu
mkdir -p .devdeps/dz
cd .devdeps/dz
apt-get download libisal2 libisal-dev libzstd1 libzstd-dev liblzma5 \
    liblzma-dev libbz2-1.0 libbz2-dev liblz4-1 liblz4-dev isal zstd pigz \
    tabix libdeflate0 libhtscodecs2
cd ../..
cat > .devdeps/dz-setup.sh <<'SETUP'
#!/bin/bash
# Source it on the GPU machine (bench/gpu-dz-fetch.sh wrote it): exports
# DZ_CFLAGS, DZ_LDFLAGS, LD_LIBRARY_PATH and PATH for /tmp/dz.
D=/tmp/dz
if [ ! -d $D/usr ]; then
	mkdir -p $D
	for f in "$(dirname "${BASH_SOURCE[0]}")"/dz/*.deb; do dpkg -x "$f" $D; done
fi
export DZ_CFLAGS="-I$D/usr/include"
export DZ_LDFLAGS="-L$D/usr/lib/x86_64-linux-gnu -L$D/lib/x86_64-linux-gnu"
export LD_LIBRARY_PATH="$D/usr/lib/x86_64-linux-gnu:$D/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PATH="$D/usr/bin:$D/bin:$PATH"
SETUP
echo "bench/gpu-dz-fetch.sh: .devdeps/dz and .devdeps/dz-setup.sh ready"
