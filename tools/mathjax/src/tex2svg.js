// SPDX-License-Identifier: Apache-2.0
// TeX -> SVG with MathJax 3, rewritten so that QtSvg 6.4 (SVG Tiny 1.2) draws
// it exactly: no nested <svg>, no CSS, no ex units. Used twice with the same
// code: bundled for QJSEngine (qjs-entry.js) and by prerender.js under Node.
//
// Output contract (read by poslab::ui::Formula::fromSvg):
//   <svg width="Wpx" height="Hpx" viewBox="..." data-baseline-px="B"
//        [data-error="message"]> ... fill/stroke="currentColor" ... </svg>
// sizes for a surrounding font with an em of REFERENCE_EM_PX; B is the distance
// from the top to the baseline; data-error marks a TeX error (drawn in red).
'use strict';
const {mathjax} = require('mathjax-full/js/mathjax.js');
const {TeX} = require('mathjax-full/js/input/tex.js');
const {SVG} = require('mathjax-full/js/output/svg.js');
const {liteAdaptor} = require('mathjax-full/js/adaptors/liteAdaptor.js');
const {RegisterHTMLHandler} = require('mathjax-full/js/handlers/html.js');
const {AllPackages} = require('mathjax-full/js/input/tex/AllPackages.js');

const REFERENCE_EM_PX = 16;          // Formula::kReferenceEmPx
const UNITS_PER_EM = 1000;           // MathJax's SVG user units
const X_HEIGHT = 0.442;              // MathJax TeX font: 1ex = 442 units

const adaptor = liteAdaptor();
RegisterHTMLHandler(adaptor);
// noerrors would show the source instead of the message; noundefined would
// draw an unknown macro as red text without reporting it. We want the message.
const packages = AllPackages.filter(p => p !== 'noerrors' && p !== 'noundefined');
const doc = mathjax.document('', {
  InputJax: new TeX({packages}),
  // 'local': each formula carries its own <defs> + <use>, so it stands alone.
  OutputJax: new SVG({fontCache: 'local'})
});

const num = (v) => parseFloat(v || '0') || 0;
const fmt = (v) => String(Math.round(v * 1000) / 1000);

// QtSvg cannot clip nested viewports: flatten every inner <svg> into a <g> with
// the equivalent transform. MathJax draws the extender of a stretchy delimiter
// (pmatrix brackets, \left( ... \right)) as one glyph scaled by 1.5 and clipped
// by its viewport; without clipping it would overshoot, so shrink it back to
// the viewport instead.
function flattenNested(root) {
  const nested = adaptor.tags(root, 'svg').filter(n => n !== root).reverse();  // innermost first
  for (const n of nested) {
    const vb = (adaptor.getAttribute(n, 'viewBox') || '').trim();
    const [vx, vy, vw, vh] = vb ? vb.split(/[\s,]+/).map(Number) : [0, 0, 0, 0];
    const w = num(adaptor.getAttribute(n, 'width')), h = num(adaptor.getAttribute(n, 'height'));
    const x = num(adaptor.getAttribute(n, 'x')), y = num(adaptor.getAttribute(n, 'y'));
    const sx = vw ? w / vw : 1, sy = vh ? h / vh : 1;
    const kids = adaptor.childNodes(n).slice();
    if (kids.length === 1 && adaptor.kind(kids[0]) !== '#text') {
      const t = adaptor.getAttribute(kids[0], 'transform') || '';
      const m = t.match(/^scale\(([-\d.e]+),\s*([-\d.e]+)\)$/);
      if (m && vb) {
        const cx = vx + vw / 2, cy = vy + vh / 2;
        const kx = parseFloat(m[1]) !== 1 ? 1 / 1.5 : 1, ky = parseFloat(m[2]) !== 1 ? 1 / 1.5 : 1;
        adaptor.setAttribute(kids[0], 'transform',
          `translate(${fmt(cx * (1 - kx))},${fmt(cy * (1 - ky))}) scale(${fmt(kx)},${fmt(ky)}) ${t}`);
      }
    }
    const tr = vb ? `translate(${fmt(x)},${fmt(y)}) scale(${sx},${sy}) translate(${fmt(-vx)},${fmt(-vy)})`
                  : `translate(${fmt(x)},${fmt(y)})`;
    const g = adaptor.node('g', {transform: tr}, []);
    for (const k of kids) adaptor.append(g, k);
    adaptor.replace(g, n);
  }
}

