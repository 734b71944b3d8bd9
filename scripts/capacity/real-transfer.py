"""Do larger nets trained on clew's renders read REAL dice better, and how much does a training
run's seed move the committed shape's real-photo accuracy? The nets are trained on the recipe's
rendered crops only and scored on the test split and on the real Catan crops that
`real-crops.ts` framed as the reader frames them (never trained on).

Unlike capacity.py (dataset-wide normalisation, light jitter), every net here sees clew's own
input: each crop standardised on its own (preprocess.ts, std floored at 12 levels), with an
augmentation like augment.ts at strength 0.4 (shift, zoom, small rotation, blur now and then,
exposure, white balance, gamma, saturation, hue, noise), since transfer to photos is what is
measured. The committed shape is also scored through an exponential moving average of its
weights (cheap to add to clew's trainer if it pays).

Not part of clew: the measurement behind docs/notes/vision-model.md, "Real photos and the net's
size". With DIR holding the splits (render-splits.ts) and real.bin (real-crops.ts):

    RUNS="plain:1,resnet10w16,plain:2" BUDGET_S=400 python3 scripts/capacity/real-transfer.py DIR

Runs: plain (the committed shape, clew's recipe), res1 (the same with a residual 3x3 conv after
its first block), resnet10w16-clew and resnet10w8-clew (ResNet-10 of width 16 or 8, clew's
recipe), resnet10w8dense-clew (the width-8 ResNet-10 with the committed net's dense head over its
last map instead of pooling), resnet10w16 and resnet18w16 (capacity.py's SGD recipe, 30 epochs);
`name:seed`. Real crops cut looser (DIR/real-cut*.bin from real-crops.ts with CUTS) are scored
too, one figure each. Each run prints one JSON line
(also appended to $OUT/real-transfer.jsonl). The twenty-first session's GPU runs were made before
the training loops were shared with depth-at-budget.py and capacity.py (the same recipes; its
AdamW was fused and scored in float32)."""
import json, os, sys, time, math, copy

_here = os.path.dirname(os.path.abspath(__file__))
# depth-at-budget.py's Net (the committed shape) and fit_adamw (clew's recipe), after capacity.py's
# setup (data, dev, C, the ResNets, evaluate's masking, fit_sgd); neither file's runs are started.
# The `prep` below replaces capacity.py's, so all of them train and score on clew's input.
exec(open(os.path.join(_here, 'depth-at-budget.py')).read().split('\nfor spec in os.environ')[0])

xre, yre, sre = load_file('real.bin')
print(f'real crops {len(yre)}', flush=True)
# The same pictures cut looser (real-crops.ts with CUTS), when DIR has them: {label: (x, y, set)}.
loose = {f[len('real-'):-len('.bin')]: load_file(f) for f in sorted(os.listdir(D)) if f.startswith('real-cut') and f.endswith('.bin')}

_k = torch.tensor([1., 2., 1.], device=dev)
BLUR = (_k[:, None] * _k[None, :] / 16).expand(3, 1, 3, 3).contiguous()
YIQ = torch.tensor([[0.299, 0.587, 0.114], [0.596, -0.274, -0.322], [0.211, -0.523, 0.312]], device=dev)
YIQ_INV = torch.linalg.inv(YIQ)


def prep(x, aug, s=0.4):
    """Bytes → clew's net input: augmented like augment.ts (if aug), then per-crop standardised."""
    x = x.float()
    if aug:
        n = x.shape[0]
        u = lambda a, b: a + (b - a) * torch.rand(n, device=dev)
        zoom = 1 + s * u(-0.1, 0.12); ang = s * u(-0.12, 0.12)
        tx = s * u(-3, 3) / 32; ty = s * u(-3, 3) / 32
        th = torch.stack([torch.stack([ang.cos() / zoom, -ang.sin() / zoom, tx], 1), torch.stack([ang.sin() / zoom, ang.cos() / zoom, ty], 1)], 1)
        x = F.grid_sample(x, F.affine_grid(th, list(x.shape), align_corners=False), padding_mode='border', align_corners=False)
        blur = torch.rand(n, 1, 1, 1, device=dev) < 0.25 * s
        x = torch.where(blur, F.conv2d(F.pad(x, (1, 1, 1, 1), mode='replicate'), BLUR, groups=3), x)
        exposure = torch.exp(s * u(-0.35, 0.35)); gamma = torch.exp(s * u(-0.25, 0.25))
        gains = exposure[:, None] * torch.exp(s * (torch.rand(n, 3, device=dev) * 0.24 - 0.12))
        x = 255 * ((x * gains[:, :, None, None]).clamp(0, 255) / 255) ** gamma[:, None, None, None]
        sat = torch.exp(s * u(-0.5, 0.5))
        turn = torch.where(torch.rand(n, device=dev) < 0.3 * s, u(-math.pi, math.pi), torch.zeros(n, device=dev))
        # In YIQ: luma kept, chroma scaled by the saturation and turned by the hue.
        c, sn = turn.cos() * sat, turn.sin() * sat
        rot = torch.zeros(n, 3, 3, device=dev); rot[:, 0, 0] = 1
        rot[:, 1, 1] = c; rot[:, 1, 2] = -sn; rot[:, 2, 1] = sn; rot[:, 2, 2] = c
        m = YIQ_INV[None] @ rot @ YIQ[None]
        x = torch.einsum('nij,njhw->nihw', m, x)
        x = x + s * u(0, 6)[:, None, None, None] * torch.randn_like(x)
    mu = x.mean(dim=(1, 2, 3), keepdim=True)
    sd = x.std(dim=(1, 2, 3), keepdim=True, correction=0).clamp_min(12)
    return ((x - mu) / sd).contiguous(memory_format=torch.channels_last)


