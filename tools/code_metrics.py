#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""code_metrics.py — the sizes docs/architecture.md sets limits for.

Measures over src/ (or the folder given):
  * .cpp files longer than 900 lines;
  * classes and structs longer than 600 lines, counting the declaration in its
    header and every member function defined out of line (Class::f) in any
    file, together;
  * functions longer than 80 lines (from the line of the name to the closing
    brace);
  * the files a developer edits to add an exercise kind: those that declare
    the kind enum or name one of its values (ExerciseKind::Number, ...), i.e.
    every switch or table over the kinds. Code that reads a kind's
    descriptor (lessons/exercise_kinds.h: exerciseKindSpec(kind).check, ...)
    is not counted: a new kind reaches it through its row of the table.

Usage: code_metrics.py [SRC_DIR] [--limits]
Prints a report, largest first. With --limits, exits 1 when a limit is
exceeded (for a CI gate once the code meets them).

The C++ reading is deliberately simple (comments and string literals are
blanked, then braces are matched); it is exact enough for sizes.
"""
import pathlib
import re
import sys

FILE_LIMIT = 900
CLASS_LIMIT = 600
FUNCTION_LIMIT = 80
# Declaring the exercise kinds, or naming one of them (not the type alone).
KIND_NAMING = re.compile(r"\benum\s+class\s+ExerciseKind\b|\bExerciseKind::[A-Z]\w*")


def blank_comments_and_strings(text):
    """The text with comments and string/char literals replaced by spaces
    (newlines kept), so braces inside them do not count."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == 'R' and text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                j = n if end < 0 else end + len(m.group(1)) + 2
                out.append(re.sub(r"[^\n]", " ", text[i:j]))
                i = j
            else:
                out.append(c)
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * (j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def matching_brace(text, open_index):
    depth = 0
    for k in range(open_index, len(text)):
        if text[k] == "{":
            depth += 1
        elif text[k] == "}":
            depth -= 1
            if depth == 0:
                return k
    return len(text) - 1


def line_of(text, index):
    return text.count("\n", 0, index) + 1


CLASS_RE = re.compile(r"\b(class|struct)\s+(?:\w+\s+)*?([A-Z_a-z]\w*)\s*(?:final\s*)?(?::[^;{]*)?\{")
# A function definition: a name (possibly qualified) and its parameter list,
# then optional qualifiers and initialisers, then a body.
FUNC_RE = re.compile(r"((?:\w+::)*~?\w+)\s*\(")
CONTROL = {"if", "for", "while", "switch", "catch", "return", "sizeof", "alignof", "decltype",
           "static_assert", "Q_OBJECT", "emit", "new", "delete", "throw"}


def find_classes(path, text):
    """(name, first line, last line) of each class/struct body in text."""
    found = []
    for m in CLASS_RE.finditer(text):
        open_index = m.end() - 1
        close = matching_brace(text, open_index)
        found.append((m.group(2), line_of(text, m.start()), line_of(text, close)))
    return found


def find_functions(text):
    """(qualified name, first line, last line) of each function body."""
    found = []
    i = 0
    while True:
        m = FUNC_RE.search(text, i)
        if not m:
            break
        name = m.group(1)
        # Match the parameter list's closing parenthesis.
        depth, k = 0, m.end() - 1
        while k < len(text):
            if text[k] == "(":
                depth += 1
            elif text[k] == ")":
                depth -= 1
                if depth == 0:
                    break
            k += 1
        rest = text[k + 1:k + 400]
        body = re.match(r"\s*(?:const|noexcept|override|final|mutable|->\s*[\w:<>,\s*&]+|\s)*"
                        r"(?::\s*[^;{}]*(?:\{[^{}]*\}[^;{}]*)*)?\{", rest)
        short = name.split("::")[-1]
        if body and short not in CONTROL and not short.isupper():
            open_index = k + 1 + body.end() - 1
            close = matching_brace(text, open_index)
            found.append((name, line_of(text, m.start()), line_of(text, close)))
            i = close + 1
        else:
            i = m.end()
    return found


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    here = pathlib.Path(__file__).resolve().parent
    src = pathlib.Path(args[0]) if args else here.parent / "src"
    files = sorted(p for p in src.rglob("*") if p.suffix in (".h", ".cpp"))
    long_files, classes, functions, kind_files = [], {}, [], []
    for path in files:
        raw = path.read_text(encoding="utf-8")
        rel = path.relative_to(src.parent).as_posix()
        lines = raw.count("\n") + 1
        if path.suffix == ".cpp" and lines > FILE_LIMIT:
            long_files.append((lines, rel))
        if KIND_NAMING.search(blank_comments_and_strings(raw)):
            kind_files.append(rel)
        text = blank_comments_and_strings(raw)
        for name, first, last in find_classes(path, text):
            entry = classes.setdefault(name, [0, []])
            entry[0] += last - first + 1
            entry[1].append(rel)
        for name, first, last in find_functions(text):
            size = last - first + 1
            if "::" in name:
                owner = name.split("::")[-2]
                if owner in classes or path.suffix == ".cpp":
                    entry = classes.setdefault(owner, [0, []])
                    entry[0] += size
                    if rel not in entry[1]:
                        entry[1].append(rel)
            if size > FUNCTION_LIMIT:
                functions.append((size, name, f"{rel}:{first}"))
    big_classes = sorted(((n, name, files) for name, (n, files) in classes.items() if n > CLASS_LIMIT), reverse=True)
    functions.sort(reverse=True)
    long_files.sort(reverse=True)

    print(f".cpp files over {FILE_LIMIT} lines: {len(long_files)}")
    for n, rel in long_files:
        print(f"  {n:5d}  {rel}")
    print(f"classes over {CLASS_LIMIT} lines (header + out-of-line members): {len(big_classes)}")
    for n, name, where in big_classes:
        print(f"  {n:5d}  {name}  ({', '.join(where)})")
    print(f"functions over {FUNCTION_LIMIT} lines: {len(functions)}")
    for n, name, where in functions:
        print(f"  {n:5d}  {name}  {where}")
    print(f"files declaring or naming an ExerciseKind (touched to add an exercise kind): {len(kind_files)}")
    for rel in kind_files:
        print(f"         {rel}")
    over = long_files or big_classes or functions
    return 1 if ("--limits" in sys.argv and over) else 0


if __name__ == "__main__":
    sys.exit(main())
