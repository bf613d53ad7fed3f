// The DuckDB peer of `spoor sql ... GROUP BY cat, name`: the same lines read
// as in bench/ingest/duckdb_groupby.mjs (read_csv of whole lines cast to
// JSON, as read_json mis-reads the leading "[" line), grouped by cat, name.
//   cold: read + parse + group, one query;
//   warm: the parsed events loaded into a DuckDB table first (not timed),
//         then only the GROUP BY over that table is timed.
// DuckDB comes from bench/ingest's node_modules (scripts/install-bench-deps.sh).
//
// usage: node duckdb_sql.mjs TRACE THREADS cold|warm
// prints one JSON object: {"seconds": S, "rows": N}
const { DuckDBInstance } = await import(new URL('../ingest/node_modules/@duckdb/node-api/lib/index.js', import.meta.url));

const [trace, threads, mode] = process.argv.slice(2);
if (!trace || !threads || !['cold', 'warm'].includes(mode)) {
  console.error('usage: node duckdb_sql.mjs TRACE THREADS cold|warm');
  process.exit(2);
}

const quoted = trace.replaceAll("'", "''");
const events = `
  SELECT j->>'cat' AS cat, j->>'name' AS name, TRY_CAST(j->>'dur' AS BIGINT) AS dur FROM (
    SELECT line::JSON AS j FROM read_csv('${quoted}', columns = {'line': 'VARCHAR'}, header = false,
                                         delim = '\u0001', quote = '', escape = '', auto_detect = false)
    WHERE line NOT IN ('[', ']'))`;
const groupBy = (from) => `SELECT cat, name, count(*) AS n, sum(dur) AS dur_sum FROM ${from} GROUP BY cat, name`;

const instance = await DuckDBInstance.create(':memory:', { threads: String(threads) });
const connection = await instance.connect();
if (mode === 'warm')
  await connection.run(`CREATE TABLE events AS ${events}`);
const start = process.hrtime.bigint();
const reader = await connection.runAndReadAll(groupBy(mode === 'warm' ? 'events' : `(${events})`));
const rows = reader.getRowsJson();
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
connection.closeSync();
instance.closeSync();
console.log(JSON.stringify({ seconds, rows: rows.reduce((sum, r) => sum + Number(r[2]), 0) }));
