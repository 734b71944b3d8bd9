"""How far can larger nets, trained on a GPU on the committed model's own synthetic crops, read
clew's synthetic test split? Separates the committed net's limit from the split's own.

Not part of clew (no GPU is needed by clew, and nothing here is shipped): the measurement behind
docs/notes/vision-model.md, "How far the split can be read". Runs with PyTorch on a CUDA machine,
or in float32 on a CPU (the nets nearest clew's budget were trained so; SMOKE=1 checks the
pipeline with a few crops and one epoch):

    node --import tsx scripts/capacity/render-splits.ts DIR     # train 96,000 / val / test, as `npm run train`
    OUT=results python3 scripts/capacity/capacity.py DIR       # PLAN=a,b picks runs; EPOCHS=n overrides; BUDGET_S stops starting new ones

Each run prints one JSON line (and appends it to $OUT/capacity.jsonl): parameters, seconds, and
accuracy on train / val / test, masked to each crop's dice set as the reader masks it, one view,
no second look (the committed net scores 84.5 % so on the same test split)."""
import json, os, sys, time, math
import numpy as np
import torch, torch.nn as nn, torch.nn.functional as F

D = sys.argv[1]
OUT = os.environ.get('OUT', '.')
budget = float(os.environ.get('BUDGET_S', '300'))
t_start = time.time()
meta = json.load(open(os.path.join(D, 'meta.json')))
C = len(meta['classes'])
sets = meta['sets']
mask = torch.zeros(len(sets), C, dtype=torch.bool)
for i, s in enumerate(sets):
    mask[i, meta['masks'][s]] = True
dev = 'cuda' if torch.cuda.is_available() else 'cpu'
SMOKE = os.environ.get('SMOKE') == '1'
# bf16 autocast is a GPU speed-up; on a CPU it ran 6-8 times slower than float32 here.
AMP = dev == 'cuda'
torch.backends.cudnn.benchmark = True
torch.backends.cuda.matmul.allow_tf32 = True
torch.backends.cudnn.allow_tf32 = True

def load(name):
    return load_file(meta['files'][name])

