#!/usr/bin/env node
// Issue 18 results (docs/results-qgauss.md) from a tree written by scripts/lira-experiments.sh:
// DIR/NAME/{audit.json,roc.dat}. Prints a markdown table (one row per audit: accuracy, AUC with
// its bootstrap interval, TPR at 0.1 % and 1 % FPR, the empirical epsilon lower bound and the
// certified client-level epsilon of the same run), and writes to OUT_DIR:
//  * audit-NAME.json — each audit.json with the run directories rewritten relative to the
//    repository (PREFIX/NAME/…, PREFIX = results/lira/DATASET by default), so no machine path is kept;
//  * roc-NAME.dat — the offline and online ROC curves thinned to at most ~400 points each (the
//    largest TPR at log-spaced FPRs; the full curves are in the audit directories' roc.csv);
//  * roc-GROUP.png — the offline ROC curves of each group of rows on log-log axes (gnuplot).
//
//   node scripts/lira-report.js RESULTS_DIR/DATASET OUT_DIR [PREFIX]
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const [dir, out, prefixArg] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: node scripts/lira-report.js RESULTS_DIR/DATASET OUT_DIR [PREFIX]');
  process.exit(2);
}
const prefix = prefixArg || `results/lira/${path.basename(path.resolve(dir))}`;
fs.mkdirSync(out, { recursive: true });

// Rows in the order of the experiment script's grids; names not listed come last, sorted.
const order = ['vanilla', 'gaussian-s1e-06', 'gaussian-s0.03', 'qgauss-k16-s0.03', 'qgauss-k8-s0.03', 'qgauss-k4-s0.03', 'qgauss-k2-s0.03',
  'gaussian-s0.001', 'qgauss-k256-s0.001', 'qgauss-k16-s0.001', 'qgauss-k2-s0.001',
  'ldp-fl-e1', 'ldp-fl-e5', 'corbin-fl-e1', 'corbin-fl-e5'];
const rank = (n) => (order.includes(n) ? order.indexOf(n) : order.length);
const names = fs.readdirSync(dir).filter((n) => fs.existsSync(path.join(dir, n, 'audit.json')))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));

function label(a) {
  const c = a.target.configuration;
  switch (a.mechanism) {
    case 'qgauss-vanilla': return 'vanilla FedAvg';
    case 'qgauss-gaussian': return `Gaussian, σ = ${c.sigma}`;
    case 'qgauss': return `quantized Gaussian k = ${c.levels}, σ = ${c.sigma}`;
    default: return `${a.mechanism}, ε_p = ${c.eps_p}`;
  }
}
const f3 = (x) => x.toFixed(3);
const f4 = (x) => x.toFixed(4);
function certified(c) {
  if (c.epsilon_hi === undefined) return 'none';
  if (c.epsilon_hi === 'inf') return '∞';
  const e = Number(c.epsilon_hi);
  return e >= 1000 ? e.toExponential(2).replace('e+', '·10^') : e.toPrecision(4);
}
function rowNotion(c) {
  if (c.epsilon_hi === undefined) return '-';
  const r = String(c.row);
  if (r.startsWith('tight central')) return 'tight central (PLD)';
  if (r.startsWith('epsilon-LDP')) return 'local, m·T·ε_p';
  return 'client-level RDP→(ε, δ)';
}

// Thins an ROC curve (sorted by fpr) to the largest tpr at log-spaced fpr values.
function thin(points) {
  const kept = [];
  let next = 0;
  for (let i = 0; i < points.length; ++i) {
    const [fpr, tpr] = points[i];
    const last = i + 1 === points.length || points[i + 1][0] !== fpr;
    if (!last) continue;  // the largest tpr at this fpr is the last point with it
    if (fpr >= next || i + 1 === points.length) {
      kept.push([fpr, tpr]);
      next = fpr <= 0 ? 1e-4 : fpr * 1.02;
    }
  }
  return kept;
}
function readRocDat(file) {
  const blocks = fs.readFileSync(file, 'utf8').split(/\n\s*\n\s*\n/);
  return blocks.map((b) => b.split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.trim().split(/\s+/).map(Number)));
}

const lines = [
  '| audit | target test acc. | AUC offline [95 % CI] | AUC online | TPR @ 0.1 % FPR [95 % CI] | TPR @ 1 % FPR | empirical ε ≥ | certified ε | certified by |',
  '|---|---|---|---|---|---|---|---|---|',
];
const groups = new Map();
for (const name of names) {
  const src = path.join(dir, name);
  const a = JSON.parse(fs.readFileSync(path.join(src, 'audit.json'), 'utf8'));
  const off = a.offline, on = a.online;
  lines.push(`| ${label(a)} | ${f3(a.target.test_accuracy)} | ${f3(off.auc)} [${f3(off.auc_ci95[0])}, ${f3(off.auc_ci95[1])}] | ` +
    `${f3(on.auc)} | ${f4(off['tpr_at_fpr_0.001'])} [${f4(off['tpr_at_fpr_0.001_ci95'][0])}, ${f4(off['tpr_at_fpr_0.001_ci95'][1])}] | ` +
    `${f4(off['tpr_at_fpr_0.01'])} | ${f3(a.empirical_epsilon_lower_bound)} | ${certified(a.certified)} | ${rowNotion(a.certified)} |`);
  // Machine paths out: every string that starts with the audit directory becomes PREFIX/NAME/….
  const text = JSON.stringify(a, null, 2).split(JSON.stringify(src).slice(1, -1)).join(`${prefix}/${name}`);
  fs.writeFileSync(path.join(out, `audit-${name}.json`), text + '\n');
  const [offline, online] = readRocDat(path.join(src, 'roc.dat'));
  const dat = `# ${name}: offline fpr tpr (thinned)\n${thin(offline).map((p) => p.join(' ')).join('\n')}\n\n\n` +
    `# ${name}: online fpr tpr (thinned)\n${thin(online).map((p) => p.join(' ')).join('\n')}\n`;
  fs.writeFileSync(path.join(out, `roc-${name}.dat`), dat);
  const group = name.startsWith('ldp') || name.startsWith('corbin') ? 'seed000'
    : name.endsWith('s0.001') || name.endsWith('s1e-06') ? 'sigma-0.001' : 'sigma-0.03';
  if (!groups.has(group)) groups.set(group, []);
  groups.get(group).push({ name, title: label(a) });
}
for (const [group, rows] of groups) {
  const all = group === 'seed000' ? [{ name: 'vanilla', title: 'vanilla FedAvg' }, ...rows]
    : group === 'sigma-0.03' ? rows : [{ name: 'vanilla', title: 'vanilla FedAvg' }, ...rows];
  const present = all.filter((r) => fs.existsSync(path.join(out, `roc-${r.name}.dat`)));
  const png = path.join(out, `roc-${group}.png`);
  const plots = present.map((r) => `'${path.join(out, `roc-${r.name}.dat`)}' index 0 using 1:2 with lines lw 2 title '${r.title.replace(/'/g, '')}'`);
  const script = `set terminal pngcairo size 760,620\nset output '${png}'\nset logscale xy\nset xrange [1e-3:1]\n` +
    `set yrange [1e-3:1]\nset grid\nset key bottom right\nset xlabel 'false positive rate'\nset ylabel 'true positive rate'\n` +
    `set title 'LiRA (offline) ROC, ${group}'\nplot ${plots.join(', ')}, x with lines dashtype 2 title 'chance'\n`;
  try {
    execFileSync('gnuplot', [], { input: script });
  } catch (e) {
    console.error(`lira-report: gnuplot failed for ${png}: ${e.message}`);
  }
}
console.log(lines.join('\n'));
