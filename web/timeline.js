/* spoor's timeline view: draws the timeline_* sheets of `spoor report` (their
 * layout: src/analyze/timeline_sheets.c) as one ECharts custom series, and
 * redraws it as the view zooms. web/report.js hands it the sheets:
 *   window.spoorTimeline(root, sheets, spellNs)
 *
 * Rows: the counter tracks first (timeline_tracks: CPU and GPU utilisation
 * in %, a line over an area from 0 to a scale its label says, the first of
 * 1, 2, 5, 10, 20, 25, 50 or 100 % at or above its highest point; a click on
 * "cpu all" opens the per-CPU ones),
 * then the run-wide row (events without a pid: a log's records, an MLPerf
 * run's epochs and evaluations), then one per process, named as the report
 * names it ("name pid"), its calls lane below and its phases lane drawn on
 * top (a thin band; the whole row when it has no calls); a click on a
 * process's name opens its threads (when the report kept thread lanes), each
 * a row of its own. The x axis is ns after the first event or sample, shown
 * as UTC clock times when that lies in 2000-2100 (the times are then Unix
 * times); the wheel zooms, a drag pans, the slider below shows and moves the
 * window over the whole run.
 *
 * What is drawn: the coarsest level whose bucket width is at most the visible
 * range over the grid's pixel columns, its cells as bars (colour: the
 * dominant key; opacity: busy / width). Zoomed past the finest level, the
 * exact kept events of the tiles in view (read from the left edge minus the
 * lane's longest kept event, since an event is in the tile of its start),
 * coloured by cat; one under a pixel wide where its pixel column is drawn
 * already is left out (it would not show). A click on a bar shows its fields in the panel below.
 * A counter track draws the coarsest of its own levels (timeline_counters)
 * whose width is at most the range per pixel column (else its finest): a
 * point per bucket, at its middle, the mean of its samples. */
