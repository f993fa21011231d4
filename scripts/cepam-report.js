#!/usr/bin/env node
// Seed 002 results (docs/results-cepam.md) from a tree written by scripts/cepam-experiments.sh:
// DIR/GRID/DATASET/MODEL/METHOD/seedS/{metrics.csv,certificate.json}. Prints markdown tables in the
// shape of the paper's Tables I–II (final test accuracy, mean ± 95 % CI over the seeds with
// Student's t, and the measured bits per parameter) and the accuracy-vs-epsilon table of the eps
// grid (sigma calibrated by the corrected Theorem 12 row; every guarantee read from the
// certificates, which `dpfl verify-certificate` recomputes). Writes the mean test-accuracy curves
// per (grid, dataset, model) as CSV into OUT_DIR.
//
//   node scripts/cepam-report.js RESULTS_DIR OUT_DIR [CERTIFICATE.json …]
'use strict';
const fs = require('fs');
const path = require('path');

const [dir, out] = process.argv.slice(2);
if (!dir || !out) {
  console.error('usage: node scripts/cepam-report.js RESULTS_DIR OUT_DIR [CERTIFICATE.json ...]');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const T975 = [NaN, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262];  // t_{0.975, n-1}
const ls = (p) => (fs.existsSync(p) ? fs.readdirSync(p).sort() : []);

function readMetrics(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], Number(v)])));
}

// Every finished run of a (grid, dataset, model, method): final accuracy, bits, certificate.
function runs(grid, dataset, model, method) {
  const base = path.join(dir, grid, dataset, model, method);
  return ls(base)
    .filter((s) => fs.existsSync(path.join(base, s, 'certificate.json')))
    .map((s) => {
      const metrics = readMetrics(path.join(base, s, 'metrics.csv'));
      const cert = JSON.parse(fs.readFileSync(path.join(base, s, 'certificate.json'), 'utf8'));
      return { seed: s, metrics, cert, acc: metrics[metrics.length - 1].test_accuracy,
               bpp: cert.communication.bits_per_parameter, rounds: metrics.length };
    });
}

function summary(rs) {
  if (rs.length === 0) return null;
  const acc = rs.map((r) => 100 * r.acc);
  const m = acc.reduce((a, b) => a + b, 0) / acc.length;
  const sd = acc.length > 1 ? Math.sqrt(acc.reduce((a, b) => a + (b - m) ** 2, 0) / (acc.length - 1)) : NaN;
  const ci = acc.length > 1 ? T975[Math.min(acc.length - 1, T975.length - 1)] * sd / Math.sqrt(acc.length) : NaN;
  const bpp = rs.reduce((a, r) => a + r.bpp, 0) / rs.length;
  return { m, ci, n: rs.length, bpp, rounds: rs[0].rounds };
}
const cell = (s) => (s ? `${s.m.toFixed(2)} ± ${Number.isNaN(s.ci) ? '–' : s.ci.toFixed(2)} (${s.n})` : 'not run');
const bits = (s) => (s ? s.bpp.toFixed(3) : '–');

function curves(grid, dataset, model, methods) {
  const cols = [];
  for (const method of methods) {
    const rs = runs(grid, dataset, model, method);
    if (rs.length === 0) continue;
    const rounds = Math.min(...rs.map((r) => r.rounds));
    const mean = [];
    for (let t = 0; t < rounds; ++t) mean.push(rs.reduce((a, r) => a + r.metrics[t].test_accuracy, 0) / rs.length);
    cols.push({ method, mean });
  }
  if (cols.length === 0) return;
  const width = Math.max(...cols.map((c) => c.mean.length));
  const rows = ['round,' + cols.map((c) => c.method).join(',')];
  for (let t = 0; t < width; ++t) rows.push([t + 1, ...cols.map((c) => (t < c.mean.length ? c.mean[t].toFixed(5) : ''))].join(','));
  fs.writeFileSync(path.join(out, `accuracy-${grid}-${dataset}-${model}.csv`), rows.join('\n') + '\n');
}

const names = {
  fl: 'FL', 'fl-sdq': 'FL+SDQ', 'fl-gaussian': 'FL+Gaussian', 'fl-gaussian-sdq': 'FL+Gaussian+SDQ',
  'cepam-gaussian-n1': 'CEPAM-Gaussian (n=1)', 'cepam-gaussian-n2': 'CEPAM-Gaussian (n=2)',
  'cepam-gaussian-n3': 'CEPAM-Gaussian (n=3)', 'fl-laplace': 'FL+Laplace', 'fl-laplace-sdq': 'FL+Laplace+SDQ',
  'cepam-laplace': 'CEPAM-Laplace',
};
const table1 = ['fl', 'fl-sdq', 'fl-gaussian', 'fl-gaussian-sdq', 'cepam-gaussian-n1', 'cepam-gaussian-n2', 'cepam-gaussian-n3'];
const table2 = ['fl', 'fl-sdq', 'fl-laplace', 'fl-laplace-sdq', 'cepam-laplace'];

