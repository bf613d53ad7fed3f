"""Makes the inputs of bench/ingest/text_readers.sh: for one text reader, a
file of about SIZE_MB made by repeating a real sample with advancing times
(the shared unet3d-pytorch files, the committed ftrace capture), so that the
readers see the lines they were made for, only more of them.

usage: /usr/bin/python3 text_inputs.py KIND OUT SIZE_MB DATA REPO
KIND: bio open vfs_rw ps mpstat pmon pytext mllog ftrace blkparse lttng
DATA is the shared data folder, REPO the repository (for tests/data)."""
import datetime
import os
import random
import sys

kind, out, size_mb, data, repo = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5]
want = int(size_mb * 1e6)
unet = os.path.join(data, "bpftrace", "unet3d-pytorch")
random.seed(7)


def lines_of(path):
    with open(path) as f:
        return [l.rstrip("\n") for l in f if l.strip()]


def clock(t):
    """HH:MM:SS of a second count (24 h)."""
    t = int(t) % 86400
    return "%02d:%02d:%02d" % (t // 3600, t // 60 % 60, t % 60)


def repeat(make):
    """Writes make(k) (a list of lines) for k = 0, 1, ... until the size is reached."""
    size = 0
    with open(out, "w") as f:
        k = 0
        while size < want:
            block = "\n".join(make(k)) + "\n"
            f.write(block)
            size += len(block)
            k += 1


def bpftrace(name):
    """bio.out / open.out: the shared rows, times moved on by a minute each round."""
    rows = [l.split(None, 2) for l in lines_of(os.path.join(unet, name))]
    fields = 11 if name == "bio.out" else 7  # the shared files' last lines are cut
    rows = [r for r, l in zip(rows, lines_of(os.path.join(unet, name))) if len(l.split()) >= fields]
    t0 = int(rows[0][0])

    def make(k):
        shift = k * 60
        return ["%-16d  %s  %s" % (int(ts) + shift * 10**9, clock(43476 + (int(ts) - t0) // 10**9 + shift), rest)
                for ts, _, rest in rows]
    repeat(make)


def vfs_rw():
    """vfs_rw.out (not shipped): bpftrace's vfs_read/vfs_write table, one row per
    call of the shared open.out's processes, now and then a negative latency or an
    empty FILE."""
    names = ["data_%04d.npy" % i for i in range(200)] + ["log.json", "my file (1).npy", ""]

    def make(k):
        out, t = [], 1802565964177173 + k * 10**9
        for i in range(5000):
            t += random.randrange(1000, 200000)
            lat = random.randrange(500, 2000000)
            if i % 997 == 0:
                lat = -random.randrange(1, 2**31)
            req = random.choice([4096, 65536, 131072, 1048576])
            out.append("%-16d  %s  %-7d  %-13s  %s  %-10d  %-8d  %-8d  %s" % (
                t, clock(43476 + t // 10**9 - 1802565), 3691113 + i % 8, "pt_data_worker", "RW"[i % 3 == 0], lat,
                req, req if i % 50 else 0, names[i % len(names)]))
        return out
    repeat(make)


def ps():
    """ps aux: the shared rows under ps's header, as a long process list."""
    rows = [l.split(None, 10) for l in lines_of(os.path.join(unet, "pids.out"))]
    head = "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"

    def make(k):
        return ([head] if k == 0 else []) + [
            "%-8s %7d %4s %4s %6s %5s %-8s %-4s %5s %6s %s" % (r[0], int(r[1]) + k * 1000 + i, *r[2:10], r[10])
            for i, r in ((i, rows[i % len(rows)]) for i in range(1000))]
    repeat(make)


def mpstat():
    """mpstat -P ALL 1: the shared blocks in turn, a second apart, on a 12-hour clock."""
    text = open(os.path.join(unet, "cpu.out")).read().split("\n\n")
    banner, blocks = text[0], [b for b in text[1:] if b.strip()]

    def clock12(t):
        t %= 86400
        h, m, s = t // 3600, t // 60 % 60, t % 60
        return "%02d:%02d:%02d %s" % (h % 12 or 12, m, s, "AM" if h < 12 else "PM")

    def make(k):
        lines = [l for l in blocks[k % len(blocks)].split("\n") if l]
        t = 12 * 3600 + k
        return ([banner] if k == 0 else []) + [""] + [(clock12(t - 1) if i == 0 else clock12(t)) + l[11:]
                                                      for i, l in enumerate(lines)]
    repeat(make)


def pmon():
    """nvidia-smi pmon -s um -o DT: 8 GPUs, two processes each, a sample a second,
    the two header lines every 10 samples."""
    head = ["#Date       Time        gpu        pid  type    sm   mem   enc   dec    fb   command",
            "#YYYYMMDD   HH:MM:SS    Idx          #   C/G     %     %     %     %    MB   name"]

    def make(k):
        out = list(head)
        for s in range(10):
            t = 43476 + k * 10 + s
            day = (datetime.date(2022, 3, 31) + datetime.timedelta(days=t // 86400)).strftime("%Y%m%d")
            for gpu in range(8):
                for p in range(2):
                    sm, mem = random.randrange(100), random.randrange(100)
                    out.append(" %s   %s  %5d  %9d     C  %4d  %4d     -     -  %5d   python" % (
                        day, clock(t), gpu, 41235 + gpu * 2 + p, sm, mem, 1234 + gpu))
        return out
    repeat(make)


def pytext():
    """Plain Python logging: the shared train.log's records, a record now and then
    with continuation lines, times moving on."""
    recs = [l[24:] for l in lines_of(os.path.join(unet, "train.log")) if l[:4].isdigit()]

    def make(k):
        out = []
        for i, r in enumerate(recs):
            t, ms = 1648728309 + k + i // 100, (i * 7) % 1000
            out.append("2022-03-31 %s,%03d:%s" % (clock(t), ms, r))
            if i % 20 == 0:
                out += ["  File \"main.py\", line %d, in <module>" % i, "    train(model)"]
        return out
    repeat(make)


def mllog():
    """MLPerf :::MLLOG lines: an epoch of train_loss points between its start and stop."""
    def line(ms, etype, key, value, meta):
        return (':::MLLOG {"namespace": "", "time_ms": %d, "event_type": "%s", "key": "%s", "value": %s, '
                '"metadata": {"file": "main.py", "lineno": 120%s}}' % (ms, etype, key, value, meta))

    def make(k):
        ms = 1648728310000 + k * 60000
        meta = ', "epoch_num": %d' % (k + 1)
        out = [line(ms, "INTERVAL_START", "epoch_start", "null", meta)]
        out += [line(ms + 10 * i, "POINT_IN_TIME", "train_loss", "%.4f" % random.random(), meta) for i in range(500)]
        out.append(line(ms + 59000, "INTERVAL_END", "epoch_stop", "null", meta))
        return out
    repeat(make)


def capture():
    """The committed ftrace capture's event lines as (task, pid, cpu, flags, seconds, name, payload)."""
    events = []
    for l in lines_of(os.path.join(repo, "tests", "data", "blk", "ftrace_dd.txt")):
        if l.lstrip().startswith("#"):
            continue
        head, name, payload = l.split(": ", 2)
        task_pid, cpu, flags, ts = head.rsplit(None, 3)
        task, pid = task_pid.strip().rsplit("-", 1)
        events.append((task, int(pid), int(cpu.strip("[]")), flags, ts, name, payload))
    return events


def ftrace():
    """The capture repeated, a fifth of a second later each round."""
    events = capture()
    head = [l for l in lines_of(os.path.join(repo, "tests", "data", "blk", "ftrace_dd.txt")) if l.startswith("#")]

    def make(k):
        out = head if k == 0 else []
        return out + ["%16s-%-7d [%03d] %s %.6f: %s: %s" % (task, pid, cpu, flags, float(ts) + 0.2 * k, name, payload)
                      for task, pid, cpu, flags, ts, name, payload in events]
    repeat(make)


def requests():
    """The capture's issues and completions as (kind, seconds, pid, cpu, major, minor, rwbs, sector, count, bytes,
    comm or error)."""
    out = []
    for task, pid, cpu, flags, ts, name, payload in capture():
        f = payload.split()
        major, minor = map(int, f[0].split(","))
        if name == "block_rq_issue":
            out.append(("D", float(ts), pid, cpu, major, minor, f[1], int(f[4]), int(f[6]), int(f[2]), f[-1][1:-1]))
        elif name == "block_rq_complete":
            out.append(("C", float(ts), pid, cpu, major, minor, f[1], int(f[3]), int(f[5]), None, f[-1][1:-1]))
    return out


def blkparse():
    """blkparse's default output of `blktrace -a issue -a complete`: the capture's
    requests as D and C lines (the worst case per byte: every line is a row)."""
    reqs = requests()
    t0 = reqs[0][1]

    def make(k):
        out, seq = [], k * len(reqs)
        for i, (a, ts, pid, cpu, major, minor, rwbs, sector, count, _, last) in enumerate(reqs):
            s = ts - t0 + 0.2 * k
            out.append("%3d,%-3d %2d %8d %5d.%09d %5d  %s %3s %d + %d [%s]" % (
                major, minor, cpu, seq + i + 1, int(s), round((s - int(s)) * 1e9), pid if a == "D" else 0, a, rwbs,
                sector, count, last))
        return out
    repeat(make)


def lttng():
    """babeltrace2's text output of an LTTng kernel session with block_rq_issue and
    block_rq_complete enabled: the capture's requests, rwbs as LTTng's enumeration."""
    reqs = requests()
    bits = {"R": 4, "W": 1, "D": 2, "F": 256, "S": 32, "M": 64, "A": 8}
    labels = {4: "RWBS_FLAG_READ", 1: "RWBS_FLAG_WRITE", 2: "RWBS_FLAG_DISCARD", 256: "RWBS_FLAG_FLUSH",
              32: "RWBS_FLAG_SYNC", 64: "RWBS_FLAG_META", 8: "RWBS_FLAG_RAHEAD"}

    def enum(rwbs):
        v = [bits[c] for c in rwbs if c in bits]
        return '( %s : container = %d )' % (" | ".join('"%s"' % labels[b] for b in v), sum(v))

    def make(k):
        out, last_t = [], None
        for a, ts, pid, cpu, major, minor, rwbs, sector, count, nbytes, tail in reqs:
            t = 36000 + (ts - reqs[0][1]) + 0.2 * k
            ns = round(t * 1e9)
            delta = "+?.?????????" if last_t is None else "+%d.%09d" % divmod(ns - last_t, 10**9)
            last_t = ns
            stamp = "[%s.%09d] (%s) host " % (clock(ns // 10**9), ns % 10**9, delta)
            dev = major << 20 | minor
            if a == "D":
                out.append(stamp + 'block_rq_issue: { cpu_id = %d }, { dev = %d, sector = %d, nr_sector = %d, '
                           'bytes = %d, tid = %d, rwbs = %s, comm = "%s" }' % (cpu, dev, sector, count, nbytes, pid,
                                                                               enum(rwbs), tail))
            else:
                out.append(stamp + 'block_rq_complete: { cpu_id = %d }, { dev = %d, sector = %d, nr_sector = %d, '
                           'error = %s, rwbs = %s }' % (cpu, dev, sector, count, tail, enum(rwbs)))
        return out
    repeat(make)


makers = {"bio": lambda: bpftrace("bio.out"), "open": lambda: bpftrace("open.out"), "vfs_rw": vfs_rw, "ps": ps,
          "mpstat": mpstat, "pmon": pmon, "pytext": pytext, "mllog": mllog, "ftrace": ftrace, "blkparse": blkparse,
          "lttng": lttng}
makers[kind]()
