// SPDX-License-Identifier: Apache-2.0
// node build.js MODULES_DIR OUT_DIR
// Bundles src/qjs-entry.js with esbuild into OUT_DIR/mathjax-qjs.js (one
// self-contained script for QJSEngine) and writes OUT_DIR/version.txt (a hash
// of the bundle, part of the run-time disk-cache key).
'use strict';
const path = require('path');
const fs = require('fs');
const crypto = require('crypto');
const {createRequire} = require('module');

const [modulesDir, outDir] = process.argv.slice(2);
if (!modulesDir || !outDir) { console.error('usage: node build.js MODULES_DIR OUT_DIR'); process.exit(2); }
const esbuild = createRequire(path.join(path.resolve(modulesDir), 'x.js'))('esbuild');
const t0 = Date.now();
const out = path.join(outDir, 'mathjax-qjs.js');
const tmp = out + '.tmp';
esbuild.buildSync({
  entryPoints: [path.join(__dirname, 'src', 'qjs-entry.js')],
  nodePaths: [path.resolve(modulesDir)],
  bundle: true, minify: true, format: 'iife', platform: 'neutral', mainFields: ['main'],
  external: ['fs', 'path'], legalComments: 'none', target: 'es2016',
  // Qt 6.4's JS engine has no globalThis; the var is hoisted, so this is a no-op where it exists.
  banner: {js: 'if (typeof globalThis === "undefined") { var globalThis = this; }'},
  outfile: tmp, logLevel: 'warning'
});
const bytes = fs.readFileSync(tmp);
fs.renameSync(tmp, out);
const version = crypto.createHash('sha1').update(bytes).digest('hex').slice(0, 16);
fs.writeFileSync(path.join(outDir, 'version.txt'), version);
console.log(`mathjax: bundle ${(bytes.length / 1024).toFixed(0)} KiB, version ${version}, ${Date.now() - t0} ms`);
