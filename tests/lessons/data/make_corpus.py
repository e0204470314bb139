#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the lesson test corpus (valid/, graded/, bad/, xlang/, outside/).
# The files are committed; this script documents how the raw-byte cases
# (binary, not UTF-8, CRLF, BOM, huge line) and the symlink were made.
import os, zlib, struct

def png(path, w=4, h=3):
    rows = []
    for y in range(h):
        rows.append(b'\x00' + b''.join(bytes([(x * 60) % 256, (y * 80) % 256, 128]) for x in range(w)))
    raw = b''.join(rows)
    def chunk(t, d):
        return struct.pack('>I', len(d)) + t + d + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
    data = (b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))
            + chunk(b'IDAT', zlib.compress(raw)) + chunk(b'IEND', b''))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, 'wb').write(data)

FM = "---\nid: {id}\ntitle: {title}\nsummary: {summary}\nminutes: 5\n---\n"
def fm(id, title="T", summary="S"):
    return FM.format(id=id, title=title, summary=summary)

# ---------- valid course ----------
png('valid/images/grid.png')
valid_en_1 = """---
id: basics
title: Basics
summary: Why order matters.
minutes: 10
---

Intro paragraph with $x_i$ math.

![grid](../images/grid.png)

## First step

Some text with a table:

| a | b |
|:--|--:|
| 1 | 2 |

```run sinusoidal.matrix positions=64 dim=32
chart: heatmap
output: pe
caption: The table.
  Second caption line.
x: channel
y: position
vary: positions 8..256
vary: base 100..1000000 log
vary: layout
height: 400
```

After text.

## Second step

```python
# not a heading
## not a step either
print(1)
```

```exercise pick-one
kind: choice
question: Which one?
option: A
option*: B
option: C
mistake: C => C is the other one.
hint: Think.
hint: Think harder.
solution: B,
  because.
```
"""
valid_zh_1 = (valid_en_1.replace("title: Basics", "title: 基础").replace("Intro paragraph", "引言段落")
              .replace("## First step", "## 第一步").replace("## Second step", "## 第二步")
              .replace("caption: The table.", "caption: 编码表。"))
valid_en_2 = fm("rope", "RoPE", "Rotations.") + """
## Frequencies

```run rope.inv_freq head_dim=128 rope_theta=10000
output: wavelength
log: y
vary: rope_theta 100..1000000 log step 10
```

```exercise longest-wavelength
kind: number
question: What is the longest wavelength
  for $d = 128$?
answer: 54410
tolerance: 1%
mistake: 62832 => That is $10000 \\cdot 2\\pi$, the paper's bound, not the slowest pair.
```

```exercise name-it
kind: text
question: Name the method.
accept: RoPE
accept: /rotary( position)? (embedding|encoding)s?/i
mistake: /alibi/i => ALiBi adds a bias; it does not rotate.
```

## Try it

```exercise long-wave
kind: run
question: Choose a base so that the longest wavelength exceeds 8192 positions.
module: rope.inv_freq
params: head_dim=64 rope_theta=100
vary: rope_theta 2..1000000 log
condition: max(wavelength) > 8192 and count(inv_freq) == 32
answer: rope_theta=2000
hint: Larger bases give longer wavelengths.
solution: Any base above about 1400.
```

```exercise several
kind: multiple
question: Which are true?
option*: one
option: two
option*: three
mistake: B => Two is not true.
```
"""
# Everything check runs and grades, written right: it must stay silent.
valid_en_3 = fm("graded", "Graded", "Answers that grade right.") + """
## Runs

```run rope.inv_freq head_dim=64 rope_theta=10000
chart: table
output: pairs
label: pairs.wavelength wavelength (positions)
label: pairs.inv_freq frequency
```

```run attention.permutation sentence=cat_mouse reorder=swap_roles
caption: A sentence the reader can read.
```

```run sinusoidal.matrix positions=8 dim=64
chart: line
output: wavelengths
label: wavelengths λ_j
log: y
```

## Exercises

```exercise graded-longer
kind: run
question: Make the longest wavelength exceed 100000 positions
  (a continuation line, indented by two spaces).
module: rope.inv_freq
params: head_dim=64 rope_theta=10000
vary: rope_theta 100..1000000 log
condition: max(pairs.wavelength) > 100000 and (count(inv_freq) == 32 or logit_scale < 0)
answer: rope_theta=2.2e4
```

```exercise graded-longest
kind: number
question: The longest wavelength for $b = 10000$, $d = 64$?
answer: 47117
tolerance: 0.5%
```

```exercise graded-grows
kind: choice
question: Does it grow with the base?
option: No.
option*: Yes.
```

```exercise graded-partner
kind: text
question: Which function is paired with the sine?
accept: cosine
accept: 余弦
accept: /co-?sine?s?/i
```
"""
valid_zh_3 = (valid_en_3.replace("title: Graded", "title: 判分").replace("## Runs", "## 运行").replace("## Exercises", "## 练习")
              .replace("sentence=cat_mouse", "sentence=zh_love").replace("caption: A sentence the reader can read.", "caption: 读者读得懂的句子。")
              .replace("accept: cosine\naccept: 余弦", "accept: 余弦\naccept: Cosine")
              .replace("answer: rope_theta=2.2e4", "answer: rope_theta=22000"))
