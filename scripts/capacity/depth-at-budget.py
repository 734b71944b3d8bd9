"""Depth at the hour's budget: does a deeper net beat the committed net's plain shape when both
get the same training time? The committed shape (four 3x3 stride-2 conv blocks 16-32-64-128
with batch norm, the last map flattened into a dense embedding of 96, then the logits) against
the same with a residual 3x3 convolution after blocks 3 and 4 ("res34", 2.2 times the training
step in PyTorch here and in tfjs's wasm backend, 1.65 times the read), trained with a recipe
close to clew's (AdamW 5e-3 with weight decay 1e-4, 3 % warm-up then cosine to 2 %, label
smoothing 0.05, batches of 64), for 9 epochs and for the epochs that take the same time.

Not part of clew: the measurement behind docs/notes/vision-model.md, "Depth at the budget". It
reuses capacity.py's data loading, light augmentation and masked scoring (everything before its
plan), on the crops `render-splits.ts` renders:

    node --import tsx scripts/capacity/render-splits.ts DIR
    RUNS="plain::9;res34:23:4" python3 scripts/capacity/depth-at-budget.py DIR   # name:residual blocks:epochs

Each run prints one JSON line (test accuracy masked to each crop's set, one view)."""
import json, os, sys, time, math

_here = os.path.dirname(os.path.abspath(__file__))
# capacity.py's setup: data, prep (augmentation), evaluate, dev, C; its plan is not run.
exec(open(os.path.join(_here, 'capacity.py')).read().split('\nplan = [')[0])


class Net(nn.Module):
    """The committed shape; `res_stages`: blocks (0-3) followed by a residual 3x3 conv + BN."""
    def __init__(s, res_stages=(), emb=96):
        super().__init__()
        s.convs = nn.ModuleList(); s.bns = nn.ModuleList(); s.res = nn.ModuleDict(); cin = 3
        for i, f in enumerate((16, 32, 64, 128)):
            s.convs.append(nn.Conv2d(cin, f, 3, 2, 1, bias=False)); s.bns.append(nn.BatchNorm2d(f)); cin = f
            if i in res_stages:
                s.res[str(i)] = nn.Sequential(nn.Conv2d(f, f, 3, 1, 1, bias=False), nn.BatchNorm2d(f))
        s.e = nn.Linear(128 * 16, emb, bias=False); s.eb = nn.BatchNorm1d(emb); s.h = nn.Linear(emb, C)

    def forward(s, x):
        for i in range(4):
            x = F.relu(s.bns[i](s.convs[i](x)))
            if str(i) in s.res:
                x = F.relu(x + s.res[str(i)](x))
        return s.h(F.relu(s.eb(s.e(x.permute(0, 2, 3, 1).flatten(1)))))


def fit_adamw(name, model, epochs, lr=5e-3, bs=64, wd=1e-4, smooth=0.05, warm=0.03, after_step=None):
    """clew's recipe on all training crops (validation accuracy printed each epoch); (model, seconds)."""
    t0 = time.time(); n = len(ytr)
    model = model.to(dev).to(memory_format=torch.channels_last)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=wd)
    steps = epochs * (n // bs); w = max(1, round(warm * steps))
    def lr_at(k):
        if k < w: return lr * (k + 1) / w
        t = (k - w) / max(1, steps - w)
        return lr * (0.02 + 0.98 * 0.5 * (1 + math.cos(math.pi * min(1, t))))
    step = 0
    for ep in range(epochs):
        perm = torch.randperm(n, device=dev)
        for i in range(0, (n // bs) * bs, bs):
            for g in opt.param_groups: g['lr'] = lr_at(step)
            idx = perm[i:i + bs]
            loss = F.cross_entropy(model(prep(xtr[idx], True)), ytr[idx], label_smoothing=smooth)
            opt.zero_grad(set_to_none=True); loss.backward(); opt.step(); step += 1
            if after_step: after_step()
        print(f'  {name} epoch {ep + 1} val {evaluate(model, xva, yva, sva)[0]:.2f} {time.time() - t0:.0f} s', flush=True)
    return model, time.time() - t0


def train(name, model, epochs, **recipe):
    model, secs = fit_adamw(name, model, epochs, **recipe)
    te, per, _, _ = evaluate(model, xte, yte, ste)
    row = dict(name=name, params=sum(p.numel() for p in model.parameters()), epochs=epochs, seconds=round(secs), test_acc=round(te, 2), per_set=per)
    print(json.dumps(row), flush=True)
    with open(os.path.join(OUT, 'depth-at-budget.jsonl'), 'a') as f: f.write(json.dumps(row) + '\n')


for spec in os.environ.get('RUNS', 'plain::9;res34:23:4').split(';'):
    name, stages, epochs = spec.split(':')
    torch.manual_seed(1)
    train(name, Net(tuple(int(c) for c in stages)), int(epochs))
