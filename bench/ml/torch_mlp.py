"""The PyTorch peer of `spoor train --model mlp`: the same network, settings
and rows (the split spoor wrote with --save-split), timed the same way (the
training loop only, data already in memory), on one thread like spoor.

usage: torch_mlp.py DATASET.csv SPLIT.csv FEATURES LABEL SEED
prints one JSON line: train_ms, accuracy (on the test rows), epochs_run.
"""
import csv
import json
import sys
import time

import torch

HIDDEN, DROPOUT, LR, BATCH, EPOCHS, PATIENCE = (32, 16), 0.2, 1e-3, 128, 60, 8


def load(path, split_path, features, label):
    parts = {}
    with open(split_path, newline="") as f:
        for row in csv.DictReader(f):
            parts[int(row["line"])] = row["part"]
    x, y, part, classes = [], [], [], {}
    with open(path, newline="") as f:
        for line, row in enumerate(csv.DictReader(f), start=2):
            if line not in parts:
                continue
            x.append([float(row[c]) for c in features])
            y.append(classes.setdefault(row[label], len(classes)))
            part.append(parts[line])
    return torch.tensor(x, dtype=torch.float64), torch.tensor(y), part, len(classes)


def main():
    path, split_path, features, label, seed = sys.argv[1:6]
    torch.manual_seed(int(seed))
    torch.set_num_threads(1)
    x, y, part, k = load(path, split_path, features.split(","), label)
    idx = {p: torch.tensor([i for i, q in enumerate(part) if q == p]) for p in ("train", "validation", "test")}
    fit = torch.cat([idx["train"], idx["validation"]])
    mean, std = x[fit].mean(0), x[fit].std(0, unbiased=False)
    std[std == 0] = 1
    x = ((x - mean) / std).float()

    layers, width = [], x.shape[1]
    for h in HIDDEN:
        layers += [torch.nn.Linear(width, h), torch.nn.ReLU(), torch.nn.Dropout(DROPOUT)]
        width = h
    net = torch.nn.Sequential(*layers, torch.nn.Linear(width, k))
    opt = torch.optim.Adam(net.parameters(), lr=LR)
    loss_fn = torch.nn.CrossEntropyLoss()
    xt, yt, xv, yv = x[idx["train"]], y[idx["train"]], x[idx["validation"]], y[idx["validation"]]

    start = time.perf_counter()
    best, best_state, since, epochs = float("inf"), None, 0, 0
    for epoch in range(EPOCHS):
        epochs = epoch + 1
        net.train()
        order = torch.randperm(len(xt))
        for b in range(0, len(xt), BATCH):
            sel = order[b:b + BATCH]
            opt.zero_grad()
            loss_fn(net(xt[sel]), yt[sel]).backward()
            opt.step()
        net.eval()
        with torch.no_grad():
            val = loss_fn(net(xv), yv).item()
        if val < best:
            best, since = val, 0
            best_state = {n: t.clone() for n, t in net.state_dict().items()}
        else:
            since += 1
            if since >= PATIENCE:
                break
    net.load_state_dict(best_state)
    train_ms = (time.perf_counter() - start) * 1e3

    with torch.no_grad():
        pred = net(x[idx["test"]]).argmax(1)
    accuracy = (pred == y[idx["test"]]).float().mean().item()
    print(json.dumps({"train_ms": train_ms, "accuracy": accuracy, "epochs_run": epochs}))


if __name__ == "__main__":
    main()
