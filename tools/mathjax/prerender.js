// SPDX-License-Identifier: Apache-2.0
// node prerender.js BUNDLE LESSONS_DIR OUT_JSON [MARKDOWN_FILE ...]
// Renders every formula of the shipped course (lessons/**/*.md, and the
// Markdown files after OUT_JSON: tools/course_formulas' list) with the very
// bundle QJSEngine would load (run in a Node vm, so the output is identical)
// and writes {"version", "formulas": {key: svg}} for the poslab_ui resources.
// key = hex sha1 of "d:" or "i:" + normalised TeX (FormulaRenderer::prerenderKey).
// TeX errors are reported as file:line warnings; they do not fail the build.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const crypto = require('crypto');
const {scanMarkdown} = require('./src/scan-math.js');

const [bundle, lessonsDir, outJson, ...extraFiles] = process.argv.slice(2);
if (!bundle || !lessonsDir || !outJson) { console.error('usage: node prerender.js BUNDLE LESSONS_DIR OUT_JSON'); process.exit(2); }

function markdownFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const e of fs.readdirSync(dir, {withFileTypes: true}).sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...markdownFiles(p));
    else if (e.isFile() && e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

const t0 = process.hrtime.bigint();
const ms = (a, b) => Number(b - a) / 1e6;
vm.runInThisContext(fs.readFileSync(bundle, 'utf8'), {filename: bundle});
const t1 = process.hrtime.bigint();
const version = fs.readFileSync(path.join(path.dirname(bundle), 'version.txt'), 'utf8').trim();

const formulas = {};
let count = 0, errors = 0;
for (const file of [...markdownFiles(lessonsDir), ...extraFiles]) {
  for (const f of scanMarkdown(fs.readFileSync(file, 'utf8'))) {
    const key = crypto.createHash('sha1').update((f.display ? 'd:' : 'i:') + f.tex, 'utf8').digest('hex');
    if (formulas[key]) continue;
    let svg;
    try {
      svg = globalThis.poslabTex2svg(f.tex, f.display);
    } catch (e) {
      console.warn(`${file}:${f.line}: warning: MathJax failed on ${JSON.stringify(f.tex)}: ${e && e.message}`);
      errors++;
      continue;
    }
    const m = svg.match(/data-error="([^"]*)"/);
    if (m) { console.warn(`${file}:${f.line}: warning: TeX error in ${JSON.stringify(f.tex)}: ${m[1]}`); errors++; }
    formulas[key] = svg;
    count++;
  }
}
const t2 = process.hrtime.bigint();
const tmp = outJson + '.tmp';
fs.writeFileSync(tmp, JSON.stringify({version, formulas}));
fs.renameSync(tmp, outJson);
console.log(`mathjax: pre-rendered ${count} formulas (${errors} with errors) in ${ms(t1, t2).toFixed(0)} ms` +
            ` (bundle load ${ms(t0, t1).toFixed(0)} ms)`);
