# The golden cases: every command, in each of its output formats, on the
# shared traces and on generated inputs. Sourced by tests/golden/run.sh, which
# defines `golden NAME ARGS...` (spoor ARGS, run in the inputs folder) and
# `golden_file NAME PATH` (one more output of the last case, a file it wrote).
#
# Inputs in the folder: the shared pfw traces by their own names; gen.pfw.gz,
# gen2.pfw (traces), metrics.csv, cascade.jsonl, iopattern.csv.
# shellcheck shell=bash

R="--no-cache --no-progress"
SHARED="dftracer-cm1-2024-rank0.pfw.gz dftracer-cm1-2024-rank3.pfw.gz dftracer-cm1-2024-rank4.pfw.gz
        dftracer-dlio-pytorch-2023.pfw.gz dftracer-quoted-2023.pfw.gz datacrumbs-trace-2024.pfw.gz
        datacrumbs-profile-2024.pfw gen.pfw.gz"

# ---- stats and summary: every trace, every format ----
for t in $SHARED; do
    for f in table json csv; do
        golden "stats.$t.$f" stats $R --format $f "$t"
        golden "summary.$t.$f" summary $R --format $f "$t"
    done
done
for f in table json csv; do
    golden "stats.cm1-ranks.$f" stats $R --format $f dftracer-cm1-2024-rank0.pfw.gz dftracer-cm1-2024-rank3.pfw.gz dftracer-cm1-2024-rank4.pfw.gz
    golden "summary.cm1-ranks.$f" summary $R --format $f dftracer-cm1-2024-rank0.pfw.gz dftracer-cm1-2024-rank3.pfw.gz dftracer-cm1-2024-rank4.pfw.gz
done
golden stats.where.table stats $R --where "cat = 'POSIX' AND dur >= 1ms" dftracer-dlio-pytorch-2023.pfw.gz
golden stats.gen2.table stats $R gen2.pfw

# ---- events and export ----
for t in $SHARED; do
    golden "events.$t.csv" events $R "$t"
    golden "events.$t.jsonl" events $R --format jsonl "$t"
done
golden events.where.csv events $R --where "cat = 'STDIO' AND name = 'fread'" dftracer-cm1-2024-rank0.pfw.gz
golden events.columns.csv events $R --columns ts,dur,name,file dftracer-cm1-2024-rank3.pfw.gz
for to in csv jsonl sqlite perfetto; do
    golden "export.cm1.$to" export $R --to $to -o "out.$to" dftracer-cm1-2024-rank0.pfw.gz dftracer-cm1-2024-rank4.pfw.gz
    golden_file "export.cm1.$to" "out.$to"
    golden "export.datacrumbs.$to" export $R --to $to -o "dc.$to" datacrumbs-trace-2024.pfw.gz
    golden_file "export.datacrumbs.$to" "dc.$to"
done

# ---- sql ----
Q1="SELECT cat, name, count(*) AS n, sum(dur) AS total FROM events GROUP BY cat, name ORDER BY total DESC, cat, name"
Q2="SELECT e.name, e.file, f.source, f.line FROM events e JOIN files f ON e.fhash = f.hash AND e.source = f.source WHERE e.cat = 'POSIX' ORDER BY e.source, e.line LIMIT 40"
for f in table csv json jsonl; do
    golden "sql.group.$f" sql $R --format $f dftracer-cm1-2024-rank0.pfw.gz "$Q1"
done
golden sql.lookup.table sql $R dftracer-cm1-2024-rank0.pfw.gz dftracer-cm1-2024-rank3.pfw.gz "$Q2"
golden sql.meta.table sql $R datacrumbs-trace-2024.pfw.gz "SELECT * FROM meta ORDER BY 1"

# ---- attribute ----
for m in self overlap inclusive; do
    golden "attribute.datacrumbs.$m" attribute $R --calls "cat = 'sys'" --time $m -o - datacrumbs-trace-2024.pfw.gz