for lang, t1, t2, t3 in (('en', valid_en_1, valid_en_2, valid_en_3),
                         ('zh', valid_zh_1, valid_en_2.replace("title: RoPE", "title: 旋转位置编码"), valid_zh_3)):
    os.makedirs(f'valid/{lang}', exist_ok=True)
    open(f'valid/{lang}/01-basics.md', 'w', encoding='utf-8').write(t1)
    open(f'valid/{lang}/02-rope.md', 'w', encoding='utf-8').write(t2)
    # A course of its own: valid/ is also the parser's two-chapter fixture.
    os.makedirs(f'graded/{lang}', exist_ok=True)
    open(f'graded/{lang}/01-graded.md', 'w', encoding='utf-8').write(t3)

# ---------- malformed single chapters (bad/en) ----------
os.makedirs('bad/en', exist_ok=True)
png('outside/secret.png')
png('bad/images/ok.png')
if not os.path.lexists('bad/images/escape.png'):
    os.symlink('../../outside/secret.png', 'bad/images/escape.png')
B = {}
B['01-no-front-matter'] = "Hello\n\n## Step\n"
B['02-unterminated-front-matter'] = "---\nid: x\ntitle: X\n\nBody\n"
B['03-bad-minutes'] = "---\nid: bad-minutes\ntitle: T\nsummary: S\nminutes: ten\n---\nText.\n"
B['04-unknown-key'] = fm("unknown-key")[:-4] + "author: me\n---\nText.\n"
B['05-duplicate-exercise-id'] = fm("dup-ex") + """
```exercise dup
kind: number
question: Q?
answer: 1
```

```exercise dup
kind: number
question: Q again?
answer: 2
```
"""
B['06-unknown-module'] = fm("unknown-module") + "\n```run nosuch.module a=1\n```\n"
B['07-bad-param'] = fm("bad-param") + "\n```run rope.inv_freq head_dim=abc\n```\n"
B['08-param-out-of-range'] = fm("param-range") + "\n```run rope.inv_freq head_dim=100000\n```\n"
B['09-vary-unknown-param'] = fm("vary-unknown") + "\n```run sinusoidal.matrix\nvary: nosuch 1..2\n```\n"
B['10-vary-range-outside'] = fm("vary-outside") + "\n```run sinusoidal.matrix\nvary: positions 1..100000\n```\n"
B['11-exercise-no-question'] = fm("no-question") + "\n```exercise no-q\nkind: number\nanswer: 3\n```\n"
B['12-choice-no-correct'] = fm("no-correct") + "\n```exercise no-correct\nkind: choice\nquestion: Q?\noption: a\noption: b\n```\n"
B['13-bad-tolerance'] = fm("bad-tol") + "\n```exercise bad-tol\nkind: number\nquestion: Q?\nanswer: 3\ntolerance: abc\n```\n"
B['14-bad-condition'] = fm("bad-cond") + "\n```exercise bad-cond\nkind: run\nquestion: Q?\nmodule: rope.inv_freq\nvary: rope_theta\ncondition: max(wavelength) >> 3\n```\n"
B['15-image-missing'] = fm("img-missing") + "\nSee:\n\n![missing](../images/nope.png)\n"
B['16-image-escape'] = fm("img-escape") + "\n![up](../../outside/secret.png)\n"
B['17-h1-heading'] = fm("h1") + "\n# A title\n\nText.\n"
B['20-empty'] = ""
B['21-huge-line'] = fm("huge") + "\n" + "x" * 150000 + "\n"
B['23-bom'] = "\ufeff---\nid: bom\nlevel: 3\ntitle: T\nsummary: S\nminutes: 5\n---\nText.\n"
B['24-unknown-run-key'] = fm("run-key") + "\n```run sinusoidal.matrix\ncolour: red\n```\n"
B['25-unterminated-run'] = fm("unterminated-run") + "\nText.\n\n```run sinusoidal.matrix\nchart: line\n"
B['26-vary-start-outside'] = fm("vary-start") + "\n```run sinusoidal.matrix positions=64\nvary: positions 100..200\n```\n"
B['27-image-symlink-escape'] = fm("img-symlink") + "\n![s](../images/escape.png)\n"
B['28-bad-kind'] = fm("bad-kind") + "\n```exercise bad-kind\nkind: essay\nquestion: Q?\n```\n"
B['29-multiple-no-correct'] = fm("multi") + "\n```exercise multi\nkind: multiple\nquestion: Q?\noption: a\noption: b\n```\n"
B['30-bad-regex'] = fm("bad-regex") + "\n```exercise bad-regex\nkind: text\nquestion: Q?\naccept: /(unclosed/\n```\n"
B['31-run-exercise-no-module'] = fm("no-module") + "\n```exercise no-module\nkind: run\nquestion: Q?\ncondition: x > 1\n```\n"
B['32-bad-chart'] = fm("bad-chart") + "\n```run sinusoidal.matrix\nchart: pie\n```\n"
B['33-key-not-for-kind'] = fm("wrong-key") + "\n```exercise wrong-key\nkind: number\nquestion: Q?\nanswer: 1\noption*: a\n```\n"
# What only running shows (poslab check runs every block and grades each answer).
# rope.inv_freq, head_dim=64: max(wavelength) = 2*pi*theta^(62/64), > 100000 from theta ~ 21800.
def run_ex(id, condition="max(wavelength) > 100000", params="head_dim=64 rope_theta=10000", answer="rope_theta=22000"):
    # lines 8..15: fence, kind, question, module, params, vary, condition, answer
    return (fm(id) + f"\n```exercise {id}\nkind: run\nquestion: Make the longest wavelength exceed 100000.\n"
            f"module: rope.inv_freq\nparams: {params}\nvary: rope_theta 100..1000000 log\n"
            f"condition: {condition}\nanswer: {answer}\n```\n")
