#!/usr/bin/env python3
"""What a user would otherwise run with Debian's Python stack (pandas, numpy;
no scikit-learn or xgboost packages there): Pearson and Spearman matrices
with pandas, PCA of the standardised features with numpy's eigh. Prints the
seconds of the computation (the CSV read excluded, timed apart) and writes
the Pearson matrix for the cross-check.

usage: importance_pandas.py DATASET.csv TARGET PEARSON_OUT.csv
"""
import sys
import time

import numpy as np
import pandas as pd

path, target, out = sys.argv[1:4]
t0 = time.perf_counter()
df = pd.read_csv(path)
t1 = time.perf_counter()
x = df.drop(columns=[target]).select_dtypes("number")
x = x.loc[:, x.std() > 0]
pearson = x.corr()
spearman = x.corr(method="spearman")
with_target = x.corrwith(df[target]), x.rank().corrwith(df[target].rank())  # spearman: no scipy here
z = (x - x.mean()) / x.std(ddof=0)
eigenvalues, eigenvectors = np.linalg.eigh(np.corrcoef(z.values, rowvar=False))
t2 = time.perf_counter()
pearson.to_csv(out)
print("read %.3f compute %.3f" % (t1 - t0, t2 - t1))
