#!/usr/bin/env node
// Seed 004 results (docs/results-bnn.md) from a tree written by scripts/bnn-experiments.sh:
// DIR/DATASET/SPLIT/gamma-G/seedS/{metrics.csv,certificate.json}. Writes, per split, the mean test
// accuracy per round over the seeds (accuracy-SPLIT.csv) and a gnuplot picture
// (accuracy-SPLIT.png), and prints markdown tables: final accuracy per (split, gamma) with the
// seeds' spread, and the certified epsilon of each guarantee row per gamma (read from the
// certificates, which `dpfl verify-certificate` recomputes), each seed's final accuracy, and the test
// of the seed's claims that gamma = 0.1 beats the no-noise baseline and gamma = 0.4: the paired
// difference per (split, seed) and a one-sided exact sign test over those pairs. With --pool, the
// same tests over the pairs of DATASET and of the other data sets named, Holm-adjusted over the two
// claims, and the range of gamma = 0.4 minus the baseline.
//
//   node scripts/bnn-report.js RESULTS_DIR DATASET OUT_DIR [--pool OTHER_DATASET...]
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');

const [dir, dataset, out, poolFlag, ...pooled] = process.argv.slice(2);
if (!dir || !dataset || !out || (poolFlag !== undefined && (poolFlag !== '--pool' || pooled.length === 0))) {
  console.error('usage: node scripts/bnn-report.js RESULTS_DIR DATASET OUT_DIR [--pool OTHER_DATASET...]');
  process.exit(2);
}
fs.mkdirSync(out, { recursive: true });
const root = path.join(dir, dataset);
const order = (g) => (g === 'none' ? -1 : Number(g));
const label = (g) => (g === 'none' ? 'BNN (no RR)' : `gamma = ${g}`);

function readMetrics(file) {
  const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
  const head = lines[0].split(',');
  return lines.slice(1).map((l) => Object.fromEntries(l.split(',').map((v, i) => [head[i], Number(v)])));
}

const splits = fs.existsSync(root) ? fs.readdirSync(root).sort() : [];
const finals = [];
const epsilons = new Map();
for (const split of splits) {
  const gammas = fs.readdirSync(path.join(root, split)).map((d) => d.replace(/^gamma-/, '')).sort((a, b) => order(a) - order(b));
  const curves = [];
  for (const g of gammas) {
    const gdir = path.join(root, split, `gamma-${g}`);
    const seeds = fs.readdirSync(gdir).filter((s) => fs.existsSync(path.join(gdir, s, 'certificate.json'))).sort();
    if (seeds.length === 0) continue;
    const runs = seeds.map((s) => readMetrics(path.join(gdir, s, 'metrics.csv')));
    const rounds = Math.min(...runs.map((r) => r.length));
    const mean = [];
    for (let t = 0; t < rounds; ++t) mean.push(runs.reduce((a, r) => a + r[t].test_accuracy, 0) / runs.length);
    curves.push({ g, mean });
    const last = runs.map((r) => r[rounds - 1]);
    const acc = last.map((r) => r.test_accuracy);
    const m = acc.reduce((a, b) => a + b, 0) / acc.length;
    const sd = acc.length > 1 ? Math.sqrt(acc.reduce((a, b) => a + (b - m) ** 2, 0) / (acc.length - 1)) : NaN;
    finals.push({ split, g, seeds: seeds.length, rounds, mean: m, sd, min: Math.min(...last.map((r) => r.accuracy_min)),
                  max: Math.max(...last.map((r) => r.accuracy_max)), server: last[0].broadcast_mean_abs });
    const cert = JSON.parse(fs.readFileSync(path.join(gdir, seeds[0], 'certificate.json'), 'utf8'));
    if (!epsilons.has(g)) epsilons.set(g, { cert, rounds: cert.configuration.rounds, d: cert.configuration.latents });
  }
  const csv = path.join(out, `accuracy-${split}.csv`);
  const width = Math.max(0, ...curves.map((c) => c.mean.length));
  const rows = ['round,' + curves.map((c) => label(c.g)).join(',')];
  for (let t = 0; t < width; ++t) rows.push([t + 1, ...curves.map((c) => (t < c.mean.length ? c.mean[t].toFixed(6) : ''))].join(','));
  fs.writeFileSync(csv, rows.join('\n') + '\n');
  const png = path.join(out, `accuracy-${split}.png`);
  const plots = curves.map((c, i) => `'${csv}' using 1:${i + 2} with linespoints title '${label(c.g)}'`).join(', ');
  const script = `set datafile separator ','\nset terminal png size 900,560\nset output '${png}'\n` +
    `set title 'DPFL-BNN on ${dataset}, ${split === 'iid' ? 'IID (Dirichlet 100)' : 'non-IID (Dirichlet 1)'}: test accuracy (mean over clients${finals.length ? ' and seeds' : ''})'\n` +
    `set xlabel 'round'\nset ylabel 'test accuracy'\nset key bottom right\nset grid\nplot ${plots}\n`;
  try {
    execFileSync('gnuplot', [], { input: script });
  } catch (e) {
    console.error(`bnn-report: gnuplot failed for ${png}: ${e.message}`);
  }
}

