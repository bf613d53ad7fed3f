// The DuckDB peer of `spoor stats`: per (cat, name) event counts and summed
// dur of a DataCrumbs trace, as a careful user would write it. read_json
// mis-reads the leading "[" line of these traces, so lines are read as text
// (read_csv with a delimiter that never occurs, no quoting), the "[" and "]"
// lines are dropped, and the rest is cast to JSON. DuckDB inflates .gz itself.
//
// usage: node duckdb_groupby.mjs TRACE THREADS
// prints one JSON object: {"seconds": S, "rows": N, "groups": [[cat, name, count, dur_sum], ...]}
import { DuckDBInstance } from '@duckdb/node-api';

const [trace, threads] = process.argv.slice(2);
if (!trace || !threads) {
  console.error('usage: node duckdb_groupby.mjs TRACE THREADS');
  process.exit(2);
}

const quoted = trace.replaceAll("'", "''");
const sql = `
  WITH lines AS (
    SELECT line FROM read_csv('${quoted}', columns = {'line': 'VARCHAR'}, header = false,
                              delim = '\u0001', quote = '', escape = '', auto_detect = false)
  ), events AS (
    SELECT line::JSON AS j FROM lines WHERE line NOT IN ('[', ']')
  )
  SELECT j->>'cat' AS cat, j->>'name' AS name, count(*) AS n,
         sum(TRY_CAST(j->>'dur' AS BIGINT)) AS dur_sum
  FROM events GROUP BY ALL ORDER BY cat, name`;

const start = process.hrtime.bigint();
const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const connection = await instance.connect();
const reader = await connection.runAndReadAll(sql);
const rows = reader.getRowsJson();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
connection.closeSync();
instance.closeSync();

const groups = rows.map(([cat, name, n, dur]) => [cat, name, Number(n), dur === null ? null : String(dur)]);
const total = groups.reduce((sum, g) => sum + g[2], 0);
console.log(JSON.stringify({ seconds, rows: total, groups }));
