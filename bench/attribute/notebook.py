"""The DataCrumbs notebook's attribution method, as a user runs it in pandas.

Load the trace into one DataFrame (one json.loads per line, as the notebook's
loader does), resolve each call's file from the FH metadata, then for every
read call of interest one boolean-mask query over all events (any process;
the event shares time with the call or is nested in it) and a group-by
summing the whole dur per cat.name. This is spoor's --compat notebook, so the
answers can be compared.

usage: notebook.py TRACE.pfw.gz FILE MAX_CALLS OUT.json
Prints one JSON line of timings to stdout and writes the per-call sums of the
first MAX_CALLS calls to OUT.json ({call_id: {"cat.name": ns}}).
"""
import gzip
import json
import resource
import sys
import time

import pandas as pd


def load(path, extra_args=()):
    """The events as one DataFrame (ts and end in ns), with the args named in
    extra_args as columns of their own (None where absent)."""
    rows, files = [], {}
    with gzip.open(path, "rt") as f:
        for line in f:
            line = line.strip().rstrip(",")
            if not line.startswith("{"):
                continue
            e = json.loads(line)
            args = e.get("args", {})
            if e.get("ph") == "M":
                if e.get("name") == "FH":
                    files[str(args.get("value"))] = args.get("name")
                continue
            rows.append((e.get("name"), e.get("cat"), e.get("pid"), e.get("tid"), e.get("ts"), e.get("dur"),
                         str(args["fhash"]) if "fhash" in args else None, args.get("call_id"),
                         *(args.get(key) for key in extra_args)))
    df = pd.DataFrame(rows, columns=["name", "cat", "pid", "tid", "ts", "dur", "fhash", "call_id", *extra_args])
    df["ts"] = df["ts"] * 1000          # DataCrumbs: ts in us, dur in ns
    df["end"] = df["ts"] + df["dur"]
    df["file"] = df["fhash"].map(files)
    return df


def main():
    path, file_of_interest, max_calls, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    t0 = time.perf_counter()
    df = load(path)
    t1 = time.perf_counter()
    calls = df[(df["cat"] == "sys") & (df["name"] == "read") & (df["file"] == file_of_interest)]
    events = df[~df["cat"].isin(["sys", "app"])]
    ev_ts, ev_end = events["ts"], events["end"]
    t_setup = time.perf_counter()
    answers = {}
    for call in calls.head(max_calls).itertuples():
        shares = (ev_ts < call.end) & (ev_end > call.ts)
        nested = (ev_ts >= call.ts) & (ev_end <= call.end)
        hit = events[shares | nested]
        sums = hit.groupby(["cat", "name"])["dur"].sum()
        answers[int(call.call_id)] = {f"{c}.{n}": int(v) for (c, n), v in sums.items()}
    t2 = time.perf_counter()
    with open(out, "w") as f:
        json.dump(answers, f)
    done = len(answers)
    print(json.dumps({
        "events": len(df), "calls": len(calls), "calls_timed": done,
        "load_s": t1 - t0, "setup_s": t_setup - t1, "loop_s": t2 - t_setup,
        "per_call_s": (t2 - t_setup) / done if done else 0.0,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }))


if __name__ == "__main__":
    main()