'use strict';
window.spoorTimeline = function (root, sheets, spellNs) {
  const ROW_PX = 28, MAX_ROWS_SHOWN = 30, GRID = { left: 150, right: 40, top: 10, bottom: 70 };
  const PHASE_BAND = 0.3; /* the top of a row: its phases lane */
  const COUNTER_COLOURS = { mpstat: '#3ba272', pmon: '#9a60b4' };
  const by = {};
  for (const s of sheets) by[s.key] = s;
  const run = by.timeline.data;
  const strings = by.timeline_strings.data.map(r => r.text);
  const lanes = by.timeline_lanes.data;
  const tracks = (by.timeline_tracks || { data: [] }).data;

  function element(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  /* ---- the data, decoded once a level or a lane is first needed ---- */
  const levels = []; /* coarsest first: {width, cells: lane -> row of timeline_cells} */
  for (const row of by.timeline_cells.data) {
    const lv = levels[row.level] || (levels[row.level] = { width: row.width_ns, cells: new Map() });
    lv.cells.set(row.lane, row);
  }
  /* a lane's buckets at a level: starts (bucket index) from the gaps */
  function bucketsOf(row) {
    if (!row.starts) {
      row.starts = new Float64Array(row.gap.length);
      let b = row.first;
      for (let i = 0; i < row.gap.length; i++) row.starts[i] = b += row.gap[i];
    }
    return row.starts;
  }
  const counterLevels = []; /* coarsest first: {width, rows: track -> row of timeline_counters} */
  for (const row of (by.timeline_counters || { data: [] }).data) {
    const lv = counterLevels[row.level] || (counterLevels[row.level] = { width: row.width_ns, rows: new Map() });
    lv.rows.set(row.track, row);
  }

  /* ---- the time line: the run's events and the counters' buckets ---- */
  const firsts = [run.first_ts], lasts = [run.last_end];
  const finestCounters = counterLevels[counterLevels.length - 1];
  if (finestCounters)
    for (const row of finestCounters.rows.values()) {
      const starts = bucketsOf(row);
      firsts.push(starts[0] * finestCounters.width);
      lasts.push((starts[starts.length - 1] + 1) * finestCounters.width);
    }
  const known = v => v !== null && v !== undefined;
  const t0 = firsts.some(known) ? Math.min(...firsts.filter(known)) : null;
  const span = Math.max(1, (lasts.some(known) ? Math.max(...lasts.filter(known)) : 0) - (t0 || 0));
  /* 2000 to 2100 as ns since 1970: the times are Unix times */
  const utc = t0 !== null && t0 >= 946684800e9 && t0 < 4102444800e9;
  /* an axis label: the day and minute over days, the second, or the ms under a minute */
  function utcText(x, range) {
    const iso = new Date((t0 + x) / 1e6).toISOString();
    return range >= 86400e9 ? iso.slice(5, 16).replace('T', ' ') : range >= 60e9 ? iso.slice(11, 19) : iso.slice(11, 23);
  }
  /* a time on the line: the UTC date and clock, or ns after the start */
  const spellAt = x => (utc ? new Date((t0 + x) / 1e6).toISOString().replace('T', ' ').slice(0, 23) + ' UTC'
                            : spellNs(x));

  const tilesOf = new Map(); /* lane -> its tiles, by start */
  for (const tile of by.timeline_tiles.data) {
    if (!tilesOf.has(tile.lane)) tilesOf.set(tile.lane, []);
    tilesOf.get(tile.lane).push(tile);
  }
  const tileNs = run.tile_ns;

  /* ---- rows: counter tracks, processes, and the opened groups and threads ---- */
  const processes = new Map(); /* pid -> {name, calls, phases, threads: Map(tid -> {calls, phases})} */
  const processLanes = run.process_lanes === undefined ? lanes.filter(l => l.tid === null).length : run.process_lanes;
  lanes.forEach((l, i) => {
    if (!processes.has(l.pid)) processes.set(l.pid, { name: l.name, threads: new Map() });
    const p = processes.get(l.pid);
    const owner = i < processLanes ? p : (p.threads.get(l.tid) || p.threads.set(l.tid, {}).get(l.tid));
    owner[l.kind] = i;
  });
  /* a track's row spans 0 to the first of these at or above its highest point (%) */
  const SCALES = [1, 2, 5, 10, 20, 25, 50, 100];
  const scaleOf = tracks.map((t, i) => {
    let most = 0;
    for (const lv of counterLevels) {
      const row = lv && lv.rows.get(i);
      if (row) for (const v of row.value) most = Math.max(most, v);
    }
    return SCALES.find(s => s >= most) || Math.ceil(most);
  });
  const trackLabel = i => `${tracks[i].name} (0-${scaleOf[i]} %)`;
  /* counter groups (the per-CPU tracks): headed by their "GROUP all" track, else a row of their own */
  const groups = new Map();
  tracks.forEach((t, i) => { if (t.group) (groups.get(t.group) || groups.set(t.group, []).get(t.group)).push(i); });
  const opened = new Set(); /* pids and 'group ' + name */
  const toggle = (open, text) => (open ? '▾ ' : '▸ ') + text;
  let rows = [];
  function layoutRows() {
    rows = [];
    const headed = new Set();
    const pushGroup = g => {
      headed.add(g);
      if (opened.has('group ' + g))
        for (const m of groups.get(g)) rows.push({ label: '   ' + trackLabel(m), counter: m });
    };
    tracks.forEach((t, i) => {
      if (t.group) return;
      const g = t.name.endsWith(' all') && groups.has(t.name.slice(0, -4)) ? t.name.slice(0, -4) : null;
      rows.push({ label: g ? toggle(opened.has('group ' + g), trackLabel(i)) : trackLabel(i), counter: i, group: g });
      if (g) pushGroup(g);
    });
    for (const g of groups.keys())
      if (!headed.has(g)) {
        rows.push({ label: toggle(opened.has('group ' + g), g + ' %'), group: g });
        pushGroup(g);
      }
    for (const [pid, p] of processes) {
      const threadLanes = [...p.threads.values()];
      /* threads to open: not the one lane of a trace without tids */
      const canOpen = run.thread_lanes && p.threads.size > 0 && !(p.threads.size === 1 && p.threads.has(null));
      const name = pid === null ? 'run' : p.name ? `${p.name} ${pid}` : 'pid ' + pid;
      rows.push({ label: canOpen ? toggle(opened.has(pid), name) : name, pid: pid, tid: null,
                  calls: p.calls, phases: p.phases, threadLanes: threadLanes });
      if (opened.has(pid))
        for (const [tid, t] of p.threads)
          rows.push({ label: '   tid ' + tid, pid: pid, tid: tid, calls: t.calls, phases: t.phases, threadLanes: [t] });
    }
  }

  /* ---- colours: a key (cat or phase name) keeps the colour it first got ---- */
  const palette = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
                   '#2f4554', '#c23531', '#61a0a8', '#d48265', '#749f83', '#ca8622', '#bda29a', '#6e7074', '#c4ccd3'];
  const colourOf = new Map();
  function colour(key) {
    if (!colourOf.has(key)) colourOf.set(key, palette[colourOf.size % palette.length]);
    return colourOf.get(key);
  }

  /* ---- the page ---- */
  const section = element('section', 'sheet timeline');
  section.id = 'timeline';
  section.appendChild(element('h2', null, 'timeline'));
  if (t0 === null) section.appendChild(element('p', 'note', 'No timed events: nothing to draw.'));
  section.appendChild(element('p', 'note',
    `${run.events} events from ${spellAt(0)} to ${spellAt(span)}` +
    (tracks.length ? `, ${tracks.length} counter tracks` : '') + `; ${run.kept} are embedded exactly, ${run.omitted} ` +
    `omitted from the tiles (each tile, a ${spellNs(tileNs)} window of a thread, keeps its ${run.tile_events} ` +
    'longest). Wheel: zoom; drag: pan; the slider: the whole run. Click a process\'s name to show its threads, ' +
    'a bar to see its fields.'));
  const status = section.appendChild(element('p', 'note timeline-status'));
  const legend = section.appendChild(element('div', 'timeline-legend'));
  const area = section.appendChild(element('div', 'timeline-area'));
  const panel = section.appendChild(element('div', 'timeline-panel'));
  panel.appendChild(element('span', 'note', 'Click a bar for its fields.'));
  root.appendChild(section);

  const chart = echarts.init(area, null, { renderer: 'canvas' });
  let drawn = { values: [], refs: [], counters: [] }, view = { mode: 'cells', level: 0, range: [0, span] };

  /* An item's rectangle in pixels: its band of its row (0: calls, 1: phases
   * on top, 2: phases of a row without calls, the whole row), at least a
   * pixel wide, a phase two (an instant mark). */
  function bandRect(value, coord, rowPx) {
    const row = value[0], band = value[5];
    const start = coord([value[1], row]), end = coord([value[2], row]);
    const h = rowPx * 0.8;
    const top = band === 0 ? h * PHASE_BAND : 0, height = band === 0 ? h * (1 - PHASE_BAND) : band === 1 ? h * PHASE_BAND : h;
    return { x: start[0], y: start[1] - h / 2 + top, width: Math.max(band ? 2 : 1, end[0] - start[0]), height: height };
  }

  /* A counter track: its points (ns, %) as a line over an area, the row's
   * band its 0 to its scale (scaleOf). */
  function renderCounter(params, api) {
    const track = drawn.counters[params.dataIndex];
    if (!track || !track.clipped.length) return null;
    const row = api.value(0), h = api.size([0, 1])[1] * 0.8, bottom = api.coord([0, row])[1] + h / 2;
    const top = scaleOf[track.track];
    const points = track.clipped.map(([x, v]) => [api.coord([x, row])[0], bottom - h * Math.min(top, Math.max(0, v)) / top]);
    const area = points.concat([[points[points.length - 1][0], bottom], [points[0][0], bottom]]);
    const colour = COUNTER_COLOURS[tracks[track.track].source] || '#6e7074';
    return { type: 'group', children: [
      { type: 'polygon', shape: { points: area }, style: { fill: colour, opacity: 0.3 } },
      { type: 'polyline', shape: { points: points }, style: { stroke: colour, fill: null, lineWidth: 1.2 } }] };
  }

  function renderItem(params, api) {
    const value = [0, 1, 2, 3, 4, 5].map(d => api.value(d));
    const rect = echarts.graphic.clipRectByRect(bandRect(value, api.coord, api.size([0, 1])[1]), params.coordSys);
    return rect && { type: 'rect', shape: rect, style: { fill: value[3], opacity: value[4] } };
  }

  function visibleNs() {
    const x = chart.getModel().getComponent('xAxis', 0).axis.scale.getExtent();
    return x[1] - x[0];
  }

  function visibleRows() {
    const y = chart.getModel().getComponent('yAxis', 0).axis.scale.getExtent();
    return [Math.max(0, Math.floor(y[0])), Math.min(rows.length - 1, Math.ceil(y[1]))];
  }

  /* first i with a[i] >= v in a sorted array-like, by key */
  function lowerBound(a, v, key) {
    let lo = 0, hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (key(a[mid]) < v) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  /* A drawn bar: its value for the series, and where its fields come from
   * (spelled only when asked: a view draws thousands). */
  function pushCells(out, r, lane, band, lv, a, b) {
    const row = lv.cells.get(lane);
    if (!row) return;
    const starts = bucketsOf(row), w = lv.width, base = t0 / w;
    /* bucket start in ns after t0: (bucket - t0 / w) * w */
    for (let i = lowerBound(starts, (a / w) + base - 1, x => x); i < starts.length; i++) {
      const x0 = (starts[i] - base) * w;
      if (x0 > b) break;
      const key = strings[row.key[i]];
      /* a phase (an instant mark too) shows at least at 0.6 */
      const opacity = Math.min(1, Math.max(band ? 0.6 : 0, 0.2 + 0.8 * row.busy[i] / w));
      out.values.push([r, x0, x0 + w, colour(key), opacity, band]);
      out.refs.push({ cells: row, i: i, w: w, r: r });
      out.keys.add(key);
    }
  }

  /* An event under a pixel wide, in a pixel column of its row's band that
   * one already covers, would not show: it is counted, not drawn. */
  function pushEvents(out, r, lane, band, a, b, covered, perPx) {
    const tiles = tilesOf.get(lane);
    if (!tiles) return;
    const from = a + t0 - lanes[lane].longest_ns - tileNs;
    for (let i = lowerBound(tiles, from, t => t.start_ns); i < tiles.length; i++) {
      const tile = tiles[i], start = tile.start_ns - t0;
      if (start > b) break;
      out.tiles++;
      out.omitted += tile.omitted;
      for (let k = 0; k < tile.kept; k++) {
        const x0 = start + tile.ts[k], x1 = x0 + tile.dur[k];
        if (x1 < a || x0 > b) continue;
        const column = Math.floor((x0 - a) / perPx);
        if (x1 - x0 < perPx && covered[column]) { out.hidden++; continue; }
        for (let c = Math.max(0, column); c <= Math.min(covered.length - 1, (x1 - a) / perPx); c++) covered[c] = 1;
        /* coloured as the cells are: a call by its cat, a phase by its name */
        const key = strings[band ? tile.name[k] : tile.cat[k]];
        out.values.push([r, x0, x1, colour(key), 0.9, band]);
        out.refs.push({ tile: tile, k: k, lane: lanes[lane] });
        out.keys.add(key);
      }
    }
  }

  /* Points (x, value) cut to [a, b]: the ones outside replaced by the line's
   * value at the edge. */
  function clip(points, a, b) {
    const out = [];
    for (let k = 0; k < points.length; k++) {
      const [x, v] = points[k], prev = points[k - 1], next = points[k + 1];
      if (x < a) {
        if (next && next[0] >= a) out.push([a, v + (next[1] - v) * (a - x) / (next[0] - x)]);
      } else if (x > b) {
        if (prev && prev[0] <= b) out.push([b, prev[1] + (v - prev[1]) * (b - prev[0]) / (x - prev[0])]);
        break;
      } else {
        out.push([x, v]);
      }
    }
    return out;
  }

  /* A counter track at the coarsest of its levels whose width is at most
   * perPx (else its finest): its points in [a, b] with one either side. */
  function pushCounter(out, r, track, a, b, perPx) {
    let level = counterLevels.findIndex(lv => lv && lv.width <= perPx);
    if (level < 0) level = counterLevels.length - 1;
    const lv = counterLevels[level], row = lv && lv.rows.get(track);
    if (!row) return;
    const starts = bucketsOf(row), w = lv.width, base = t0 / w, points = [];
    const at = i => (starts[i] - base + 0.5) * w; /* the bucket's middle, ns after t0 */
    for (let i = Math.max(0, lowerBound(starts, a / w + base - 0.5, x => x) - 1); i < starts.length; i++) {
      points.push([at(i), row.value[i], row.samples[i]]);
      if (at(i) > b) break;
    }
    out.counters.push({ track: track, level: level, width: w, points: points, clipped: clip(points, a, b) });
    out.counterValues.push([r, a, b]);
  }

  const nameOf = pid => (processes.has(pid) && processes.get(pid).name) || null;

  /* The fields of drawn bar i: a bucket's, or an event's as the tiles hold it
   * (with the process's name, when the report has one). */
  function fieldsOf(i) {
    const ref = drawn.refs[i];
    if (ref.cells) {
      const c = ref.cells, x0 = drawn.values[i][1];
      return { start: spellNs(x0), width: spellNs(ref.w), count: c.count[ref.i], busy: spellNs(c.busy[ref.i]),
               key: strings[c.key[ref.i]], pid: rows[ref.r].pid, tid: rows[ref.r].tid, process: nameOf(rows[ref.r].pid) };
    }
    const t = ref.tile, k = ref.k;
    return { ts: t.start_ns + t.ts[k], dur: t.dur[k], cat: strings[t.cat[k]], name: strings[t.name[k]],
             bytes: t.bytes[k], pid: ref.lane.pid, tid: ref.lane.tid, process: nameOf(ref.lane.pid) };
  }

  /* What the view shows now: the level (or the events) for its range. */
  function redraw() {
    const x = chart.getModel().getComponent('xAxis', 0).axis.scale.getExtent();
    const a = x[0], b = x[1], px = Math.max(1, chart.getWidth() - GRID.left - GRID.right);
    const perPx = (b - a) / px;
    const level = levels.findIndex(lv => lv && lv.width <= perPx);
    const out = { values: [], refs: [], keys: new Set(), tiles: 0, omitted: 0, hidden: 0, counters: [], counterValues: [] };
    const [r0, r1] = visibleRows();
    for (let r = r0; r <= r1; r++) {
      const row = rows[r];
      if (row.counter !== undefined) {
        pushCounter(out, r, row.counter, a, b, perPx);
        continue;
      }
      if (row.pid === undefined) continue; /* a counter group's head */
      const phaseBand = row.calls === undefined ? 2 : 1;
      if (level >= 0) {
        if (row.calls !== undefined) pushCells(out, r, row.calls, 0, levels[level], a, b);
        if (row.phases !== undefined) pushCells(out, r, row.phases, phaseBand, levels[level], a, b);
      } else {
        const covered = [new Uint8Array(px + 1), new Uint8Array(px + 1)]; /* per band */
        for (const t of row.threadLanes) {
          if (t.calls !== undefined) pushEvents(out, r, t.calls, 0, a, b, covered[0], perPx);
          if (t.phases !== undefined) pushEvents(out, r, t.phases, phaseBand, a, b, covered[1], perPx);
        }
      }
    }
    drawn = out;
    const n = out.values.length;
    view = { mode: level >= 0 ? 'cells' : 'events', level: level, range: [a, b], items: n, rows: rows.length,
             counters: out.counters.length, start: utc ? new Date((t0 + a) / 1e6).toISOString() : null };
    chart.setOption({ series: [{ id: 'timeline', data: out.values }, { id: 'counters', data: out.counterValues }] });
    status.textContent = `${spellAt(a)} to ${spellAt(b)}: ` + (level >= 0
      ? `level ${level} of ${levels.length} (buckets of ${spellNs(levels[level].width)}), ${n} bars`
      : `exact events: ${n} drawn from ${out.tiles} tiles, which omitted ${out.omitted} shorter ones` +
        (out.hidden ? ` (${out.hidden} under a pixel where one is drawn left out)` : ''));
    legend.textContent = '';
    for (const key of out.keys) {
      const swatch = legend.appendChild(element('span', 'swatch'));
      swatch.style.background = colour(key);
      legend.appendChild(element('span', null, key));
    }
  }

  /* The fields of the point of drawn counter track i nearest pixel column px. */
  function counterFields(i, px) {
    const c = drawn.counters[i], x = chart.convertFromPixel({ xAxisIndex: 0 }, px);
    let best = c.points[0];
    for (const p of c.points) if (Math.abs(p[0] - x) < Math.abs(best[0] - x)) best = p;
    return { track: tracks[c.track].name, source: tracks[c.track].source, start: spellAt(best[0] - c.width / 2),
             width: spellNs(c.width), value: best[1] + ' %', samples: best[2] };
  }

  function showFields(fields) {
    panel.textContent = '';
    const t = panel.appendChild(element('table'));
    for (const [k, v] of Object.entries(fields)) {
      const tr = t.appendChild(element('tr'));
      tr.appendChild(element('th', null, k));
      tr.appendChild(element('td', null, v === null ? '-' : String(v)));
    }
  }

  function setup() {
    layoutRows();
    const shown = Math.min(rows.length, MAX_ROWS_SHOWN);
    area.style.height = (shown * ROW_PX + GRID.top + GRID.bottom) + 'px';
    chart.resize();
    const many = rows.length > MAX_ROWS_SHOWN;
    chart.setOption({
      animation: false,
      grid: GRID,
      xAxis: { type: 'value', min: 0, max: span, name: utc ? 'UTC' : '',
               axisLabel: { formatter: utc ? v => utcText(v, visibleNs()) : spellNs, hideOverlap: true },
               splitLine: { show: true } },
      yAxis: { type: 'category', data: rows.map(r => r.label), inverse: true, triggerEvent: true,
               axisLabel: { width: GRID.left - 10, overflow: 'truncate', interval: 0 } },
      dataZoom: [{ id: 'x-inside', type: 'inside', xAxisIndex: 0, filterMode: 'none' },
                 { id: 'x-slider', type: 'slider', xAxisIndex: 0, filterMode: 'none', bottom: 10,
                   labelFormatter: v => spellNs(v) }]
        .concat(many ? [{ id: 'y-slider', type: 'slider', yAxisIndex: 0, filterMode: 'none', right: 5, width: 14,
                          startValue: 0, endValue: MAX_ROWS_SHOWN - 1, zoomLock: true }] : []),
      series: [{ id: 'timeline', type: 'custom', renderItem: renderItem, encode: { x: [1, 2], y: 0 },
                 progressive: 0, data: [] },
               { id: 'counters', type: 'custom', renderItem: renderCounter, encode: { x: [1, 2], y: 0 },
                 progressive: 0, data: [] }],
    }, { replaceMerge: ['dataZoom'] });
    redraw();
  }

  let pending = false;
  chart.on('datazoom', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; redraw(); });
  });
  chart.on('click', p => {
    if (p.componentType === 'yAxis') {
      /* a row that opens: a counter group's head, a process with threads */
      const row = rows.find(r => r.label === p.value);
      const key = !row ? undefined : row.group ? 'group ' + row.group : /^[▸▾]/.test(row.label) ? row.pid : undefined;
      if (key === undefined) return;
      if (opened.has(key)) opened.delete(key); else opened.add(key);
      setup();
    } else if (p.seriesId === 'counters') {
      showFields(counterFields(p.dataIndex, p.event.offsetX));
    } else if (p.componentType === 'series') {
      showFields(fieldsOf(p.dataIndex));
    }
  });
  window.addEventListener('resize', () => { chart.resize(); redraw(); });
  setup();

  /* What the browser test reads and drives. */
  return {
    chart: chart, element: area, panel: panel,
    view: () => view,
    items: () => drawn.values.map((value, i) => ({ value: value, fields: fieldsOf(i) })),
    /* the counter tracks drawn: track (index), level and width, points [x (ns after t0), value] */
    counters: () => drawn.counters.map(c => ({ track: c.track, name: tracks[c.track].name, level: c.level,
                                               width: c.width, points: c.points.map(p => [p[0], p[1]]) })),
    t0: t0,
    /* the rows as laid out: label, and pid, tid, counter (track) or group */
    rows: () => rows.map(r => ({ label: r.label, pid: r.pid, tid: r.tid, counter: r.counter, group: r.group })),
    /* item i's rectangle in pixels of the chart's element, as drawn: cut to the grid */
    rectOf: i => {
      const coord = p => chart.convertToPixel({ seriesId: 'timeline' }, p);
      const r = bandRect(drawn.values[i], coord, Math.abs(coord([0, 1])[1] - coord([0, 0])[1]));
      const x0 = Math.max(r.x, GRID.left), x1 = Math.min(r.x + r.width, chart.getWidth() - GRID.right);
      return Object.assign(r, { x: x0, width: Math.max(0, x1 - x0) });
    },
    /* a row's label: where a click opens or closes a process */
    labelAt: r => ({ x: GRID.left - 30, y: chart.convertToPixel({ yAxisIndex: 0 }, rows[r].label) }),
  };
};