B['34-answer-fails-condition'] = run_ex("answer-fails", answer="rope_theta=15000")
B['35-start-meets-condition'] = run_ex("start-meets", params="head_dim=64 rope_theta=500000", answer="rope_theta=600000")
B['36-condition-unknown-output'] = run_ex("cond-output", condition="max(wavelengths) > 100000")
B['37-condition-misspelt-column'] = run_ex("cond-column", condition="max(pairs.wavelenght) > 100000")
B['38-label-unknown-output'] = fm("label-output") + "\n```run rope.inv_freq head_dim=64\nchart: line\noutput: wavelength\nlabel: wavelengths wavelength of pair j\n```\n"
B['39-unclosed-run'] = fm("unclosed-run") + """
Text.

```run rope.inv_freq head_dim=64
chart: line

## Next step

More text, with a stray key: value.

```exercise after-unclosed
kind: number
question: Q?
answer: 1
```

```run nosuch.module
```
"""
B['40-unclosed-code'] = fm("unclosed-code") + "\nText.\n\n```python\nprint(1)\n\n## Step two\n\n```run nosuch.module\n```\n"
B['41-and-and'] = run_ex("and-and", condition="max(wavelength) > 100000 && min(wavelength) < 10")
B['42-one-space-continuation'] = fm("one-space") + "\n```exercise one-space\nkind: number\nquestion: With base 10000, what is the longest wavelength\n to the nearest position?\nanswer: 47117\ntolerance: 0.5%\n```\n"
B['43-two-problems'] = fm("two-problems") + "\n```run rope.inv_freq head_dim=7 rope_theta=1\ncolour: red\n```\n"
B['44-two-names'] = run_ex("two-names", condition="max(wavelengths) > 100000 and min(pairs.wavelenght) < 10")
B['45-module-typo'] = fm("module-typo") + "\n```run rope.inv_frq head_dim=64\n```\n"
B['46-param-typo'] = fm("param-typo") + "\n```run rope.inv_freq rope_thetta=500\n```\n"
B['47-image-typo'] = fm("image-typo") + "\n![typo](../images/okk.png)\n"
B['48-output-unknown'] = fm("output-unknown") + "\n```run rope.inv_freq head_dim=64\noutput: wavelengths\n```\n"
B['49-chart-mismatch'] = fm("chart-mismatch") + "\n```run sinusoidal.matrix positions=8 dim=16\nchart: line\noutput: pe\n```\n"
B['50-warnings'] = fm("warnings") + """
```exercise every-option
kind: multiple
question: Q?
option*: a
option*: b
```

```exercise regex-only
kind: text
question: Q?
accept: /co-?sine?/i
```

```exercise wide-tolerance
kind: number
question: Q?
answer: 3
tolerance: 5
```

```run rope.inv_freq head_dim=64
output: wavelength
label: pairs.wavelength wavelength
```
"""
B['51-log-axis'] = fm("log-axis") + "\n```run rope.inv_freq head_dim=64\noutput: wavelength\nlog: x,y\n```\n"
B['52-heatmap-label'] = (fm("heatmap-label") + "\n```run sinusoidal.matrix positions=8 dim=16\noutput: pe\n"
                         "label: pe position code\n```\n")
