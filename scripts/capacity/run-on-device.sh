#!/bin/bash
# On the GPU machine (the device tool: `bash scripts/capacity/run-on-device.sh`, carry [".gpu"],
# after scripts/capacity/pack.sh): unpacks node and node_modules, renders the recipe's splits on
# every core, trains the nets of capacity.py on the GPU and meanwhile runs the bench on its CPU.
# Results land in $OUT. END (s, default 540) bounds the whole run; PLAN picks capacity.py's runs.
S=$(date +%s)
el() { echo $(( $(date +%s) - S )); }
cd "$(dirname "$0")/../.."
mkdir -p /tmp/p
tar -xJf .gpu/pack.tar.xz -C /tmp/p 2> /dev/null || python3 -c "import tarfile; tarfile.open('.gpu/pack.tar.xz').extractall('/tmp/p')"
tar -xf /tmp/p/nm.tar && tar -xf .gpu/dist.tar
export PATH=/tmp/p/bin:$PATH
{ node -v; nproc; lscpu | grep -E "Model name|^CPU\(s\)"; nvidia-smi -L; python3 -c "import torch; print(torch.__version__)"; } > "$OUT/machine.txt" 2>&1
echo "unpacked at $(el) s"; cat "$OUT/machine.txt"
node --import tsx scripts/capacity/render-splits.ts /tmp/rc $TRAIN_N 2> "$OUT/render.log" || { echo "render failed"; tail -20 "$OUT/render.log"; exit 1; }
echo "rendered at $(el) s"; tail -2 "$OUT/render.log"
end=${END:-540}
timeout $(( end - $(el) )) env BUDGET_S=$(( end - $(el) - 150 )) python3 -u scripts/capacity/capacity.py /tmp/rc > "$OUT/capacity.log" 2>&1 &
trainer=$!
timeout $(( end - 20 - $(el) )) node --import tsx scripts/bench.ts $BENCH_ARGS > "$OUT/bench.txt" 2> "$OUT/bench.err"
echo "bench rc $? at $(el) s"
wait $trainer; echo "capacity.py rc $? at $(el) s"
tail -20 "$OUT/capacity.log"
