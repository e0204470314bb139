// SPDX-License-Identifier: Apache-2.0
// Finds the TeX formulas of a lesson Markdown file, approximating md4c's rules
// (MD_FLAG_LATEXMATHSPANS): $...$ inline, $$...$$ display, \$ is not math,
// code spans and fenced code are not scanned, except the `run` and `exercise`
// fences whose lines (caption, question, hint, solution) are inline Markdown.
// Over-approximating is harmless (an unused pre-rendered formula); missing one
// only means the JS engine renders it at run time.
'use strict';

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;

// Paragraph-like chunks of inline Markdown: {text, line} (line is 1-based).
function chunks(source) {
  const lines = source.split(/\r?\n/);
  const out = [];
  let cur = null, fence = null, fenceScan = false;
  const flush = () => { if (cur) out.push(cur); cur = null; };
  lines.forEach((l, i) => {
    if (fence) {
      const m = l.match(FENCE);
      if (m && m[1][0] === fence[0] && m[1].length >= fence.length && l.trim() === m[1]) { fence = null; return; }
      if (fenceScan && l.trim()) out.push({text: l, line: i + 1});
      return;
    }
    const m = l.match(FENCE);
    if (m) { flush(); fence = m[1]; fenceScan = /^(run|exercise)$/.test(m[2]); return; }
    if (!l.trim()) { flush(); return; }
    if (/^ {0,3}#{1,6}(\s|$)/.test(l)) { flush(); out.push({text: l, line: i + 1}); return; }  // headings are one line
    if (cur) cur.text += '\n' + l; else cur = {text: l, line: i + 1};
  });
  flush();
  return out;
}

// Math spans of one chunk of inline Markdown: {tex, display, offset}.
function spans(text) {
  const out = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '\\') { i += 2; continue; }              // escapes: \$ \` are literal
    if (c === '`') {                                   // code span: skip to a closing run of equal length
      let j = i; while (j < n && text[j] === '`') j++;
      const run = text.slice(i, j);
      const close = text.indexOf(run, j);
      let k = close;
      while (k !== -1 && text[k + run.length] === '`') k = text.indexOf(run, k + run.length + 1);
      i = k === -1 ? j : k + run.length;
      continue;
    }
    if (c === '$') {
      const display = text[i + 1] === '$';
      const open = display ? 2 : 1;
      const start = i + open;
      let j = start, found = -1;
      while (j < n) {
        if (text[j] === '\\') { j += 2; continue; }
        if (text[j] === '$') {
          if (display ? text[j + 1] === '$' : text[j + 1] !== '$') { found = j; break; }
          if (!display) break;                         // "$a$$": not a closer of a one-$ span
        }
        j++;
      }
      if (found > start) {
        const tex = text.slice(start, found);
        // md4c: an inline span may not start or end with whitespace
        if (display || (!/^\s/.test(tex) && !/\s$/.test(tex))) {
          out.push({tex, display, offset: i});
          i = found + open;
          continue;
        }
      }
      i += open;
      continue;
    }
    i++;
  }
  return out;
}

// Same normalisation as FormulaRenderer::normalizeTex (whitespace runs -> one space, trimmed).
function normalizeTex(tex) { return String(tex).replace(/\s+/g, ' ').trim(); }

function scanMarkdown(source) {
  const out = [];
  for (const c of chunks(source)) {
    for (const s of spans(c.text)) {
      const line = c.line + (c.text.slice(0, s.offset).match(/\n/g) || []).length;
      const tex = normalizeTex(s.tex);
      if (tex) out.push({tex, display: s.display, line});
    }
  }
  return out;
}

module.exports = {scanMarkdown, normalizeTex};
