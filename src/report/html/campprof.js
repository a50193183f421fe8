/* campprof.js - CampProf's prediction in the browser: a line-by-line port of
 * src/models/campprof/campprof_predict.c (the band, degree, application line and the
 * configurations) and of src/models/occupancy/occupancy.c (the occupancy calculator
 * it uses), over a model file (campprof-model.json) as written by
 * `gpubound camp fit`. The arithmetic is done in the same order as the C
 * code, so that the numbers are the same doubles. Loaded before page.js. */
var GbCamp = (function () {
  'use strict';
  var WIDTHS = [1, 2, 4, 8, 16];
  var READ = 0, WRITE = 1, SPREAD = 0, CAMPED = 1;

  function fail(msg) { var e = new Error(msg); e.gbUsage = true; throw e; }

  /* The model's form, as gb_camp_form_name names it. */
  function formName(model) { return model.form || (model.interactions ? 'interactions' : 'paper'); }

  /* The model file's equations as [op][pattern]. */
  function equations(model) {
    var eq = [[null, null], [null, null]];
    var form = formName(model);
    (model.equations || []).forEach(function (e) {
      e.form = form;
      var op = e.op === 'read' ? READ : e.op === 'write' ? WRITE : -1;
      var pat = e.pattern === 'spread' ? SPREAD : e.pattern === 'camped' ? CAMPED : -1;
      if (op >= 0 && pat >= 0) eq[op][pat] = e;
    });
    for (var o = 0; o < 2; o++)
      for (var p = 0; p < 2; p++)
        if (!eq[o][p]) fail('the model lacks an equation');
    return eq;
  }

  function measured(eq, c) { return eq.widths.indexOf(WIDTHS[c]) >= 0; }

  function classFor(eq, c) {
    for (var k = c < 0 ? 0 : c; k < WIDTHS.length; k++)
      if (measured(eq, k)) return k;
    return -1;
  }

  /* The smooth maximum of a latency-throughput form (gb_camp_form_h). */
  function formH(form, x) {
    if (form === 'sum') return 1 + x;
    if (form === 'smax2') return Math.sqrt(1 + x * x);
    if (form === 'smax4') return Math.pow(1 + x * x * x * x, 0.25);
    if (form === 'max') return x > 1 ? x : 1;
    return NaN;
  }

  /* gb_camp_eq_time_ns */
  function eqTime(eq, warps, c) {
    if (c < 0 || c >= WIDTHS.length || !measured(eq, c)) return NaN;
    if (eq.form === 'sum' || eq.form === 'smax2' || eq.form === 'smax4' || eq.form === 'max') {
      var L = NaN, knee = NaN;
      eq.terms.forEach(function (term) {
        if (term.term === 'L:b' + WIDTHS[c]) L = term.estimate;
        else if (term.term === 'knee:b' + WIDTHS[c]) knee = term.estimate;
      });
      return L * formH(eq.form, warps / knee);
    }
    var dummy = 'b' + WIDTHS[c], slope = 'w:b' + WIDTHS[c], t = 0;
    eq.terms.forEach(function (term) {
      var name = term.term;
      if (name === 'w') t += term.estimate * warps;
      else if (name[0] === 'b') t += name === dummy ? term.estimate : 0;
      else if (name.slice(0, 2) === 'w:') t += name === slope ? term.estimate * warps : 0;
      else t += term.estimate;
    });
    return t;
  }

  function instrTime(eq, c, count, warps) {
    var k = classFor(eq, c);
    if (k < 0)
      fail('the model cannot time ' + WIDTHS[c] + '-byte ' + (eq.op === 'read' ? 'load' : 'store') +
           's: its ' + eq.op + ' benchmarks measured widths ' + eq.widths.join(', ') + ' bytes');
    var perWarp = eq.instructions_per_warp[String(WIDTHS[k])];
    return count * eqTime(eq, warps, k) / (perWarp * warps);
  }

  /* gb_camp_in_range: whether every equation that times a non-zero count
   * (spread and camped) predicts a benchmark time > 0 at `warps`; a linear
   * form extrapolated to fewer warps than it can describe has no time. */
  function inRange(eqs, counts, warps) {
    for (var op = 0; op < 2; op++)
      for (var k = 0; k < WIDTHS.length; k++) {
        var n = op === READ ? counts.ld[k] : counts.st[k];
        for (var p = 0; n > 0 && p < 2; p++) {
          var eq = eqs[op][p], cls = classFor(eq, k);
          if (cls >= 0 && !(eqTime(eq, warps, cls) > 0)) return false;
        }
      }
    return true;
  }

  /* gb_camp_bounds: counts = {ld: [5], st: [5]}; both NaN outside the
   * model's range (inRange false): a time <= 0 is no time. */
  function bounds(eqs, counts, warps) {
    var best = 0, worst = 0, any = false;
    if (!(warps > 0) || !isFinite(warps)) fail('active warps per SM must be > 0');
    for (var op = 0; op < 2; op++)
      for (var k = 0; k < WIDTHS.length; k++) {
        var n = op === READ ? counts.ld[k] : counts.st[k];
        if (!(n >= 0) || !isFinite(n)) fail('the ' + WIDTHS[k] + '-byte count must be a number >= 0');
        if (n === 0) continue;
        any = true;
        var b = instrTime(eqs[op][SPREAD], k, n, warps);
        var w = instrTime(eqs[op][CAMPED], k, n, warps);
        best += b;
        worst += w > b ? w : b;   /* camping never speeds an access up */
      }
    if (!any) fail('every load and store count is zero: the band of a kernel without global memory instructions is empty');
    if (!inRange(eqs, counts, warps)) return [NaN, NaN];
    return [best, worst];
  }

  function degree(best, worst, t) {
    var width = worst - best;
    if (!isFinite(width) || Math.abs(width) <= 1e-12 * Math.abs(best) || width === 0) return NaN;
    return (t - best) / width;
  }

  /* ---- the occupancy calculator (occupancy.c) ---- */
  function smemConfigs(major, minor) {
    var turing = [32, 64], volta = [0, 8, 16, 32, 64, 96], ga100 = [0, 8, 16, 32, 64, 100, 132, 164];
    var ga10x = [0, 8, 16, 32, 64, 100], hopper = [0, 8, 16, 32, 64, 100, 132, 164, 196, 228];
    switch (major) {
    case 7: return minor === 5 ? turing : volta;
    case 8: return minor === 0 || minor === 7 ? ga100 : ga10x;
    case 9: return hopper;
    case 10: case 11: return minor === 0 || minor === 1 || minor === 3 ? hopper : null;
    case 12: return minor === 0 || minor === 1 ? ga10x : null;
    default: return null;
    }
  }
  function alignUpSmem(configs, bytes) {
    for (var i = 0; i < configs.length; i++)
      if (bytes <= configs[i] * 1024) return configs[i] * 1024;
    return -1;
  }
  function defaultMaxBlocks(major, minor) {
    switch (major) {
    case 7: return minor === 5 ? 16 : 32;
    case 8: return minor === 0 ? 32 : minor === 9 ? 24 : 16;
    case 10: return minor === 1 ? 24 : 32;
    case 11: return minor === 0 ? 24 : 32;
    case 12: return 24;
    default: return 32;
    }
  }
  function barrierLimit(major, minor, lim) {
    switch (major) {
    case 8: return minor === 0 ? 2 * lim : lim;
    case 10: return minor === 1 ? lim : 2 * lim;
    case 11: return minor === 0 ? lim : 2 * lim;
    case 12: return lim;
    default: return 2 * lim;
    }
  }
  var INT_MAX = 2147483647;
  function roundUp(x, u) { return Math.floor((x + u - 1) / u) * u; }
  function idiv(a, b) { return Math.trunc(a / b); }

  /* gb_occupancy_compute, the resident blocks per SM only. */
  function activeBlocks(dev, threads, regs, smem) {
    var configs = smemConfigs(dev.cc_major, dev.cc_minor);
    if (dev.cc_major < 7 || !configs) fail('compute capability ' + dev.cc_major + '.' + dev.cc_minor + ' is unknown to the calculator');
    var warp = dev.warp_size, wpb = idiv(threads + warp - 1, warp);
    /* registers */
    var unit = dev.reg_alloc_unit > 0 ? dev.reg_alloc_unit : 256;
    var rpw = roundUp(regs * warp, unit), rpb = rpw * wpb, assumed = rpw * roundUp(wpb, 4), limRegs;
    if (dev.regs_per_block < assumed || dev.regs_per_block < rpb || regs > 256) limRegs = 0;
    else if (rpw > 0) limRegs = idiv(idiv(idiv(dev.regs_per_sm, 4), rpw) * 4, wpb);
    else limRegs = INT_MAX;
    var limWarps = threads > dev.max_threads_per_block ? 0 : idiv(idiv(dev.max_threads_per_sm, warp), wpb);
    var limBlocks = dev.max_blocks_per_sm > 0 ? dev.max_blocks_per_sm : defaultMaxBlocks(dev.cc_major, dev.cc_minor);
    /* shared memory: static 0, dynamic smem, max dynamic = dynamic, carveout default */
    var sunit = dev.smem_alloc_unit > 0 ? dev.smem_alloc_unit : (dev.cc_major <= 7 ? 256 : 128);
    var staticTotal = dev.smem_reserved_per_block, alloc = roundUp(staticTotal + smem, sunit);
    var maxUsage = staticTotal + smem;
    var limitPerBlock = maxUsage > dev.smem_per_block ? dev.smem_per_block_optin : dev.smem_per_block;
    if (dev.cc_major >= 8) limitPerBlock += dev.smem_reserved_per_block;
    var pref = alignUpSmem(configs, dev.smem_per_sm), limSmem, smemSm;
    if (pref < 0) fail(dev.smem_per_sm + ' bytes of shared memory per SM is more than the device supports');
    if (alloc > limitPerBlock) limSmem = 0;
    else {
      smemSm = pref >= alloc ? pref : alignUpSmem(configs, alloc);
      if (smemSm < 0) fail('a block\'s ' + alloc + ' bytes of shared memory exceed every split');
      limSmem = alloc > 0 ? idiv(smemSm, alloc) : INT_MAX;
    }
    var blocks = Math.min(limRegs, limSmem, limWarps, limBlocks);
    if (dev.cc_major >= 9) blocks = Math.min(blocks, barrierLimit(dev.cc_major, dev.cc_minor, limBlocks));
    return blocks;
  }

  function blocksAt(dev, cfg, threads, gridBlocks) {
    var a = activeBlocks(dev, threads, cfg.regs, cfg.smem);
    if (gridBlocks > 0 && dev.sm_count > 0) {
      var perSm = idiv(gridBlocks + dev.sm_count - 1, dev.sm_count);
      if (perSm < a) a = perSm;
    }
    return a;
  }

  /* gb_camp_allowed_warps: {warps: [...], config: n}. */
  function allowedWarps(dev, cfg) {
    var ws = dev.warp_size > 0 ? dev.warp_size : 32, maxWarps = idiv(dev.max_threads_per_sm, ws);
    if (cfg.threads < 1 || cfg.regs < 0 || cfg.smem < 0 || cfg.grid < 0)
      fail('a configuration needs threads >= 1 and registers, shared memory and grid >= 0');
    var ok = [], total = cfg.grid * cfg.threads, wpb, a, k;
    for (wpb = 1; wpb * ws <= dev.max_threads_per_block; wpb++) {
      var g = cfg.grid > 0 ? Math.ceil(total / (wpb * ws)) : 0;
      a = blocksAt(dev, cfg, wpb * ws, g);
      for (k = 1; k <= a && k * wpb <= maxWarps; k++) ok[k * wpb] = true;
    }
    wpb = idiv(cfg.threads + ws - 1, ws);
    a = blocksAt(dev, cfg, cfg.threads, cfg.grid);
    for (k = 1; k <= a && k * wpb <= maxWarps; k++) ok[k * wpb] = true;
    var out = [];
    for (var v = 1; v <= maxWarps; v++) if (ok[v]) out.push(v);
    if (!out.length) fail('no block size can run with ' + cfg.regs + ' registers per thread and ' + cfg.smem + ' bytes of shared memory per block');
    return {warps: out, config: a * wpb};
  }

  /* The model's device, as occupancy.c reads it. */
  function device(model) {
    var d = model.device || {}, cc = String(d.compute_capability || '').split('.');
    var dev = {};
    Object.keys(d).forEach(function (k) { dev[k] = d[k]; });
    dev.cc_major = parseInt(cc[0], 10);
    dev.cc_minor = parseInt(cc[1] || '0', 10);
    if (!(dev.max_threads_per_sm > 0) || !(dev.warp_size > 0)) fail('the model does not record its device\'s limits');
    return dev;
  }

  /* "1-16, 18, 20" (warps_text of cmd_camp_predict.c). */
  function warpsText(w) {
    var parts = [];
    for (var i = 0; i < w.length;) {
      var j = i;
      while (j + 1 < w.length && w[j + 1] === w[j] + 1) j++;
      if (j > i + 1) parts.push(w[i] + '-' + w[j]);
      else for (var k = i; k <= j; k++) parts.push(String(w[k]));
      i = j + 1;
    }
    return parts.join(', ');
  }

  /* gb_format_num */
  function fmt(v, sig) {
    if (isNaN(v)) return 'nan';
    if (!isFinite(v)) return v > 0 ? 'inf' : '-inf';
    if (v === 0) return '0';
    var r = parseFloat(v.toExponential(sig - 1)), e = Math.floor(Math.log10(Math.abs(r)));
    if (e < -4 || e >= 15) {
      var s = v.toExponential(sig - 1).replace(/e([+-])(\d)$/, 'e$10$2');
      return s;
    }
    return v.toFixed(Math.max(0, sig - 1 - e));
  }

  /* row_shape and row_achieved of campprof_run.c: the achieved warps per SM
   * of configuration w (gb_occupancy_achieved of its block and grid). */
  function rowAchieved(dev, inp, w) {
    var ws = dev.warp_size > 0 ? dev.warp_size : 32;
    if (inp.warps > 0 || !(inp.grid > 0) || !(inp.threads > 0) || !(dev.sm_count > 0)) return w;
    var own = idiv(inp.threads + ws - 1, ws), wpb = own, grid = inp.grid;
    if (w % own !== 0) {
      for (wpb = w; wpb > 1 && (w % wpb !== 0 || wpb * ws > dev.max_threads_per_block); wpb--);
      grid = Math.ceil(inp.grid * inp.threads / (wpb * ws));
    }
    var blocks = idiv(w, wpb), wave = blocks * dev.sm_count, limit = blocks * wpb;
    var full = Math.floor(grid / wave), tail = grid % wave;
    var tailWarps = tail * wpb / dev.sm_count, waves = full + (tail > 0 ? 1 : 0);
    return (full * limit + tailWarps) / waves;
  }

  /* %.3g of a number of warps (below 1000). */
  function g3(v) { return String(Number(v.toPrecision(3))); }

  /* range_text of cmd_camp_predict.c: where the form's bounds are > 0 and
   * which configurations lie outside its range; '' when none does. */
  function rangeText(form, rows) {
    var timed = [], untimed = [];
    rows.forEach(function (r) { (isNaN(r.best_ns) ? untimed : timed).push(r.warps); });
    if (!untimed.length) return '';
    if (!timed.length)
      return 'the ' + form + " form's bounds are <= 0 at every configuration (" + warpsText(untimed) +
             ' active warps per SM): outside its range, no time';
    return 'the ' + form + " form's bounds are > 0 at " + warpsText(timed) + ' active warps per SM only; the ' +
           untimed.length + ' configurations at ' + warpsText(untimed) + ' lie outside its range and get no time';
  }

  /* A configuration's row of gb_camp_predict_band: no bounds outside the
   * model's range, no line where it falls to <= 0, and why (row_no_time of
   * cmd_camp_predict.c). */
  function bandRow(eqs, inp, w, achieved, d) {
    var b = bounds(eqs, inp, achieved), app = NaN, why = '';
    if (isNaN(b[0])) why = 'outside the model\'s range: bounds <= 0';
    else if (!isNaN(d)) {
      app = b[0] + d * (b[1] - b[0]);
      if (!(app > 0)) { app = NaN; why = 'application line <= 0'; }
    }
    return {warps: w, achieved: achieved, best_ns: b[0], worst_ns: b[1], app_ns: app, why: why};
  }

  /* The whole prediction, as `camp predict` makes it. in: {ld, st: [5]
   * counts; threads, regs, smem, grid (or warps: W for 1..W); time_ns (NaN
   * for none); at_warps (0: the launch's)}. Outside the model's range at
   * the measured warps the band does not apply: no degree, and
   * not_applied says why. */
  function predict(model, inp) {
    var eqs = equations(model), dev = device(model), ws, cfgw;
    if (inp.warps > 0) {
      var max = idiv(dev.max_threads_per_sm, dev.warp_size > 0 ? dev.warp_size : 32);
      if (inp.warps > max) fail(inp.warps + ' active warps per SM is more than the ' + max + ' an SM holds');
      ws = [];
      for (var w = 1; w <= inp.warps; w++) ws.push(w);
      cfgw = inp.warps;
    } else {
      if (!(inp.threads >= 1) || !(inp.regs >= 0)) fail('give the launch: threads and registers');
      if (inp.threads > dev.max_threads_per_block) fail(inp.threads + ' threads is more than the ' + dev.max_threads_per_block + ' threads a block can have');
      var cw = allowedWarps(dev, {threads: inp.threads, regs: inp.regs, smem: inp.smem > 0 ? inp.smem : 0, grid: inp.grid > 0 ? inp.grid : 0});
      ws = cw.warps;
      cfgw = cw.config;
    }
    var at = inp.at_warps > 0 ? inp.at_warps : cfgw, d = NaN, hasTime = isFinite(inp.time_ns), notApplied = '';
    /* The band is evaluated at each configuration's achieved warps. */
    var ach = ws.map(function (w) { return rowAchieved(dev, inp, w); });
    if (hasTime) {
      if (!(inp.time_ns > 0)) fail('the measured time must be > 0 ns');
      if (ws.indexOf(at) < 0) fail(at + ' active warps per SM is not among the configurations the occupancy calculator allows (' + warpsText(ws) + ')');
      var atAch = ach[ws.indexOf(at)], b0 = bounds(eqs, inp, atAch);
      if (isNaN(b0[0]))   /* gb_camp_domain_judge's first rule */
        notApplied = 'outside the model\'s range: its ' + formName(model) + ' form\'s bounds are <= 0 at ' +
                     g3(atAch) + ' achieved warps per SM, fewer than its linear fit can describe';
      else {
        d = degree(b0[0], b0[1], inp.time_ns);
        if (isNaN(d)) fail('the band has no width at ' + atAch + ' warps per SM: the camping degree is undefined');
      }
    }
    var rows = ws.map(function (w, i) { return bandRow(eqs, inp, w, ach[i], d); });
    return {rows: rows, degree: d, at_warps: at, config_warps: cfgw, configs: warpsText(ws), device: dev,
            has_time: hasTime, not_applied: notApplied, range: rangeText(formName(model), rows)};
  }

  return {predict: predict, fmt: fmt, WIDTHS: WIDTHS, warpsText: warpsText};
})();
