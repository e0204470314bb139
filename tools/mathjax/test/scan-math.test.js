// SPDX-License-Identifier: Apache-2.0
// node test/scan-math.test.js — the scanner that decides which formulas of the
// shipped course are pre-rendered at build time (run by CTest as mathjax_scan).
// Expected values follow md4c's rules for MD_FLAG_LATEXMATHSPANS, by hand.
'use strict';
const assert = require('assert');
const {scanMarkdown, normalizeTex} = require('../src/scan-math.js');

const tex = (md) => scanMarkdown(md).map(f => (f.display ? 'D:' : 'I:') + f.tex);

assert.deepStrictEqual(tex('a $x^2$ b $$\\sum_i x_i$$ c'), ['I:x^2', 'D:\\sum_i x_i']);
assert.deepStrictEqual(tex('price \\$5 and \\$6'), [], 'escaped dollars are not math');
assert.deepStrictEqual(tex('code `$x$` and ``a `$y$` b`` then $z$'), ['I:z'], 'code spans are not scanned');
assert.deepStrictEqual(tex('```python\ny = $x$\n```\nafter $w$'), ['I:w'], 'code fences are not scanned');
assert.deepStrictEqual(tex('~~~\n$q$\n~~~'), []);
assert.deepStrictEqual(tex('````markdown\n```run m\ncaption: $a$\n```\n````\n'), [], 'an example inside a longer fence is code');
assert.deepStrictEqual(tex('```run rope.decay base=10000\ncaption: wavelength $\\lambda_i$\n```'), ['I:\\lambda_i'],
                       'run blocks carry inline Markdown');
assert.deepStrictEqual(tex('```exercise\nquestion: with $b = 10000$?\nhint: $j = d/2 - 1$\n```'),
                       ['I:b = 10000', 'I:j = d/2 - 1']);
assert.deepStrictEqual(tex('$ x $ is not math but $x$ is'), ['I:x'], 'inline math may not start or end with a space');
assert.deepStrictEqual(tex('two\nlines $a +\n b$ here'), ['I:a + b'], 'spans may cross a soft line break');
assert.deepStrictEqual(tex('para one $a\n\npara two b$'), [], 'but not a paragraph break');
assert.deepStrictEqual(tex('$$\nE = mc^2\n$$'), ['D:E = mc^2']);
assert.deepStrictEqual(tex('# Title $T$\ntext'), ['I:T'], 'headings are scanned');
assert.deepStrictEqual(scanMarkdown('l1\nl2 $a$\n\n$$b$$').map(f => f.line), [2, 4], 'line of each formula');
assert.strictEqual(normalizeTex('  a +\n\t b  '), 'a + b');
console.log('scan-math: all tests passed');