console.log(`| split | method | seeds | rounds | test accuracy (mean over clients; mean over seeds) | sd over seeds | worst / best client | mean abs broadcast |`);
console.log(`|---|---|---|---|---|---|---|---|`);
for (const f of finals)
  console.log(`| ${f.split} | ${label(f.g)} | ${f.seeds} | ${f.rounds} | ${f.mean.toFixed(4)} | ${Number.isNaN(f.sd) ? '-' : f.sd.toFixed(4)} | ${f.min.toFixed(4)} / ${f.max.toFixed(4)} | ${f.server.toFixed(4)} |`);
console.log('');
console.log(`| gamma | implemented gamma | Thm 1 as printed (d = 1; not a guarantee) | Thm 1 corrected (h = d) | RDP optimal order | exact profile | pure k ln(p/q) |`);
console.log(`|---|---|---|---|---|---|---|`);
const short = (x) => (x == null ? '-' : Number(x).toPrecision(7));
for (const [g, { cert }] of [...epsilons.entries()].sort((a, b) => order(a[0]) - order(b[0]))) {
  const rows = cert.privacy.guarantees;
  if (rows.length === 1) {
    console.log(`| ${label(g)} | - | - | - | - | - | - (no RR: no guarantee) |`);
    continue;
  }
  const printed = rows[0].epsilon_as_printed ? rows[0].epsilon_as_printed.hi : null;
  console.log(`| ${g} | ${cert.privacy.implemented_gamma_exact} | ${short(printed)} | ${short(rows[1].epsilon_hi)} | ${short(rows[2].epsilon_hi)} | ${short(rows[3].epsilon_hi)} | ${short(rows[4].epsilon_hi)} |`);
}

// Each finished run's last metrics row: {dataset, split, g, seed, final}.
function finalsOf(ds) {
  const top = path.join(dir, ds);
  const found = [];
  if (!fs.existsSync(top)) return found;
  for (const split of fs.readdirSync(top).sort())
    for (const gdir of fs.readdirSync(path.join(top, split)).sort())
      for (const s of fs.readdirSync(path.join(top, split, gdir)).sort()) {
        const run = path.join(top, split, gdir, s);
        if (!fs.existsSync(path.join(run, 'certificate.json'))) continue;
        const rows = readMetrics(path.join(run, 'metrics.csv'));
        found.push({ dataset: ds, split, g: gdir.replace(/^gamma-/, ''), seed: s.replace(/^seed/, ''), final: rows[rows.length - 1] });
      }
  return found;
}
const perSeed = finalsOf(dataset);

