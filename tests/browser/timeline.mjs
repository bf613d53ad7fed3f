// The checks of a job report's timeline view (web/timeline.js), driven with
// the mouse in the open page (reports.mjs calls checkTimeline):
// - it drew: a canvas of nonzero size, bars at the whole run's view;
// - the wheel zooms: the visible range narrows;
// - zoomed in past the finest level (a window around a kept event) it draws
//   exact events;
// - a click on an event shows its fields (ts, dur, cat, name, bytes, pid,
//   tid, process: the name the JSON's lanes give its pid), and they are
//   those of a kept event of the JSON output's tiles;
// - a click on a process's name opens its threads (when the report has
//   thread lanes).
// Screenshots: NAME-timeline.png zoomed in on events with one clicked, and
// for the first report (`first`) report.png: the whole run, a process open.
import path from 'node:path';

const view = tab => tab.evaluate(() => window.spoorTimelineView.view());

// Lets the view redraw after an interaction (it redraws on the next frame).
const settle = tab => tab.evaluate(() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done))));

// Whether the JSON output's tiles keep an event with these fields.
function keptInJson(expected, f) {
  const strings = expected.timeline_strings.map(r => r.text), lanes = expected.timeline_lanes;
  return expected.timeline_tiles.some(t => lanes[t.lane].pid === f.pid && lanes[t.lane].tid === f.tid &&
    t.ts.some((ts, k) => t.start_ns + ts === f.ts && t.dur[k] === f.dur && strings[t.cat[k]] === f.cat &&
                          strings[t.name[k]] === f.name && t.bytes[k] === f.bytes));
}

// A click on row i's label (where a process's threads or a counter group open).
async function clickLabel(tab, area, i) {
  const at = await tab.evaluate(r => window.spoorTimelineView.labelAt(r), i);
  const now = await area.boundingBox();
  await tab.mouse.click(now.x + at.x, now.y + at.y);
  await settle(tab);
}

export async function checkTimeline(tab, name, expected, shots, first, fail) {
  const area = tab.locator('#timeline .timeline-area');
  await area.scrollIntoViewIfNeeded();
  const box = await area.boundingBox();
  const canvas = await tab.evaluate(() => {
    const c = window.spoorTimelineView.element.querySelector('canvas');
    return c ? [c.width, c.height] : [0, 0];
  });
  if (!canvas[0] || !canvas[1]) return fail(name, `the timeline did not render (${canvas})`);
  const whole = await view(tab);
  if (whole.mode !== 'cells' || !whole.items) fail(name, `the whole run shows ${whole.items} ${whole.mode}, not cells`);

  // the wheel over the lanes zooms in
  await tab.mouse.move(box.x + box.width / 2, box.y + 20);
  for (let i = 0; i < 8; i++) await tab.mouse.wheel(0, -300);
  await settle(tab);
  const zoomed = await view(tab);
  const width = v => v.range[1] - v.range[0];
  if (!(width(zoomed) < width(whole) * 0.9))
    fail(name, `the wheel did not zoom: range ${whole.range} then ${zoomed.range}`);

  // a window narrower than the finest level's buckets, around a kept event
  const run = expected.timeline, lanes = expected.timeline_lanes;
  const tile = expected.timeline_tiles.find(t => t.kept && lanes[t.lane].kind === 'calls') || expected.timeline_tiles[0];
  if (!tile) return fail(name, 'the JSON output has no tiles');
  /* the axis counts ns from the view's origin: the first event or counter sample */
  const t0 = await tab.evaluate(() => window.spoorTimelineView.t0);
  const start = tile.start_ns + tile.ts[0] - t0, span = run.finest_ns * 200;
  await tab.evaluate(([a, b]) => window.spoorTimelineView.chart.dispatchAction(
    { type: 'dataZoom', dataZoomIndex: 0, startValue: a, endValue: b }), [start - span / 4, start + span * 3 / 4]);
  await settle(tab);
  const close = await view(tab);
  if (close.mode !== 'events' || !close.items)
    return fail(name, `zoomed to ${close.range} (finest buckets ${run.finest_ns} ns): ${close.items} ${close.mode}, not events`);

  // a click on the widest event drawn: the panel shows the fields of the event on top there
  const target = await tab.evaluate(() => {
    const v = window.spoorTimelineView, items = v.items();
    let best = -1, bestWidth = 0;
    items.forEach((it, i) => { const w = v.rectOf(i).width; if (w > bestWidth) best = i, bestWidth = w; });
    const r = v.rectOf(best), x = r.x + r.width / 2, y = r.y + r.height / 2;
    let top = best; /* later items are drawn over earlier ones */
    items.forEach((it, i) => {
      const q = v.rectOf(i);
      if (x >= q.x && x <= q.x + q.width && y >= q.y && y <= q.y + q.height) top = i;
    });
    return { x: x, y: y, fields: items[top].fields };
  });
  const at = await area.boundingBox();
  await tab.mouse.click(at.x + target.x, at.y + target.y);
  await settle(tab);
  const shown = await tab.evaluate(() => Object.fromEntries([...document.querySelectorAll('#timeline .timeline-panel tr')]
    .map(tr => [tr.cells[0].textContent, tr.cells[1].textContent])));
  const want = ['ts', 'dur', 'cat', 'name', 'bytes', 'pid', 'tid', 'process'];
  const spelled = v => (v === null ? '-' : String(v));
  if (Object.keys(shown).join() !== want.join() || want.some(k => shown[k] !== spelled(target.fields[k])))
    fail(name, `the click at an event showed ${JSON.stringify(shown)}, not ${JSON.stringify(target.fields)}`);
  const lane = expected.timeline_lanes.find(l => l.pid === target.fields.pid);
  if (target.fields.process !== (lane ? lane.name : null))
    fail(name, `the clicked event's process is ${target.fields.process}, the JSON's lanes say ${lane && lane.name}`);
  if (!keptInJson(expected, target.fields))
    fail(name, `the clicked event ${JSON.stringify(target.fields)} is no kept event of the JSON output`);
  await tab.locator('#timeline').screenshot({ path: path.join(shots, `${name}-timeline.png`) });

  // the whole run again; a click on the first process's name opens its threads
  await tab.evaluate(() => window.spoorTimelineView.chart.dispatchAction(
    { type: 'dataZoom', dataZoomIndex: 0, start: 0, end: 100 }));
  await settle(tab);
  /* the last process that has threads to open (a trace without tids has none) */
  const last = (await tab.evaluate(() => window.spoorTimelineView.rows()))
    .map((r, i) => ({ r: r, i: i })).filter(x => x.r.pid !== undefined && x.r.label.startsWith('▸')).pop();
  if (run.thread_lanes && last) {
    const rows = (await view(tab)).rows;
    await clickLabel(tab, area, last.i);
    const opened = (await view(tab)).rows;
    if (!(opened > rows)) fail(name, `a click on a process's name left ${rows} rows (${opened})`);
  }
  if (first) await tab.locator('#timeline').screenshot({ path: path.join(shots, 'report.png') });
  return close;
}