B['53-image-format'] = (fm("image-format") + "\n![saved from a browser](../images/photo.webp)\n\n"
                        "![cut short](../images/cut.png)\n")
B['54-raw-html'] = (fm("raw-html") + "\nLine one<br>line two, and x<sub>i</sub>.\n\n"
                    "<!-- a note to myself -->\n\nA comparison a < b and c > d is text, and `<br>` is code.\n")
B['55-unknown-tex'] = (fm("unknown-tex") + "\n```run rope.inv_freq head_dim=64\noutput: wavelength\n"
                       "x: pair $\\binom{n}{2}$\ny: wavelength $\\lambda$\n```\n")
# Known mistakes that cannot be: graded right, not a number, the starred
# option, an accepted text, the same answer twice, no "=>".
B['56-mistakes'] = (fm("mistakes") + """
```exercise mistake-number
kind: number
question: Q?
answer: 60611
tolerance: 0.5%
mistake: 60700 => Inside the tolerance.
mistake: sixty => Not a number.
mistake: 62832 => The paper's bound.
mistake: 62 832 => The same again.
mistake: no arrow here
```

```exercise mistake-choice
kind: choice
question: Q?
option: a
option*: b
mistake: B => The right one.
mistake: D => No such option.
```

```exercise mistake-text
kind: text
question: Q?
accept: equivariant
mistake: Equivariant => Accepted.
mistake: /invariant(/i => A broken pattern.
```
""")
# Reference lines: a value that is not a number, no axis, and a mark on a
# heatmap (which draws none).
B['57-marks'] = (fm("marks") + "\n```run rope.decay head_dim=64 max_distance=100\n"
                 "mark: x=fifty half way\nmark: 50 half way\n```\n\n"
                 "```run sinusoidal.matrix positions=8 dim=16\noutput: pe\nmark: x=4 middle\n```\n\n"
                 "```run rope.context_workbench\noutput: wavelength_plain\nmark: y=target_lenght sL\n```\n")
for name, text in B.items():
    open(f'bad/en/{name}.md', 'w', encoding='utf-8', newline='').write(text)
# An image in a format the window cannot show (a WebP header and a little
# data), and a PNG cut before its end (no IEND chunk).
open('bad/images/photo.webp', 'wb').write(b'RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00' + bytes(24))
png('bad/images/cut.png')
full = open('bad/images/cut.png', 'rb').read()
open('bad/images/cut.png', 'wb').write(full[:-12])
# raw byte cases
open('bad/en/18-binary.md', 'wb').write(bytes(range(256)) * 8)
open('bad/en/19-not-utf8.md', 'wb').write(b"---\nid: latin\n\xff\xfe title: bad\n---\n")
open('bad/en/22-crlf.md', 'wb').write((fm("crlf") + "\nText.\n\n```run nosuch.crlf\n```\n").replace("\n", "\r\n").encode())

# ---------- cross-language corpus ----------
X = {}
def both(name, en, zh=None):
    X[('en', name)] = en
    X[('zh', name)] = en if zh is None else zh