// MathJax styles table rules, frames and error boxes with a stylesheet that a
// standalone SVG does not carry (and QtSvg has no selectors): write them as attributes.
function inlineCss(root) {
  for (const l of adaptor.tags(root, 'line').concat(adaptor.tags(root, 'rect'))) {
    if (adaptor.getAttribute(l, 'data-line') != null || adaptor.getAttribute(l, 'data-frame') != null) {
      adaptor.setAttribute(l, 'stroke-width', '70');
      adaptor.setAttribute(l, 'fill', 'none');
      adaptor.setAttribute(l, 'stroke', 'currentColor');
      const c = adaptor.getAttribute(l, 'class') || '';
      if (c.includes('mjx-dashed')) adaptor.setAttribute(l, 'stroke-dasharray', '140');
      if (c.includes('mjx-dotted')) {
        adaptor.setAttribute(l, 'stroke-linecap', 'round');
        adaptor.setAttribute(l, 'stroke-dasharray', '0,140');
      }
    }
  }
  for (const g of adaptor.tags(root, 'g')) {
    if (adaptor.getAttribute(g, 'data-mml-node') !== 'merror') continue;
    for (const k of adaptor.childNodes(g)) {
      if (adaptor.kind(k) === 'rect') {
        adaptor.setAttribute(k, 'fill', '#fff0f0');
        adaptor.setAttribute(k, 'stroke', '#d00000');
        adaptor.setAttribute(k, 'stroke-width', '40');
      } else if (adaptor.kind(k) === 'g') {
        adaptor.setAttribute(k, 'fill', '#d00000');
        adaptor.setAttribute(k, 'stroke', 'none');
      }
    }
  }
  // Text MathJax has no glyphs for (CJK in \text{}) becomes <text> with a CSS
  // font family; give QtSvg a plain attribute with families that have CJK.
  for (const t of adaptor.tags(root, 'text')) {
    adaptor.setAttribute(t, 'font-family', 'WenQuanYi Micro Hei');
  }
}

// Attributes QtSvg ignores and that only cost bytes; and stroke-width 0, which
// Qt reads as a cosmetic one-pixel pen (glyphs would come out bold, in PDF too).
function elements(node, out = []) {
  out.push(node);
  for (const k of adaptor.childNodes(node)) {
    const kind = adaptor.kind(k);
    if (kind !== '#text' && kind !== '#comment') elements(k, out);
  }
  return out;
}

function strip(root) {
  const all = elements(root);
  for (const n of all) {
    if (String(adaptor.getAttribute(n, 'stroke-width')) === '0') {
      adaptor.removeAttribute(n, 'stroke-width');
      adaptor.setAttribute(n, 'stroke', 'none');
    }
    for (const a of ['data-mml-node', 'data-c', 'data-mjx-texclass', 'data-variant', 'data-background',
                     'data-mjx-error', 'role', 'focusable', 'class', 'aria-hidden', 'style']) {
      if (n === root && a === 'style') continue;
      if (adaptor.getAttribute(n, a) != null) adaptor.removeAttribute(n, a);
    }
  }
}

function firstError(root) {
  for (const g of adaptor.tags(root, 'g')) {
    const e = adaptor.getAttribute(g, 'data-mjx-error');
    if (e != null) return e;
  }
  return null;
}

// Returns the SVG string; throws only on an internal MathJax failure.
function tex2svg(tex, display) {
  const container = doc.convert(String(tex), {
    display: !!display, em: REFERENCE_EM_PX, ex: REFERENCE_EM_PX * X_HEIGHT, containerWidth: 80 * REFERENCE_EM_PX
  });
  const svg = adaptor.tags(container, 'svg')[0];
  const error = firstError(svg);
  flattenNested(svg);
  inlineCss(svg);
  strip(svg);
  // Size in px from the viewBox (MathJax gives ex, which QtSvg ignores);
  // the viewBox's y origin is minus the height above the baseline.
  const [, vy, vw, vh] = adaptor.getAttribute(svg, 'viewBox').split(/[\s,]+/).map(Number);
  const k = REFERENCE_EM_PX / UNITS_PER_EM;
  adaptor.setAttribute(svg, 'width', fmt(vw * k));
  adaptor.setAttribute(svg, 'height', fmt(vh * k));
  adaptor.setAttribute(svg, 'data-baseline-px', fmt(-vy * k));
  adaptor.removeAttribute(svg, 'style');
  if (error != null) adaptor.setAttribute(svg, 'data-error', error);
  return adaptor.outerHTML(svg);
}

module.exports = {tex2svg, REFERENCE_EM_PX};
