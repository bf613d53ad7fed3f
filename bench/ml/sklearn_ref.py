"""scikit-learn's reference for spoor's rule and logistic models, leave-one-run-out
on the same rows and features: an exhaustive-threshold depth-2 decision tree
(greedy on Gini, so at most the best depth-2 rule) and a converged multinomial
LogisticRegression at spoor's penalty (mean cross-entropy + l2/2 |W|^2, i.e.
C = 1 / (l2 * training rows)) on standardised features.

usage: sklearn_ref.py DATASET FEATURES LABEL GROUP L2   (prints one JSON object)
"""
import json
import sys

import numpy as np
import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier


def main():
    path, features, label, group, l2 = sys.argv[1], sys.argv[2].split(","), sys.argv[3], sys.argv[4], float(sys.argv[5])
    d = pd.read_csv(path)
    x, y, g = d[features].to_numpy(float), d[label].to_numpy(), d[group].to_numpy()
    pred = {"tree_depth2": np.empty(len(y), dtype=object), "logistic": np.empty(len(y), dtype=object)}
    iters = []
    for held in pd.unique(g):
        test, train = g == held, g != held
        tree = DecisionTreeClassifier(max_depth=2, random_state=0).fit(x[train], y[train])
        pred["tree_depth2"][test] = tree.predict(x[test])
        scaler = StandardScaler().fit(x[train])
        lr = LogisticRegression(C=1 / (l2 * train.sum()), tol=1e-10, max_iter=100000)
        lr.fit(scaler.transform(x[train]), y[train])
        iters.append(int(lr.n_iter_[0]))
        pred["logistic"][test] = lr.predict(scaler.transform(x[test]))
    out = {name: float(np.mean(p == y)) for name, p in pred.items()}
    out["logistic_iterations_median"] = float(np.median(iters))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