X[('en', '01-only-en')] = fm("only-en") + "Text.\n"
X[('zh', '05-only-zh')] = fm("only-zh") + "Text.\n"
both('02-steps', fm("steps") + "\n## A\n\nx\n\n## B\n\ny\n", fm("steps") + "\n## A\n\nx\n\n## B\n\ny\n\n## C\n\nz\n")
both('03-blocks', fm("blocks") + "\n## A\n\n```run rope.inv_freq\n```\n", fm("blocks") + "\n## A\n\n```run sinusoidal.matrix\n```\n")
ex = "\n## A\n\n```exercise {id}\nkind: number\nquestion: Q?\nanswer: 1\n```\n"
both('04-exercise-ids', fm("ex-ids") + ex.format(id="first-id"), fm("ex-ids") + ex.format(id="other-id"))
both('06-chapter-id', fm("chapter-a") + "Text.\n", fm("chapter-b") + "Text.\n")
both('07-dup-across', fm("dup-across") + ex.format(id="first-id"))
# en and zh must agree on everything check can compare (texts aside).
num = "\n## A\n\n```exercise {id}\nkind: number\nquestion: {q}\nanswer: {answer}\ntolerance: {tol}\n```\n"
both('08-diff-answer', fm("diff-answer") + num.format(id="diff-answer", q="Longest wavelength?", answer="47117", tol="0.5%"),
     fm("diff-answer") + num.format(id="diff-answer", q="最长的波长？", answer="47000", tol="1%"))
choice = "\n## A\n\n```exercise {id}\nkind: choice\nquestion: {q}\n{o1}: {a}\n{o2}: {b}\n```\n"
both('09-diff-option', fm("diff-option") + choice.format(id="diff-option", q="Grows?", o1="option", a="no", o2="option*", b="yes"),
     fm("diff-option") + choice.format(id="diff-option", q="会变长吗？", o1="option*", a="不会", o2="option", b="会"))
text = "\n## A\n\n```exercise {id}\nkind: text\nquestion: {q}\n{accept}```\n"
both('10-diff-accept', fm("diff-accept") + text.format(id="diff-accept", q="Partner of sine?", accept="accept: cosine\naccept: 余弦\n"),
     fm("diff-accept") + text.format(id="diff-accept", q="和正弦配对的是？", accept="accept: 余弦\naccept: cos\n"))
runx = ("\n## A\n\n```exercise {id}\nkind: run\nquestion: {q}\nmodule: rope.inv_freq\nparams: head_dim=64 rope_theta=10000\n"
        "vary: rope_theta 100..1000000 log\ncondition: {cond}\nanswer: rope_theta=500000\n```\n")
both('11-diff-condition', fm("diff-condition") + runx.format(id="diff-condition", q="Longer?", cond="max(wavelength) > 100000"),
     fm("diff-condition") + runx.format(id="diff-condition", q="更长？", cond="max(wavelength) > 200000"))
block = "\n## A\n\n```run {head}\ncaption: {c}\n```\n"
both('12-diff-params',
     fm("diff-params") + block.format(head="rope.inv_freq head_dim=64 rope_theta=10000", c="Pairs.")
     + block.format(head="attention.permutation sentence=cat_mouse reorder=swap_roles", c="A sentence."),
     fm("diff-params") + block.format(head="rope.inv_freq head_dim=64 rope_theta=1e4 partial_rotary_factor=0.5", c="维度对。")
     + block.format(head="attention.permutation sentence=zh_love reorder=swap_roles", c="一句话。"))
# How a chart looks (log:, height:) and the time estimate (minutes:) may
# differ only with a warning: grading does not depend on them.
looks = "\n## A\n\n```run rope.inv_freq head_dim=64\noutput: wavelength\n{opts}```\n"
both('13-diff-looks', fm("diff-looks") + looks.format(opts="log: y\nheight: 300\n"),
     fm("diff-looks").replace("minutes: 5", "minutes: 8") + looks.format(opts="height: 400\n"))
# The known mistakes: the same answers in the same order (feedback may differ).
mis = "\n## A\n\n```exercise {id}\nkind: number\nquestion: {q}\nanswer: 60611\ntolerance: 0.5%\n{m}```\n"
both('14-diff-mistake',
     fm("diff-mistake") + mis.format(id="diff-mistake", q="Longest?", m="mistake: 62832 => The bound.\nmistake: 6.2832 => The shortest.\n"),
     fm("diff-mistake") + mis.format(id="diff-mistake", q="最长？", m="mistake: 6.2832 => 最短的。\nmistake: 62832 => 上界。\n"))
# Reference lines at different places (the labels may differ).
mk = "\n## A\n\n```run rope.decay head_dim=64 max_distance=100\nmark: {m}\n```\n"
both('15-diff-mark', fm("diff-mark") + mk.format(m="x=50 half way"), fm("diff-mark") + mk.format(m="x=60 一半"))
for (lang, name), text in X.items():
    os.makedirs(f'xlang/{lang}', exist_ok=True)
    open(f'xlang/{lang}/{name}.md', 'w', encoding='utf-8').write(text)