def report(name, model, secs, extra):
    te, per, _, _ = evaluate(model, xte, yte, ste)
    _, _, pred, conf = evaluate(model, xre, yre, sre)
    wrong = [f'{i}:{meta["classes"][yre[i]]}->{meta["classes"][pred[i]]}@{conf[i]:.2f}' for i in range(len(yre)) if pred[i] != yre[i]]
    cuts = {f'real_{k}_acc': round(evaluate(model, *v)[0], 2) for k, v in loose.items()}
    row = dict(name=name, params=sum(p.numel() for p in model.parameters()), seconds=round(secs), test_acc=round(te, 2), per_set=per, real_acc=round(100 * (1 - len(wrong) / len(yre)), 2), real_wrong=wrong, **cuts, **extra)
    print(json.dumps(row), flush=True)
    with open(os.path.join(OUT, 'real-transfer.jsonl'), 'a') as f: f.write(json.dumps(row) + '\n')


def train_clew(name, model, epochs, seed, ema_decay=0.999):
    """clew's recipe (fit_adamw), with an exponential moving average of the weights scored too."""
    torch.manual_seed(seed)
    model = model.to(dev).to(memory_format=torch.channels_last)
    ema = copy.deepcopy(model)
    # The weights and the batch norms' running statistics, averaged (floating tensors only).
    live = [t for t in list(model.parameters()) + list(model.buffers()) if t.is_floating_point()]
    avg = [t for t in list(ema.parameters()) + list(ema.buffers()) if t.is_floating_point()]
    def average():
        with torch.no_grad():
            torch._foreach_mul_(avg, ema_decay); torch._foreach_add_(avg, live, alpha=1 - ema_decay)
    model, secs = fit_adamw(name, model, epochs, after_step=average)
    report(name, model, secs, dict(seed=seed, epochs=epochs))
    report(name + '-ema', ema, secs, dict(seed=seed, epochs=epochs))


def train_sgd(name, model, epochs, seed):
    """capacity.py's ResNet recipe (fit_sgd: SGD, Nesterov, one-cycle), on clew's input."""
    torch.manual_seed(seed)
    model, secs = fit_sgd(model, len(ytr), epochs, 0.1)
    report(name, model, secs, dict(seed=seed, epochs=epochs))


class DenseHeadResNet(ResNet):
    """A ResNet whose head is the committed net's: its last map flattened (so the head knows where
    in the crop each feature lies, where pooling does not), a 96-wide embedding with batch norm,
    then the classes."""
    def __init__(s, width, emb=96):
        super().__init__(width, 2, blocks=1)
        s.head = nn.Sequential(nn.Linear(8 * width * 16, emb, bias=False), nn.BatchNorm1d(emb), nn.ReLU(inplace=True), nn.Linear(emb, C))
    def forward(s, x):
        return s.head(s.body(s.stem(x)).permute(0, 2, 3, 1).flatten(1))


EPOCHS = int(os.environ.get('EPOCHS', '0'))
SMOKE_N = 512
if SMOKE:
    xtr, ytr, str_ = xtr[:SMOKE_N], ytr[:SMOKE_N], str_[:SMOKE_N]
RUNS = {
    'plain': lambda seed: train_clew(f'plain-s{seed}', Net(), EPOCHS or 9, seed),
    'resnet10w16': lambda seed: train_sgd('resnet10w16', ResNet(16, 2, blocks=1), EPOCHS or 30, seed),
    # The committed shape with a residual 3x3 conv after its first block (32x32, 16 filters): the
    # ResNets' full-resolution stage at a fraction of its cost.
    'res1': lambda seed: train_clew(f'res1-s{seed}', Net((0,)), EPOCHS or 9, seed),
    'resnet10w16-clew': lambda seed: train_clew(f'resnet10w16-clew-s{seed}', ResNet(16, 2, blocks=1), EPOCHS or 9, seed),
    'resnet10w8-clew': lambda seed: train_clew(f'resnet10w8-clew-s{seed}', ResNet(8, 2, blocks=1), EPOCHS or 9, seed),
    'resnet10w8dense-clew': lambda seed: train_clew(f'resnet10w8dense-clew-s{seed}', DenseHeadResNet(8), EPOCHS or 9, seed),
    'resnet18w16': lambda seed: train_sgd('resnet18w16', ResNet(16, 2), EPOCHS or 30, seed),
    'resnet18w64': lambda seed: train_sgd('resnet18w64', ResNet(64, 2), EPOCHS or 30, seed),
}
# Seconds each run is expected to take on the GPU, so a run that cannot finish is not started.
COST = {'plain': 90, 'resnet10w8-clew': 90, 'resnet10w8dense-clew': 90, 'res1': 120, 'resnet10w16-clew': 120, 'resnet10w16': 90, 'resnet18w16': 110, 'resnet18w64': 130}
for spec in os.environ.get('RUNS', 'plain:1').split(','):
    name, _, seed = spec.partition(':')
    left = budget - (time.time() - t_start)
    if not SMOKE and left < COST[name]:
        print(f'skip {spec}: {left:.0f} s left', flush=True); continue
    RUNS[name](int(seed or 1))
print(f'total {time.time() - t_start:.0f} s', flush=True)