def load_file(fname):
    """A file of DIR in the dataset cache's record format: crops, classes, sets (on dev)."""
    raw = np.fromfile(os.path.join(D, fname), dtype=np.uint8)
    rec = 2 + meta['cropBytes']  # class, set, then the crop's RGB bytes
    raw = raw[: (raw.size // rec) * rec].reshape(-1, rec)
    x = torch.from_numpy(raw[:, 2:].copy()).view(-1, 64, 64, 3).permute(0, 3, 1, 2).contiguous()
    return x.to(dev), torch.from_numpy(raw[:, 0].astype(np.int64)).to(dev), torch.from_numpy(raw[:, 1].astype(np.int64)).to(dev)

xtr, ytr, str_ = load('train'); xva, yva, sva = load('val'); xte, yte, ste = load('test')
print(f'train {len(ytr)} val {len(yva)} test {len(yte)} classes {C}', flush=True)
mean = xtr[:4096].float().mean(dim=(0, 2, 3), keepdim=True) / 255
std = xtr[:4096].float().std(dim=(0, 2, 3), keepdim=True) / 255
maskd = mask.to(dev)

def prep(x, aug):
    x = x.float() / 255
    if aug:
        n = x.shape[0]
        # shifts of up to 4 px, brightness/contrast jitter; no flips (shape dice are chiral)
        pad = F.pad(x, (4, 4, 4, 4), mode='replicate')
        ix = torch.randint(0, 9, (n,), device=dev); iy = torch.randint(0, 9, (n,), device=dev)
        ar = torch.arange(64, device=dev)
        rows = (iy[:, None] + ar[None]).view(n, 1, 64, 1).expand(n, 3, 64, 72)
        x = pad.gather(2, rows)
        cols = (ix[:, None] + ar[None]).view(n, 1, 1, 64).expand(n, 3, 64, 64)
        x = x.gather(3, cols)
        b = (torch.rand(n, 1, 1, 1, device=dev) - 0.5) * 0.2
        c = 1 + (torch.rand(n, 1, 1, 1, device=dev) - 0.5) * 0.3
        m = x.mean(dim=(1, 2, 3), keepdim=True)
        x = ((x - m) * c + m + b).clamp(0, 1)
    return ((x - mean) / std).contiguous(memory_format=torch.channels_last)

class Shipped(nn.Module):
    """The committed net's shape: four 3x3 stride-2 conv blocks 16-32-64-128 with BN, GAP, dense 96."""
    def __init__(s):
        super().__init__()
        L = []; cin = 3
        for f in (16, 32, 64, 128):
            L += [nn.Conv2d(cin, f, 3, 2, 1, bias=False), nn.BatchNorm2d(f), nn.ReLU(inplace=True)]; cin = f
        s.f = nn.Sequential(*L); s.e = nn.Linear(128, 96); s.h = nn.Linear(96, C)
    def forward(s, x):
        x = s.f(x).mean(dim=(2, 3)); return s.h(F.relu(s.e(x)))

class Block(nn.Module):
    def __init__(s, cin, cout, stride):
        super().__init__()
        s.c1 = nn.Conv2d(cin, cout, 3, stride, 1, bias=False); s.b1 = nn.BatchNorm2d(cout)
        s.c2 = nn.Conv2d(cout, cout, 3, 1, 1, bias=False); s.b2 = nn.BatchNorm2d(cout)
        s.sc = None if stride == 1 and cin == cout else nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
    def forward(s, x):
        y = F.relu(s.b1(s.c1(x))); y = s.b2(s.c2(y))
        return F.relu(y + (x if s.sc is None else s.sc(x)))

class ResNet(nn.Module):
    """ResNet-18 (blocks=2) or ResNet-10 (blocks=1) for 64 px crops: a 3x3 stem, four stages."""
    def __init__(s, width=64, stem_stride=1, blocks=2):
        super().__init__()
        w = width
        s.stem = nn.Sequential(nn.Conv2d(3, w, 3, stem_stride, 1, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True))
        cfg = []
        for cin, cout, stride in ((w, w, 1), (w, 2 * w, 2), (2 * w, 4 * w, 2), (4 * w, 8 * w, 2)):
            cfg += [(cin, cout, stride)] + [(cout, cout, 1)] * (blocks - 1)
        s.body = nn.Sequential(*[Block(a, b, st) for a, b, st in cfg])
        s.head = nn.Linear(8 * w, C)
    def forward(s, x):
        return s.head(s.body(s.stem(x)).mean(dim=(2, 3)))

def evaluate(model, x, y, st):
    model.eval(); preds = []; probs = []
    with torch.no_grad(), torch.autocast(dev, dtype=torch.bfloat16, enabled=AMP):
        for i in range(0, len(y), 1024):
            lg = model(prep(x[i:i + 1024], False)).float()
            lg = lg.masked_fill(~maskd[st[i:i + 1024]], -1e9)
            p = lg.softmax(-1); probs.append(p.max(-1).values); preds.append(p.argmax(-1))
    pred = torch.cat(preds); conf = torch.cat(probs); ok = pred == y
    per = {sets[k]: round(ok[st == k].float().mean().item() * 100, 1) for k in range(len(sets)) if (st == k).any()}
    model.train()
    return ok.float().mean().item() * 100, per, pred, conf

def fit_sgd(model, n_train, epochs, lr, bs=256, wd=5e-4, smooth=0.05):
    """SGD with Nesterov momentum and a one-cycle schedule on the first n_train crops; (model, seconds)."""
    t0 = time.time()
    model = model.to(dev).to(memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, nesterov=True, weight_decay=wd)
    steps = epochs * math.ceil(n_train / bs); step = 0
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps, pct_start=0.15)
    for ep in range(epochs):
        perm = torch.randperm(n_train, device=dev)
        for i in range(0, n_train, bs):
            idx = perm[i:i + bs]
            with torch.autocast(dev, dtype=torch.bfloat16, enabled=AMP):
                lg = model(prep(xtr[idx], True))
            loss = F.cross_entropy(lg.float(), ytr[idx], label_smoothing=smooth)
            opt.zero_grad(set_to_none=True); loss.backward(); opt.step(); sched.step(); step += 1
    if dev == 'cuda': torch.cuda.synchronize()
    return model, time.time() - t0

def run(name, model, n_train, epochs, lr, bs=256, wd=5e-4, smooth=0.05):
    model, secs = fit_sgd(model, n_train, epochs, lr, bs, wd, smooth)
    tr, _, _, _ = evaluate(model, xtr[:8000], ytr[:8000], str_[:8000])
    va, _, _, _ = evaluate(model, xva, yva, sva)
    te, per, pred, conf = evaluate(model, xte, yte, ste)
    params = sum(p.numel() for p in model.parameters())
    row = dict(name=name, params=params, n_train=n_train, epochs=epochs, seconds=round(secs, 1), train_acc=round(tr, 2), val_acc=round(va, 2), test_acc=round(te, 2), per_set=per)
    print(json.dumps(row), flush=True)
    with open(os.path.join(OUT, 'capacity.jsonl'), 'a') as f: f.write(json.dumps(row) + '\n')
    return model, pred, conf

plan = [
    # narrow and shallow nets nearer clew's budget (not yet run)
    ('resnet18w8', lambda: ResNet(8, 2), len(ytr), 30, 0.1),
    ('resnet10w16', lambda: ResNet(16, 2, blocks=1), len(ytr), 30, 0.1),
    ('resnet18w16', lambda: ResNet(16, 2), len(ytr), 30, 0.1),
    ('shipped-shape-30ep', lambda: Shipped(), len(ytr), 30, 0.1),
    ('resnet18w24', lambda: ResNet(24, 2), len(ytr), 30, 0.1),
    ('resnet18w32', lambda: ResNet(32, 2), len(ytr), 30, 0.1),
    ('shipped-shape', lambda: Shipped(), len(ytr), 9, 0.1),
    ('resnet18w64', lambda: ResNet(64, 2), len(ytr), 30, 0.1),
    ('resnet18w64-quarter-data', lambda: ResNet(64, 2), len(ytr) // 4, 30, 0.1),
    ('resnet18w64-half-data', lambda: ResNet(64, 2), len(ytr) // 2, 30, 0.1),
    ('resnet18w128', lambda: ResNet(128, 2), len(ytr), 30, 0.1),
    ('resnet18w64-60ep', lambda: ResNet(64, 2), len(ytr), 60, 0.1),
]
if os.environ.get('PLAN'): plan = [p for p in plan if p[0] in os.environ['PLAN'].split(',')]
if os.environ.get('EPOCHS'): plan = [(n, mk, n_, int(os.environ['EPOCHS']), lr) for n, mk, n_, ep, lr in plan]
if SMOKE: plan = [(n, mk, min(n_, 256), 1, lr) for n, mk, n_, ep, lr in plan]
ens = []
for name, mk, n, ep, lr in plan:
    if time.time() - t_start > budget:
        print(f'skip {name}: budget', flush=True); continue
    torch.manual_seed(1)
    m, pred, conf = run(name, mk(), n, ep, lr)
    if name in ('resnet18w64', 'resnet18w64-60ep', 'resnet18w128'):
        ens.append(m)
    if name == 'resnet18w64':
        torch.save({'pred': pred.cpu(), 'conf': conf.float().cpu(), 'y': yte.cpu(), 'set': ste.cpu()}, os.path.join(OUT, 'resnet-test-preds.pt'))
if len(ens) >= 2:
    with torch.no_grad(), torch.autocast(dev, dtype=torch.bfloat16, enabled=AMP):
        tot = 0
        for m in ens:
            m.eval(); ps = []
            for i in range(0, len(yte), 1024):
                ps.append(m(prep(xte[i:i + 1024], False)).float().masked_fill(~maskd[ste[i:i + 1024]], -1e9).softmax(-1))
            tot = tot + torch.cat(ps)
    ok = tot.argmax(-1) == yte
    print(json.dumps(dict(name=f'ensemble of {len(ens)}', test_acc=round(ok.float().mean().item() * 100, 2), per_set={sets[k]: round(ok[ste == k].float().mean().item() * 100, 1) for k in range(len(sets))})), flush=True)
print(f'total {time.time() - t_start:.0f} s', flush=True)
