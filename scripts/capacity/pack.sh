#!/bin/bash
# Packs what a machine without npm or the network needs to render the splits and run the bench:
# this machine's node binary and the node_modules files that a render and a quick bench read
# (found by their access times in a fresh copy of the checkout), xz'd into .gpu/ (git-ignored
# through .git/info/exclude), with the built dashboard. About 45 MB; the device tool carries
# at most 64 MiB. Run from the checkout after `npm ci` and `npm run build`.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Fresh times in the copy, so relatime records the next read of each file.
tar --exclude=./tmp --exclude=./.git --exclude=./.gpu -cf - . | (cd "$work" && tar -xf - --touch)
sleep 1; touch "$work/.marker"; sleep 1
(cd "$work" && npx tsx scripts/capacity/render-splits.ts "$work/tmp/rc" 64 32 && npm run --silent bench -- --quick > /dev/null)
(cd "$work" && find node_modules -type f -anewer .marker ! -name '*.map' > files.txt && tar -cf nm.tar -T files.txt)
mkdir -p .gpu "$work/pack/bin"
cp "$(command -v node)" "$work/pack/bin/node"
mv "$work/nm.tar" "$work/pack/"
tar -C "$work/pack" -cf - bin nm.tar | xz -T0 -6 > .gpu/pack.tar.xz
tar -cf .gpu/dist.tar dist
mkdir -p .git/info
grep -qx '/.gpu/' .git/info/exclude 2> /dev/null || echo '/.gpu/' >> .git/info/exclude
ls -la .gpu