console.log('');
const seedIds = [...new Set(perSeed.map((r) => r.seed))].sort((a, b) => Number(a) - Number(b));
const gammaIds = [...new Set(perSeed.map((r) => r.g))].sort((a, b) => order(a) - order(b));
console.log(`| split | seed | ${gammaIds.map(label).join(' | ')} |`);
console.log(`|---|---|${gammaIds.map(() => '---|').join('')}`);
const at = (split, g, seed) => perSeed.find((r) => r.split === split && r.g === g && r.seed === seed);
for (const split of splits) {
  for (const seed of seedIds) {
    const cells = gammaIds.map((g) => { const r = at(split, g, seed); return r ? r.final.test_accuracy.toFixed(4) : '-'; });
    if (cells.some((c) => c !== '-')) console.log(`| ${split} | ${seed} | ${cells.join(' | ')} |`);
  }
}

// The seed's claims (spec 004 section 5.4): gamma = 0.1 beats the no-noise BNN, and lowering gamma
// from 0.4 to 0.1 improves accuracy. One pair per (data set, split, seed) with both runs; under H0
// "no systematic difference" each pair's sign is a fair coin, so the one-sided p-value for
// "gamma = 0.1 is worse" with k of m pairs worse is P[Bin(m, 1/2) >= k] (exact: m is small).
function pairsOf(runs, a, b) {
  const find = (r0, g) => runs.find((r) => r.dataset === r0.dataset && r.split === r0.split && r.seed === r0.seed && r.g === g);
  return runs.filter((r) => r.g === a && find(r, b))
    .map((r) => ({ dataset: r.dataset, split: r.split, seed: r.seed, diff: r.final.test_accuracy - find(r, b).final.test_accuracy }));
}
function signTest(pairs) {
  const m = pairs.length, k = pairs.filter((p) => p.diff < 0).length;
  let tail = 0, c = 1;  // c = C(m, j)
  for (let j = 0; j <= m; ++j) { if (j >= k) tail += c; c = (c * (m - j)) / (j + 1); }
  return { m, k, p: tail / 2 ** m, mean: pairs.reduce((acc, q) => acc + q.diff, 0) / m };
}
for (const other of ['none', '0.4']) {
  const pairs = pairsOf(perSeed, '0.1', other);
  if (pairs.length === 0) continue;
  console.log('');
  console.log(`| split | seed | gamma = 0.1 minus ${label(other)} |`);
  console.log('|---|---|---|');
  for (const q of pairs) console.log(`| ${q.split} | ${q.seed} | ${q.diff.toFixed(4)} |`);
  const t = signTest(pairs);
  console.log('');
  console.log(`gamma = 0.1 below ${label(other)} in ${t.k} of ${t.m} (split, seed) pairs; mean difference ${t.mean.toFixed(4)}; ` +
              `one-sided sign test P[Bin(${t.m}, 1/2) >= ${t.k}] = ${t.p.toPrecision(4)}`);
}

if (pooled.length > 0) {
  const runs = [dataset, ...pooled].flatMap(finalsOf);
  const tests = ['none', '0.4'].map((other) => ({ other, ...signTest(pairsOf(runs, '0.1', other)) }));
  // Holm over the two claims: the i-th smallest p times (2 - i), running maximum.
  const byP = [...tests].sort((x, y) => x.p - y.p);
  let running = 0;
  byP.forEach((t, i) => { running = Math.max(running, Math.min(1, (2 - i) * t.p)); t.holm = running; });
  console.log('');
  console.log(`Pooled over ${[dataset, ...pooled].join(', ')}:`);
  for (const t of tests)
    console.log(`gamma = 0.1 below ${label(t.other)} in ${t.k} of ${t.m} pairs; mean difference ${t.mean.toFixed(4)}; ` +
                `one-sided sign test p = ${t.p.toPrecision(4)}, Holm-adjusted over the two claims ${t.holm.toPrecision(4)}`);
  const gaps = pairsOf(runs, '0.4', 'none').map((q) => q.diff);
  console.log(`gamma = 0.4 minus ${label('none')} over ${gaps.length} pairs: from ${Math.min(...gaps).toFixed(4)} to ${Math.max(...gaps).toFixed(4)}`);
}