// The checks of a report over raw traces (bpftrace, mpstat, pmon, logs):
// - every process row is named as the JSON's lanes name it ("name pid", the
//   run-wide row "run"), and want.lane is one of them;
// - every counter track not in a folded group is drawn at the whole run, with
//   the points of its level in the JSON (timeline_counters), value for value;
//   a click on a group's head opens its tracks;
// - the run-wide row draws phases, their keys include want.phases;
// - the time axis is UTC and the view starts on want.date.
// Screenshot: NAME-lanes.png, the whole run.
export async function checkLanes(tab, name, expected, shots, want, fail) {
  const area = tab.locator('#timeline .timeline-area');
  await tab.evaluate(() => window.spoorTimelineView.chart.dispatchAction(
    { type: 'dataZoom', dataZoomIndex: 0, start: 0, end: 100 }));
  await settle(tab);
  const rows = await tab.evaluate(() => window.spoorTimelineView.rows());
  const bare = label => label.replace(/^[▸▾] /, '');
  const named = new Map(expected.timeline_lanes.map(l => [l.pid, l.name]));
  for (const r of rows.filter(r => r.pid !== undefined && r.tid === null)) {
    const n = named.get(r.pid), label = r.pid === null ? 'run' : n ? `${n} ${r.pid}` : `pid ${r.pid}`;
    if (bare(r.label) !== label) fail(name, `the row of pid ${r.pid} is labelled ${r.label}, not ${label}`);
  }
  if (want.lane && !rows.some(r => bare(r.label) === want.lane)) fail(name, `no row ${want.lane}`);

  const tracks = expected.timeline_tracks, drawn = await tab.evaluate(() => window.spoorTimelineView.counters());
  tracks.forEach((t, i) => {
    if (!t.group && !drawn.some(d => d.track === i)) fail(name, `the counter track ${t.name} is not drawn`);
  });
  for (const d of drawn) {
    const row = expected.timeline_counters.find(c => c.level === d.level && c.track === d.track);
    const values = d.points.map(p => p[1]);
    if (!row || values.length !== row.value.length || values.some((v, k) => v !== row.value[k]))
      fail(name, `counter track ${d.name} draws ${values.length} points at level ${d.level}, ` +
                 `the JSON has ${row ? row.value.length : 'none'} (or other values)`);
  }
  if (!drawn.length) fail(name, 'no counter track drawn');

  const runRow = rows.findIndex(r => r.pid === null);
  const phases = runRow < 0 ? [] : await tab.evaluate(r => window.spoorTimelineView.items()
    .filter(it => it.value[0] === r && it.value[5] > 0).map(it => it.fields.key), runRow);
  if (!phases.length) fail(name, 'the run-wide row draws no phase');
  for (const k of want.phases || []) if (!phases.includes(k)) fail(name, `no phase ${k} on the run-wide row`);

  const v = await view(tab);
  const axis = await tab.evaluate(() => window.spoorTimelineView.chart.getOption().xAxis[0].name);
  if (want.date && (!(v.start || '').startsWith(want.date) || axis !== 'UTC'))
    fail(name, `the time axis starts at ${v.start} (${axis}), not on ${want.date} UTC`);
  await tab.locator('#timeline').screenshot({ path: path.join(shots, `${name}-lanes.png`) });

  const head = rows.findIndex(r => r.group);
  if (head >= 0) {
    const members = tracks.filter(t => t.group === rows[head].group).length;
    await clickLabel(tab, area, head);
    const now = (await tab.evaluate(() => window.spoorTimelineView.rows())).length;
    if (now !== rows.length + members) fail(name, `opening ${rows[head].label} gave ${now} rows, not ${rows.length + members}`);
    await clickLabel(tab, area, head);
  }
  return { rows: rows.length, counters: drawn.length, phases: phases.length };
}
