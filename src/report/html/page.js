/* page.js - draws report.html from the JSON document in #gb-data (written by
 * src/report/html.c): provenance, sortable tables, charts (Chart.js, with
 * hover values, legend toggles and wheel zoom), heat grids, speedup tables
 * and the CampProf calculator (campprof.js). A test hook: with "#test" in
 * the address, the page writes what it drew into #gb-test as JSON, and
 * "#test&calc=<JSON>" drives the first calculator with those inputs. */
(function () {
  'use strict';
  var consoleErrors = [];
  var origError = console.error;
  console.error = function () {
    consoleErrors.push(Array.prototype.join.call(arguments, ' '));
    origError.apply(console, arguments);
  };
  window.addEventListener('error', function (e) { consoleErrors.push(String(e.message)); });

  var D = JSON.parse(document.getElementById('gb-data').textContent);
  var app = document.getElementById('gb-app');
  var drawn = [];      /* {name, kind, marks, chart} per chart */
  var COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#999999',
                 '#882255', '#F0E442', '#8C564B', '#332288'];
  var REC = D.records ? D.records.rows : [];

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) Object.keys(attrs).forEach(function (k) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    });
    (kids || []).forEach(function (c) { if (c) e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c); });
    return e;
  }
  function num(v, sig) { return v === null || v === undefined ? '' : GbCamp.fmt(v, sig || 4); }

  /* ---- provenance ---- */
  /* ---- findings: the lines of report.md's "Findings" section, first ---- */
  function findings() {
    var sec = el('section', {id: 'findings'}, [el('h2', {text: 'Findings'})]), many = (D.findings || []).length > 1;
    (D.findings || []).forEach(function (f) {
      if (many) sec.appendChild(el('h3', {text: f.suite}));
      sec.appendChild(el('ul', null, f.lines.map(function (line) { return el('li', {text: line}); })));
    });
    if (!(D.findings || []).length) sec.appendChild(el('p', {text: 'No point was recorded in this run.'}));
    return sec;
  }

  /* run.json as text, its fractional numbers to 6 significant digits (the file keeps them whole) */
  function runJsonText(r) {
    return JSON.stringify(r, function (k, v) {
      return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : v;
    }, 1);
  }

  function provenance() {
    var r = D.run;
    var sec = el('section', {id: 'provenance'}, [el('h2', {text: 'Provenance'})]);
    if (!r) { sec.appendChild(el('p', {text: 'No run.json.'})); return sec; }
    var dev = r.device || {};
    var rows = [
      ['device', (dev.name || '') + (dev.compute_capability ? ' (cc ' + dev.compute_capability + ', ' + dev.sm_count + ' SMs)' : '')],
      ['started', r.started_utc], ['finished', r.finished_utc], ['host', r.host],
      ['tool', typeof r.tool === 'object' && r.tool ? (r.tool.name || 'gpubound') + ' ' + (r.tool.version || '') + (r.tool.git_revision ? ' (' + r.tool.git_revision + ')' : '') : r.tool],
      ['driver', dev.driver_version], ['command', r.command_line], ['records', D.n_records]];
    var t = el('table', {cls: 'prov'});
    rows.forEach(function (kv) {
      if (kv[1] !== undefined && kv[1] !== null && kv[1] !== '')
        t.appendChild(el('tr', null, [el('th', {text: kv[0]}), el('td', {text: String(kv[1])})]));
    });
    sec.appendChild(t);
    sec.appendChild(el('details', null, [el('summary', {text: 'run.json (numbers to 6 significant digits)'}), el('pre', {text: runJsonText(r)})]));
    return sec;
  }

  /* ---- sortable tables ---- */
  function sortKey(s) {
    var m = /^\s*(-?[0-9.]+(?:e[-+]?\d+)?)/i.exec(s || '');
    return m ? parseFloat(m[1]) : null;
  }
  function table(tj, cls) {
    var t = el('table', {cls: 'data ' + (cls || '')}), head = el('tr'), body = el('tbody');
    tj.columns.forEach(function (c, i) {
      var th = el('th', {text: c, title: 'sort'});
      th.addEventListener('click', function () { sortBy(t, body, i, th); });
      head.appendChild(th);
    });
    t.appendChild(el('thead', null, [head]));
    tj.rows.forEach(function (r) {
      body.appendChild(el('tr', null, r.map(function (v) { return el('td', {text: v === null ? '' : String(v)}); })));
    });
    t.appendChild(body);
    return t;
  }
  function sortBy(t, body, col, th) {
    var dir = th.getAttribute('data-sort') === 'asc' ? -1 : 1;
    Array.prototype.forEach.call(t.querySelectorAll('th'), function (h) { h.removeAttribute('data-sort'); });
    th.setAttribute('data-sort', dir > 0 ? 'asc' : 'desc');
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = a.cells[col].textContent, y = b.cells[col].textContent, nx = sortKey(x), ny = sortKey(y);
      if (nx !== null && ny !== null && nx !== ny) return dir * (nx - ny);
      return dir * x.localeCompare(y);
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }

  /* ---- hover text of a record ---- */
  function recLines(i) {
    var r = REC[i];
    if (!r) return [];
    var axes = Object.keys(r[2]).map(function (k) { return k + '=' + r[2][k]; }).join(' ');
    var out = [r[1] + (axes ? ' ' + axes : '') + ' (' + r[11] + ')'];
    if (r[12]) out.push(r[12]);
    out.push(r[7] + ' samples' + (r[3] !== 'ok' ? ', ' + r[3] + (r[10] ? ': ' + r[10] : '') : ''));
    return out;
  }

  /* ---- line and bar charts ---- */
  var errorBars = {
    id: 'gbErrorBars',
    afterDatasetsDraw: function (chart) {
      var ctx = chart.ctx;
      chart.data.datasets.forEach(function (ds, di) {
        if (!ds.gbLo || !chart.isDatasetVisible(di)) return;
        var meta = chart.getDatasetMeta(di), ys = chart.scales[meta.yAxisID];
        ctx.save();
        ctx.strokeStyle = ds.borderColor;
        ctx.lineWidth = 1.5;
        meta.data.forEach(function (pt, k) {
          var lo = ds.gbLo[k], hi = ds.gbHi[k];
          if (lo === null || hi === null || lo === undefined || pt.skip) return;
          var x = pt.x, y1 = ys.getPixelForValue(lo), y2 = ys.getPixelForValue(hi);
          ctx.beginPath();
          ctx.moveTo(x, y1); ctx.lineTo(x, y2);
          ctx.moveTo(x - 4, y1); ctx.lineTo(x + 4, y1);
          ctx.moveTo(x - 4, y2); ctx.lineTo(x + 4, y2);
          ctx.stroke();
        });
        ctx.restore();
      });
    }
  };

  function chartDatasets(p) {
    var bar = p.kind === 'bar', cat = bar || p.x_mode === 2, sets = [], xs = [];
    p.series.forEach(function (s, si) {
      var data = [], lo = [], hi = [], recs = [];
      if (bar) { p.cats.forEach(function () { data.push(null); lo.push(null); hi.push(null); recs.push(-1); }); }
      s.pts.forEach(function (pt) {
        if (bar) { data[pt[0]] = pt[1]; lo[pt[0]] = pt[2]; hi[pt[0]] = pt[3]; recs[pt[0]] = pt[4]; return; }
        data.push(cat ? {x: p.cats[pt[0]], y: pt[1]} : {x: pt[0], y: pt[1]});
        lo.push(pt[2]); hi.push(pt[3]); recs.push(pt[4]);
        xs.push(pt[0]);
      });
      if (!bar) {
        var order = data.map(function (d, k) { return k; });
        if (!cat) order.sort(function (a, b) { return data[a].x - data[b].x; });
        else order.sort(function (a, b) { return s.pts[a][0] - s.pts[b][0]; });
        data = order.map(function (k) { return data[k]; }); lo = order.map(function (k) { return lo[k]; });
        hi = order.map(function (k) { return hi[k]; }); recs = order.map(function (k) { return recs[k]; });
      }
      var c = COLOURS[si % COLOURS.length];
      var ds = {label: s.label, data: data, gbLo: lo, gbHi: hi, gbRec: recs, borderColor: c,
        backgroundColor: bar ? c + 'cc' : c, pointRadius: 3, borderWidth: 2, spanGaps: false};
      /* Bars of a ratio grow from their base (1: no change), up or down, not from zero. */
      if (bar && typeof p.bar_base === 'number') ds.base = p.bar_base;
      /* A series drawn as markers only (the points of a roofline) or as a line only (a roof). */
      if (!bar && s.style === 'points') ds.showLine = false;
      if (!bar && s.style === 'lines') ds.pointRadius = 0;
      sets.push(ds);
    });
    var xmin = Math.min.apply(null, xs), xmax = Math.max.apply(null, xs);
    p.refs.forEach(function (r, ri) {
      var data = bar || cat ? p.cats.map(function (c) { return bar ? r.y : {x: c, y: r.y}; })
                            : [{x: xmin, y: r.y}, {x: xmax, y: r.y}];
      sets.push({label: r.label + ' (' + num(r.y, 4) + (r.unit ? ' ' + r.unit : '') + ')', data: data, type: 'line',
        borderColor: '#404040', borderDash: [[10, 6], [3, 4], [16, 5, 3, 5], [6, 3]][ri % 4], pointRadius: 0,
        borderWidth: 1.5, gbRef: true});
    });
    (p.stars || []).forEach(function (s) {
      sets.push({label: s.label, data: [{x: s.x, y: s.y}], type: 'scatter', pointStyle: 'star',
        pointRadius: 12, borderColor: '#000', backgroundColor: '#000', borderWidth: 2, gbStar: true});
    });
    return sets;
  }

  function tooltipLines(p, ctx) {
    var ds = ctx.dataset, k = ctx.dataIndex;
    if (ds.gbRef) return [ds.label];
    var y = ctx.parsed.y, lines = [ds.label + ': ' + num(y, 5) + (p.y_label ? ' (' + p.y_label + ')' : '')];
    if (ds.gbLo && ds.gbLo[k] !== null && ds.gbLo[k] !== undefined)
      lines.push('interval ' + num(ds.gbLo[k], 5) + ' .. ' + num(ds.gbHi[k], 5));
    if (ds.gbRec && ds.gbRec[k] >= 0) lines = lines.concat(recLines(ds.gbRec[k]));
    return lines;
  }

  function zoomable(chart, canvas, box) {
    var home = null;
    function scale() { return chart.scales.x; }
    canvas.addEventListener('wheel', function (ev) {
      ev.preventDefault();
      var s = scale(), f = ev.deltaY > 0 ? 1.25 : 0.8;
      if (!home) home = {min: s.min, max: s.max};
      var at = s.getValueForPixel(ev.offsetX), lo = s.min, hi = s.max;
      if (s.type === 'logarithmic') {
        var L = Math.log(at);
        chart.options.scales.x.min = Math.exp(L - (L - Math.log(lo)) * f);
        chart.options.scales.x.max = Math.exp(L + (Math.log(hi) - L) * f);
      } else if (s.type === 'category') {
        var n = chart.data.labels ? chart.data.labels.length : s.max + 1, a = Math.round(lo), b = Math.round(hi);
        if (f < 1 && b - a > 1) { if (at - a > b - at) a++; else b--; }
        if (f > 1) { a = Math.max(0, a - 1); b = Math.min(n - 1, b + 1); }
        chart.options.scales.x.min = a; chart.options.scales.x.max = b;
      } else {
        chart.options.scales.x.min = at - (at - lo) * f;
        chart.options.scales.x.max = at + (hi - at) * f;
      }
      chart.update('none');
    }, {passive: false});
    var reset = el('button', {text: 'reset zoom', cls: 'reset'});
    reset.addEventListener('click', function () {
      delete chart.options.scales.x.min; delete chart.options.scales.x.max; chart.update('none');
    });
    canvas.addEventListener('dblclick', function () { reset.click(); });
    box.appendChild(reset);
  }

  function lineChart(p, box) {
    var bar = p.kind === 'bar', cat = bar || p.x_mode === 2;
    var wrap = el('div', {cls: 'canvas-wrap'}), canvas = el('canvas', {'data-chart': p.name});
    wrap.appendChild(canvas);
    box.appendChild(wrap);
    var xType = cat ? 'category' : (p.log_x ? 'logarithmic' : 'linear');
    var cfg = {
      type: bar ? 'bar' : 'line',
      data: {labels: cat ? p.cats : undefined, datasets: chartDatasets(p)},
      options: {
        animation: false, responsive: true, maintainAspectRatio: false, parsing: bar ? undefined : {xAxisKey: 'x', yAxisKey: 'y'},
        interaction: {mode: 'nearest', intersect: false},
        plugins: {
          title: {display: true, text: [p.title || p.name].concat(p.subtitle ? [p.subtitle] : [])},
          legend: {position: 'bottom'},
          tooltip: {callbacks: {label: function (ctx) { return tooltipLines(p, ctx); },
            title: function (items) { return items.length ? (p.x_label || 'x') + ' = ' + items[0].label : ''; }}}
        },
        scales: {
          x: {type: xType, title: {display: !!p.x_label, text: p.x_label || ''}},
          y: {type: p.log_y ? 'logarithmic' : 'linear', beginAtZero: !p.log_y && typeof p.bar_base !== 'number',
            title: {display: !!p.y_label, text: p.y_label || ''}}
        }
      },
      plugins: [errorBars]
    };
    var chart = new Chart(canvas, cfg);
    zoomable(chart, canvas, box);
    var marks = 0;
    chart.data.datasets.forEach(function (ds, di) {
      if (ds.gbRef || ds.gbStar) return;
      chart.getDatasetMeta(di).data.forEach(function (e, k) {
        var v = ds.data[k];
        if (v !== null && v !== undefined && !e.skip) marks++;
      });
    });
    return {marks: marks, chart: chart, from_base: barsFromBase(p, chart)};
  }

  /* For the test hook: whether every bar of a chart with a base starts there
   * (its base pixel on the base value), null for other charts. */
  function barsFromBase(p, chart) {
    if (p.kind !== 'bar' || typeof p.bar_base !== 'number') return null;
    var yb = chart.scales.y.getPixelForValue(p.bar_base);
    return chart.data.datasets.every(function (ds, di) {
      return ds.gbRef || chart.getDatasetMeta(di).data.every(function (e, k) {
        return ds.data[k] === null || ds.data[k] === undefined || Math.abs(e.base - yb) <= 2;
      });
    });
  }

  /* ---- heat grids: a table of cells, the best marked ---- */
  function heatGrid(p, box) {
    var cells = p.cells, best = null;
    cells.forEach(function (c) {
      if (c[2] === null) return;
      if (best === null || (p.higher_better ? c[2] > best : c[2] < best)) best = c[2];
    });
    var grid = {};
    cells.forEach(function (c) { grid[c[0] + ',' + c[1]] = c; });
    var t = el('table', {cls: 'heat', 'data-chart': p.name}), head = el('tr', null, [el('th', {text: (p.y_label || '') + ' \\ ' + (p.x_label || '')})]);
    p.cols.forEach(function (c) { head.appendChild(el('th', {text: c})); });
    t.appendChild(head);
    var marks = 0, kinds = {best: 0, w5: 0, w25: 0, fail: 0, none: 0};
    p.rows.forEach(function (rname, ri) {
      var tr = el('tr', null, [el('th', {text: rname})]);
      p.cols.forEach(function (cname, ci) {
        var c = grid[ri + ',' + ci], td = el('td');
        if (c) {
          marks++;
          var v = c[2], ratio = v === null || best === null ? null : (p.higher_better ? best / v : v / best);
          var mark = v === null ? '×' : ratio <= 1 + 1e-12 ? '■' : ratio <= 1.05 ? '●' : ratio <= 1.25 ? '○' : '';
          var shade = ratio === null ? '#ddd' : heatColour(Math.log(ratio) / Math.log(4));
          td.style.background = c[3] ? 'repeating-linear-gradient(45deg,' + shade + ',' + shade + ' 3px,#bbb 3px,#bbb 5px)' : shade;
          td.textContent = mark;
          kinds[{'■': 'best', '●': 'w5', '○': 'w25', '×': 'fail'}[mark] || 'none'] += 1;
          td.className = 'cell' + (mark === '■' ? ' best' : '');
          td.title = [(p.y_label || 'row') + ' ' + rname + ', ' + (p.x_label || 'col') + ' ' + cname,
            v === null ? 'failed' : num(v, 5) + (ratio !== null ? ' (' + (ratio === 1 ? 'best' : '+' + num((ratio - 1) * 100, 3) + '% from the best') + ')' : ''),
            c[3] && p.flag_label ? p.flag_label : ''].concat(c[4] >= 0 ? recLines(c[4]) : []).filter(Boolean).join('\n');
        }
        tr.appendChild(td);
      });
      t.appendChild(tr);
    });
    box.appendChild(el('h3', {text: p.title || p.name}));
    if (p.subtitle) box.appendChild(el('p', {cls: 'sub', text: p.subtitle}));
    box.appendChild(el('p', {cls: 'legend', text: '■ best' + (best !== null ? ' (' + num(best, 5) + ')' : '') + '   ● within 5%   ○ within 25%   × failed' + (p.flag_label ? '   hatched: ' + p.flag_label : '') + '. Hover a cell for its values.'}));
    box.appendChild(el('div', {cls: 'heat-wrap'}, [t]));
    return {marks: marks, kinds: kinds};
  }
  function heatColour(x) {
    x = Math.max(0, Math.min(1, x));
    var a = [0, 114, 178], b = [255, 255, 255], c = [213, 94, 0], f, q;
    if (x < 0.5) { f = x * 2; q = a.map(function (v, i) { return Math.round(v + (b[i] - v) * f); }); }
    else { f = (x - 0.5) * 2; q = b.map(function (v, i) { return Math.round(v + (c[i] - v) * f); }); }
    return 'rgb(' + q.join(',') + ')';
  }

  /* ---- speedup charts: their table, with a bar chart of the speedups ---- */
  function speedup(ch, box) {
    box.appendChild(el('h3', {text: ch.title}));
    box.appendChild(table(ch.table, 'speedup'));
    var cols = ch.table.columns, si = cols.indexOf('speedup');
    var lo = cols.findIndex(function (c) { return /^(low|lo|interval low|from)/i.test(c); });
    var hi = cols.findIndex(function (c) { return /^(high|hi|interval high|to)/i.test(c); });
    if (si < 0) return {marks: 0};
    var p = {name: ch.name, kind: 'bar', title: ch.title, y_label: 'speedup', x_label: '', log_x: false, log_y: false,
      bar_base: 1, cats: [], series: [{label: 'speedup (95% interval)', pts: []}], refs: [{label: 'no change', y: 1, unit: ''}]};
    ch.table.rows.forEach(function (r, k) {
      p.cats.push(r.slice(0, si > 2 ? 2 : 1).filter(function (v) { return v; }).join(' '));
      p.series[0].pts.push([k, sortKey(r[si]), lo >= 0 ? sortKey(r[lo]) : null, hi >= 0 ? sortKey(r[hi]) : null, -1]);
    });
    return lineChart(p, box);
  }

  function drawChart(ch, box) {
    if (ch.kind === 'heat') return heatGrid(ch, box);
    if (ch.kind === 'speedup') return speedup(ch, box);
    return lineChart(ch, box);
  }

  function suiteSection(s, parent) {
    var sec = el('section', {cls: 'suite', id: 'suite-' + s.name}, [el('h2', {text: 'Suite ' + s.name})]);
    parent.appendChild(sec);
    if (s.help) sec.appendChild(el('p', {text: s.help}));
    sec.appendChild(el('h3', {text: s.summary_kind === 'bench' ? 'Summary per bench (click a column to sort)' : 'Summary (click a column to sort)'}));
    sec.appendChild(el('div', {cls: 'table-wrap'}, [table(s.summary)]));
    s.charts.forEach(function (ch) {
      var box = el('div', {cls: 'chart chart-' + ch.kind, id: 'chart-' + ch.name});
      sec.appendChild(box);
      var r = drawChart(ch, box);
      drawn.push({name: ch.name, kind: ch.kind, marks: r.marks, kinds: r.kinds, from_base: r.from_base});
    });
    if (s.left_out) sec.appendChild(el('p', {cls: 'note', text: s.left_out + ' more chart(s) of this suite are not in this report (gpubound report RUN_DIR --all-charts).'}));
    return sec;
  }

  /* ---- the roofline: every point under the machine's roofs ---- */
  function rooflineSection(r, parent) {
    var sec = el('section', {cls: 'suite', id: 'roofline'}, [el('h2', {text: 'Roofline'})]);
    parent.appendChild(sec);
    sec.appendChild(el('p', {text: 'Every point under the machine\u2019s roofs (gpubound roofline): its arithmetic intensity at DRAM, L2 and L1/shared, the roof that binds and the attained fraction of it.'}));
    sec.appendChild(el('ul', {}, (r.notes || []).map(function (n) { return el('li', {text: n}); })));
    if (r.chart) {
      var box = el('div', {cls: 'chart chart-line', id: 'chart-' + r.chart.name});
      sec.appendChild(box);
      var d = drawChart(r.chart, box);
      drawn.push({name: r.chart.name, kind: r.chart.kind, marks: d.marks, kinds: d.kinds});
    }
    sec.appendChild(el('div', {cls: 'table-wrap'}, [table(r.table)]));
    return sec;
  }

  /* ---- the CampProf calculator ---- */
  var calcs = [];
  function calculator(entry, init, idx, parent) {
    var model = entry.model, sec = el('section', {cls: 'calc', id: 'campprof-' + idx});
    parent.appendChild(sec);
    sec.appendChild(el('h2', {text: 'CampProf calculator: ' + entry.file}));
    sec.appendChild(el('p', {text: 'Type the kernel\u2019s global memory instructions per launch (warp-level) by access width, its launch and, optionally, one measured time. The band (best: accesses spread over all partitions; worst: camped on one), the application line and the camping degree follow as you type, from the model below (' + (model.interactions ? 'per-width slopes' : 'the paper\u2019s form') + ', device ' + ((model.device || {}).name || '?') + '). The numbers are those of gpubound camp predict.'}));
    var form = el('form', {cls: 'calc-form', autocomplete: 'off'}), inputs = {};
    function field(key, label, value, help) {
      var inp = el('input', {type: 'text', name: key, value: value === null || value === undefined ? '' : String(value), 'data-key': key});
      inputs[key] = inp;
      form.appendChild(el('label', {title: help || ''}, [el('span', {text: label}), inp]));
    }
    init = init || {};
    var ld = init.ld || {4: 1179648}, st = init.st || {4: 1179648};
    GbCamp.WIDTHS.forEach(function (w) { field('ld' + w, w + '-byte loads', ld[w] || ''); });
    GbCamp.WIDTHS.forEach(function (w) { field('st' + w, w + '-byte stores', st[w] || ''); });
    var fresh = !init.ld && !init.st;
    field('threads', 'threads per block', fresh ? 256 : init.threads);
    field('regs', 'registers per thread', fresh ? 16 : init.regs);
    field('smem', 'shared memory per block (bytes)', fresh ? 0 : init.smem);
    field('grid', 'blocks (optional)', init.grid, 'caps the configurations by the blocks each SM gets');
    field('warps', 'or: warps 1..W (optional)', init.warps, 'replaces the launch, as --warps');
    field('time_ns', 'measured time (ns, optional)', fresh ? 223920 : init.time_ns);
    field('at_warps', 'measured at warps (optional)', init.at_warps, 'default: the launch\u2019s active warps');
    sec.appendChild(form);
    var out = el('div', {cls: 'calc-out'}), summary = el('p', {cls: 'calc-summary'}), err = el('p', {cls: 'calc-error'});
    var wrap = el('div', {cls: 'canvas-wrap'}), canvas = el('canvas', {'data-chart': 'campprof-band-' + idx});
    wrap.appendChild(canvas);
    var tbox = el('div', {cls: 'table-wrap calc-table'});
    out.appendChild(err); out.appendChild(summary); out.appendChild(wrap); out.appendChild(tbox);
    sec.appendChild(out);
    var chart = new Chart(canvas, {type: 'line', data: {datasets: []}, plugins: [],
      options: {animation: false, responsive: true, maintainAspectRatio: false, interaction: {mode: 'nearest', intersect: false},
        plugins: {title: {display: true, text: 'CampProf band'}, legend: {position: 'bottom'},
          tooltip: {callbacks: {label: function (c) { return c.dataset.label + ': ' + num(c.parsed.y, 5) + ' µs'; },
            title: function (it) { return it.length ? it[0].parsed.x + ' active warps per SM' : ''; }}}},
        scales: {x: {type: 'linear', title: {display: true, text: 'active warps per SM'}},
          y: {type: 'linear', title: {display: true, text: 'time per launch (µs)'}}}}});
    var box = {};
    zoomable(chart, canvas, out);
    function read() {
      function v(k) { var s = inputs[k].value.trim(); return s === '' ? NaN : Number(s); }
      var inp = {ld: [], st: [], threads: v('threads'), regs: v('regs'), smem: v('smem'), grid: v('grid'),
        warps: v('warps'), time_ns: v('time_ns'), at_warps: v('at_warps')};
      GbCamp.WIDTHS.forEach(function (w) { var a = v('ld' + w), b = v('st' + w); inp.ld.push(isNaN(a) ? 0 : a); inp.st.push(isNaN(b) ? 0 : b); });
      ['threads', 'regs', 'smem', 'grid', 'warps', 'at_warps'].forEach(function (k) { if (isNaN(inp[k])) inp[k] = -1; });
      return inp;
    }
    function redraw() {
      var res;
      try { res = GbCamp.predict(model, read()); } catch (e) {
        if (!e.gbUsage) throw e;
        err.textContent = e.message; box.result = null; return;
      }
      err.textContent = '';
      box.result = res;
      var d = res.degree;
      summary.textContent = 'configurations: ' + res.configs + ' active warps per SM' +
        (res.range ? '; range: ' + res.range : '') +
        (res.not_applied ? '. The band does not apply to the measured time at ' + res.at_warps + ' warps: ' + res.not_applied + ' (no camping degree or application line).'
         : isNaN(d) ? '. No measured time: give one for the application line and the degree.'
         : '. Camping degree ' + GbCamp.fmt(d, 3) + ' at ' + res.at_warps + ' warps (0 = best, 1 = worst)' + (d < 0 || d > 1 ? '; outside the band' : '') + '.');
      /* A time the model does not give is a gap in its line, not a point. */
      function line(label, key, colour, dash) {
        return {label: label, data: res.rows.map(function (r) { return {x: r.warps, y: isNaN(r[key]) ? null : r[key] / 1e3}; }), borderColor: colour,
          backgroundColor: colour, pointRadius: 2, borderWidth: 2, borderDash: dash || []};
      }
      function cell(v, sig) { return isNaN(v) ? '' : GbCamp.fmt(v, sig); }
      var whys = res.rows.some(function (r) { return r.why; });
      var sets = [line('best (spread)', 'best_ns', '#009E73'), line('worst (camped)', 'worst_ns', '#D55E00')];
      if (!isNaN(d)) {
        sets.push(line('application (degree ' + GbCamp.fmt(d, 3) + ')', 'app_ns', '#0072B2', [6, 3]));
        sets.push({label: 'measured (' + res.at_warps + ' warps)', data: [{x: res.at_warps, y: read().time_ns / 1e3}], type: 'scatter',
          pointStyle: 'star', pointRadius: 12, borderColor: '#000', backgroundColor: '#000', borderWidth: 2});
      }
      chart.data.datasets = sets;
      chart.update('none');
      var tj = {columns: ['active warps', 'best (µs)', 'worst (µs)', 'application (µs)', 'degree', 'measured'].concat(whys ? ['no time'] : []), rows: res.rows.map(function (r) {
        return [String(r.warps), cell(r.best_ns / 1e3, 5), cell(r.worst_ns / 1e3, 5), cell(r.app_ns / 1e3, 5),
          isNaN(r.best_ns) ? '' : cell(d, 3), res.has_time && r.warps === res.at_warps ? '*' : ''].concat(whys ? [r.why] : []);
      })};
      tbox.textContent = '';
      tbox.appendChild(table(tj, 'band'));
    }
    form.addEventListener('input', redraw);
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    redraw();
    var api = {inputs: inputs, redraw: redraw, box: box, chart: chart, table: tbox};
    calcs.push(api);
    return sec;
  }

  /* ---- test hook ---- */
  function testReport(t0) {
    var hash = location.hash || '';
    if (hash.indexOf('#test') !== 0) return;
    var m = /[#&]calc=([^&]*)/.exec(hash), calc = null;
    if (m && calcs.length) {
      var want = JSON.parse(decodeURIComponent(m[1])), c = calcs[0];
      Object.keys(c.inputs).forEach(function (k) { c.inputs[k].value = ''; });
      Object.keys(want).forEach(function (k) {
        var inp = c.inputs[k];
        if (!inp) { consoleErrors.push('test: no input ' + k); return; }
        inp.value = String(want[k]);
        inp.dispatchEvent(new Event('input', {bubbles: true}));
      });
      var rows = Array.prototype.map.call(c.table.querySelectorAll('tbody tr'), function (tr) {
        return Array.prototype.map.call(tr.cells, function (td) { return td.textContent; });
      });
      var marks = c.chart.data.datasets.reduce(function (n, ds, i) { return n + c.chart.getDatasetMeta(i).data.length; }, 0);
      var raw = c.box.result ? c.box.result.rows.map(function (r) { return [r.warps, r.best_ns / 1e3, r.worst_ns / 1e3, r.app_ns / 1e3, r.why]; }) : [];
      calc = {rows: rows, raw: raw, degree: c.box.result ? c.box.result.degree : null, summary: document.querySelector('.calc-summary').textContent, error: c.box.result ? '' : document.querySelector('.calc-error').textContent, marks: marks};
    }
    var fsec = document.getElementById('findings'), longs = [], node;
    /* Decimal numbers of 9 significant digits or more in any text the page shows: a raw double
     * where a figure was due (no interval measured here warrants 9). */
    var walk = document.createTreeWalker(app, NodeFilter.SHOW_TEXT, null);
    while ((node = walk.nextNode()))
      longs = longs.concat((node.nodeValue.match(/\d+\.\d+/g) || []).filter(function (t) {
        return t.replace('.', '').replace(/^0+/, '').length >= 9;
      }));
    var res = {errors: consoleErrors, charts: drawn, calculators: calcs.length, calc: calc,
      first_section: (app.querySelector('section') || {}).id || '',
      findings: fsec ? Array.prototype.map.call(fsec.querySelectorAll('li'), function (li) { return li.textContent; }) : [],
      long_numbers: longs.slice(0, 10),
      canvases: Array.prototype.map.call(document.querySelectorAll('canvas'), function (cv) {
        return {chart: cv.getAttribute('data-chart'), w: cv.width, h: cv.height, inked: inked(cv)};
      }), ms: Math.round(performance.now()), draw_ms: Math.round(performance.now() - t0)};
    document.body.appendChild(el('pre', {id: 'gb-test', text: JSON.stringify(res)}));
  }
  /* Whether a canvas has anything drawn on it (a pixel that is not clear). */
  function inked(cv) {
    try {
      var d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data, n = 0;
      for (var i = 3; i < d.length; i += 16) if (d[i] !== 0) n++;
      return n;
    } catch (e) { return -1; }
  }

  function main() {
    var t0 = performance.now();
    app.textContent = '';
    if (D.run !== undefined) {
      app.appendChild(el('h1', {text: 'gpubound report'}));
      app.appendChild(findings());
      app.appendChild(provenance());
    } else app.appendChild(el('h1', {text: 'CampProf calculator'}));
    var nav = el('nav');
    app.appendChild(nav);
    (D.camp_models || []).forEach(function (m, i) {
      nav.appendChild(el('a', {href: '#campprof-' + i, text: 'CampProf calculator' + (D.camp_models.length > 1 ? ' (' + m.file + ')' : '')}));
      calculator(m, D.camp_inputs, i, app);
    });
    (D.suites || []).forEach(function (s) {
      nav.appendChild(el('a', {href: '#suite-' + s.name, text: s.name}));
      suiteSection(s, app);
    });
    if (D.roofline) {
      nav.appendChild(el('a', {href: '#roofline', text: 'roofline'}));
      rooflineSection(D.roofline, app);
    }
    app.appendChild(el('footer', {text: D.tool + ' \u2014 charts drawn by Chart.js ' + (Chart.version || '') + ', embedded in this file; nothing is fetched.'}));
    testReport(t0);
    /* "#show=NAME": that chart alone (for a screenshot of one chart). */
    var show = /[#&]show=([^&]*)/.exec(location.hash || ''), box = show && document.getElementById('chart-' + decodeURIComponent(show[1]));
    if (box) {
      Array.prototype.forEach.call(app.children, function (c) { c.style.display = 'none'; });
      app.insertBefore(box, app.firstChild);
    }
  }
  main();
})();
