#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# Regenerates the lesson test corpus (valid/, bad/, xlang/, outside/).
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
log: y
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
```

```exercise name-it
kind: text
question: Name the method.
accept: RoPE
accept: /rotary( position)? (embedding|encoding)s?/i
```

## Try it

```exercise long-wave
kind: run
question: Choose a base so that the longest wavelength exceeds 8192 positions.
module: rope.inv_freq
params: head_dim=64 rope_theta=100
vary: rope_theta 2..1000000 log
condition: max(wavelength) > 8192 and count(inv_freq) == 32
hint: Larger bases give longer wavelengths.
solution: Any base above about 1400.
```

```exercise several
kind: multiple
question: Which are true?
option*: one
option: two
option*: three
```
"""
for lang, t1, t2 in (('en', valid_en_1, valid_en_2),
                     ('zh', valid_zh_1, valid_en_2.replace("title: RoPE", "title: 旋转位置编码"))):
    os.makedirs(f'valid/{lang}', exist_ok=True)
    open(f'valid/{lang}/01-basics.md', 'w', encoding='utf-8').write(t1)
    open(f'valid/{lang}/02-rope.md', 'w', encoding='utf-8').write(t2)

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
for name, text in B.items():
    open(f'bad/en/{name}.md', 'w', encoding='utf-8', newline='').write(text)
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
for (lang, name), text in X.items():
    os.makedirs(f'xlang/{lang}', exist_ok=True)
    open(f'xlang/{lang}/{name}.md', 'w', encoding='utf-8').write(text)