done
golden attribute.notebook attribute $R --calls "cat = 'sys'" --compat notebook -o - datacrumbs-trace-2024.pfw.gz
golden attribute.by-cat.jsonl attribute $R --calls "cat = 'sys'" --by cat --format jsonl -o - datacrumbs-trace-2024.pfw.gz
golden attribute.gen attribute $R --calls "cat = 'sys'" -o - gen.pfw.gz
golden attribute.cm1 attribute $R --calls "cat = 'POSIX' OR cat = 'STDIO'" -o - dftracer-cm1-2024-rank0.pfw.gz
golden attribute.dlio attribute $R --calls "cat = 'POSIX'" -o - dftracer-dlio-pytorch-2023.pfw.gz

# ---- series ----
for f in table json csv; do
    golden "series.all.$f" series --no-progress --time timestamp --group node --by hour,weekday --corr 0.7 \
        --resample 1h --target cpu_usage_rate=0.65 --format $f metrics.csv
done
golden series.show.csv series --no-progress --time timestamp --group node --by hour-weekday --show metrics,groups \
    --format csv metrics.csv
golden series.utc-offset.table series --no-progress --time timestamp --by hour --utc-offset +02:00 metrics.csv
# the page is the same bytes every run (kept as its size and SHA-256: ECharts makes it 1 MB)
golden series.hour.html series --no-progress --time timestamp --by hour --format html -o hour.html metrics.csv
golden_file series.hour.html hour.html

# ---- lifecycle ----
for p in tasks transmits; do
    for f in table json csv; do
        golden "lifecycle.$p.$f" lifecycle --no-progress --preset "cascade-$p" --top 5 --format $f cascade.jsonl
    done
done
golden lifecycle.compare.table lifecycle --no-progress --preset cascade-tasks --compare cascade.jsonl cascade.jsonl

# ---- models: train, eval, predict, export-model, importance ----
FEATS="--features trace_avg_sector_distance,trace_sector_jump_ratio,bw_mean_kbps"
for k in mlp logistic rule trees; do
    golden "train.$k.table" train iopattern.csv --label label --group run_id $FEATS --model $k -o "$k.json"
    golden_file "train.$k.table" "$k.json"
    golden "eval.$k.table" eval "$k.json" iopattern.csv
    golden "eval.$k.json" eval --format json "$k.json" iopattern.csv
    golden "export-model.$k" export-model "$k.json" -o "$k.h"
    golden_file "export-model.$k" "$k.h"
    golden "export-model.$k.fixed" export-model "$k.json" --fixed-point -o "${k}_q.h"
    golden_file "export-model.$k.fixed" "${k}_q.h"
done
golden train.logistic.json train iopattern.csv --label label --group run_id $FEATS --model logistic --format json -o lj.json
golden train.cv.table train iopattern.csv --label label --group run_id $FEATS --model rule --cv logo -o cv.json
golden train.all-columns.table train iopattern.csv --label label --group run_id --model logistic -o all.json
golden predict.trees.csv predict trees.json iopattern.csv
golden predict.rule.jsonl predict --format jsonl rule.json iopattern.csv
for f in table json csv; do
    golden "importance.$f" importance iopattern.csv --target label --group run_id $FEATS,iodepth,iops_mean \
        --rounds 20 --format $f
done

# ---- cat, index, gen, errors ----
golden cat.lines cat dftracer-quoted-2023.pfw.gz --lines 10:20
golden index.cm1 index dftracer-cm1-2024-rank3.pfw.gz
golden gen.truth gen -o small.pfw --size-mb 0.1 --seed 9
golden_file gen.truth small.pfw
golden_file gen.truth small.pfw.truth.json
golden error.unknown-text stats $R text.txt
golden bpftrace.bio stats $R bio.out
golden error.bad-where events $R --where "dur >>> 3" gen2.pfw
golden error.no-command nosuchcommand