for (const dataset of ls(path.join(dir, 'table1'))) {
  const mlp = (m) => summary(runs('table1', dataset, 'cepam-mlp', m));
  const cnn = (m) => summary(runs('table1', dataset, 'cepam-cnn', m));
  const any = table1.map(mlp).find((s) => s) || table1.map(cnn).find((s) => s);
  console.log(`\n### Table I shape: ${dataset}, Gaussian family (sigma = 0.001, gamma = 1; ${any ? any.rounds : '?'} rounds; ` +
              'test accuracy %, mean ± 95 % CI (seeds); bits per parameter measured)\n');
  console.log('| method | MLP (%) | MLP bits/param | CNN (%) | CNN bits/param |');
  console.log('|---|---|---|---|---|');
  for (const m of table1) console.log(`| ${names[m]} | ${cell(mlp(m))} | ${bits(mlp(m))} | ${cell(cnn(m))} | ${bits(cnn(m))} |`);
  curves('table1', dataset, 'cepam-mlp', table1);
  curves('table1', dataset, 'cepam-cnn', table1);
}
for (const dataset of ls(path.join(dir, 'table2'))) {
  const cnn = (m) => summary(runs('table2', dataset, 'cepam-cnn', m));
  const any = table2.map(cnn).find((s) => s);
  console.log(`\n### Table II shape: ${dataset}, CNN, Laplace family (b = 0.001, gamma = 1; ${any ? any.rounds : '?'} rounds)\n`);
  console.log('| method | CNN (%) | bits/param |');
  console.log('|---|---|---|');
  for (const m of table2) console.log(`| ${names[m]} | ${cell(cnn(m))} | ${bits(cnn(m))} |`);
  curves('table2', dataset, 'cepam-cnn', table2);
}
for (const dataset of ls(path.join(dir, 'eps'))) {
  const model = 'cepam-mlp';
  const methods = ls(path.join(dir, 'eps', dataset, model));
  const epsilons = [...new Set(methods.map((m) => Number(m.replace(/.*-eps/, ''))))].sort((a, b) => a - b);
  console.log(`\n### Accuracy vs epsilon: ${dataset}, MLP, gamma = 0.1, delta = 1e-5 per round, sigma calibrated by the ` +
              'corrected Theorem 12 row (the same sigma for every method)\n');
  console.log('| eps (per round) | sigma | CEPAM-Gaussian (n=1) (%) | bits/param | FL+Gaussian (%) | FL+Gaussian+SDQ (%) | ' +
              'bits/param | delta, one decoded update (eps per round) | delta, CEPAM vs the server (shared randomness) |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const eps of epsilons) {
    const ce = runs('eps', dataset, model, `cepam-gaussian-eps${eps}`);
    const fg = runs('eps', dataset, model, `fl-gaussian-eps${eps}`);
    const fs_ = runs('eps', dataset, model, `fl-gaussian-sdq-eps${eps}`);
    const c = summary(ce), g_ = summary(fg), f = summary(fs_);
    const cert = (ce[0] || fg[0] || fs_[0] || {}).cert;
    const rows = cert ? cert.privacy.guarantees : [];
    const update = rows.find((r) => r.notion.startsWith('(epsilon, delta)-DP per client, one decoded update ('));
    const cepamRows = ce[0] ? ce[0].cert.privacy.guarantees : [];
    const server = cepamRows.find((r) => r.notion.includes('holds the shared randomness'));
    const sigma = cert ? cert.configuration.sigma.toPrecision(4) : '–';
    const num = (r) => (r && r.delta !== null ? Number(r.delta).toPrecision(3) : '–');
    console.log(`| ${eps} | ${sigma} | ${cell(c)} | ${bits(c)} | ${cell(g_)} | ${cell(f)} | ${bits(f)} | ${num(update)} | ${num(server)} |`);
  }
  curves('eps', dataset, model, methods);
}
// The guarantee rows of the certificates named after OUT_DIR (e.g. runs of the paper's setting).
for (const file of process.argv.slice(4)) {
  const cert = JSON.parse(fs.readFileSync(file, 'utf8'));
  const p = cert.privacy;
  const c = cert.configuration;
  console.log(`\n### Guarantees: ${c.mechanism}, ${c.model}, ${c.sigma !== null ? `sigma = ${c.sigma}` : `b = ${c.b}`}, ` +
              `gamma = ${c.clip} (${c.dataset}, n_k = ${p.n_k}, p_s = ${Number(p.p_s).toPrecision(6)}, m = ${p.parameters}` +
              `${c.eps !== null ? `, eps = ${c.eps} per round` : ''})\n`);
  console.log('| row | applies | epsilon | delta | observer |');
  console.log('|---|---|---|---|---|');
  for (const g of p.guarantees) {
    const eps = g.epsilon_hi !== null ? Number(g.epsilon_hi).toPrecision(6)
                                      : (g.epsilon_as_printed ? `(as printed: ${Number(g.epsilon_as_printed.hi).toPrecision(6)})` : '–');
    console.log(`| ${g.notion} | ${g.applies ? 'yes' : 'no'} | ${eps} | ${g.delta === null ? '–' : Number(g.delta).toPrecision(4)} | ${g.observer} |`);
  }
}
