#!/bin/bash
# On the GPU machine (the device tool: `bash scripts/capacity/real-on-device.sh`, carry [".gpu"],
# after scripts/capacity/pack.sh and `real-crops.ts .gpu`, with CUTS for the looser cuts): unpacks node and node_modules,
# renders the recipe's splits on every core, then trains real-transfer.py's RUNS on the GPU and
# scores them on the test split and the real crops. END (s, default 520) bounds the whole run.
S=$(date +%s)
el() { echo $(( $(date +%s) - S )); }
cd "$(dirname "$0")/../.."
mkdir -p /tmp/p
tar -xJf .gpu/pack.tar.xz -C /tmp/p && tar -xf /tmp/p/nm.tar || exit 1
export PATH=/tmp/p/bin:$PATH
{ node -v; nproc; nvidia-smi -L; python3 -c "import torch; print(torch.__version__)"; } 2>&1
echo "unpacked at $(el) s"
node --import tsx scripts/capacity/render-splits.ts /tmp/rc 2> "$OUT/render.log" || { echo "render failed"; tail -20 "$OUT/render.log"; exit 1; }
cp .gpu/real*.bin /tmp/rc/
echo "rendered at $(el) s"; tail -1 "$OUT/render.log"
end=${END:-520}
BUDGET_S=$(( end - $(el) - 15 )) timeout $(( end - $(el) )) python3 -u scripts/capacity/real-transfer.py /tmp/rc 2>&1 | tee "$OUT/real-transfer.log" | grep -v '^  '
echo "done at $(el) s"
