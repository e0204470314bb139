#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check_layers.py — the include graph of src/ follows docs/architecture.md.

Every file under src/ belongs to the layer named by its first folder
(src/core/rope.h is in `core`), and in `ui` to the area named by its second
(src/ui/charts/chart_view.h is in `ui/charts`). A file may include project
headers only from the layers and areas listed for it below; arrows point down
the stack, never up. Two more rules:
  * core and lm are plain C++: no Qt header (<Q...>, <Qt...>).
  * only core/matmul.cpp includes cblas.h (the one file that touches BLAS).

Usage: check_layers.py [SRC_DIR]   (default: the src/ beside this script)
Prints one line per violation (file:line: what is wrong) and exits 1 when
there is any; exits 0 and prints a one-line summary otherwise. CTest runs it
as `layer_includes`.
"""
import pathlib
import re
import sys

# Layer -> the layers its files may include (itself included). Each list is
# the layer's own name plus everything below it, so the graph has no cycles.
LAYERS = {
    "core": ["core"],
    "lm": ["lm", "core"],
    "util": ["util"],
    "modules": ["modules", "lm", "core", "util"],
    "lessons": ["lessons", "modules", "lm", "core", "util"],
    "classroom": ["classroom", "lessons", "modules", "lm", "core", "util"],
    "ui": ["ui", "classroom", "lessons", "modules", "lm", "core", "util"],
    "app": ["app", "ui", "classroom", "lessons", "modules", "lm", "core", "util"],
}

# Inside ui: area -> the ui areas its files may include.
UI_AREAS = {
    "formula": ["formula"],
    "document": ["document", "formula"],
    "charts": ["charts", "document", "formula"],
    "notebook": ["notebook", "charts", "document", "formula"],
    "report": ["report", "charts", "document", "formula"],
    "lab": ["lab", "charts", "document", "formula"],
    "classroom": ["classroom", "notebook", "report", "charts", "document", "formula"],
    "window": ["window", "classroom", "lab", "report", "notebook", "charts", "document", "formula"],
}

NO_QT = {"core", "lm"}
BLAS_FILE = "core/matmul.cpp"

PROJECT_INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SYSTEM_INCLUDE = re.compile(r"^\s*#\s*include\s+<([^>]+)>")


def layer_of(rel):
    """('ui', 'charts') for ui/charts/x.h, ('core', None) for core/rope.h."""
    parts = rel.split("/")
    layer = parts[0]
    area = parts[1] if layer == "ui" and len(parts) > 2 else None
    return layer, area


def check_file(src, path, problems):
    rel = path.relative_to(src).as_posix()
    layer, area = layer_of(rel)
    if layer not in LAYERS:
        problems.append(f"src/{rel}:1: the folder src/{layer} is not a layer of docs/architecture.md")
        return
    if layer == "ui" and area is not None and area not in UI_AREAS:
        problems.append(f"src/{rel}:1: src/ui/{area} is not an area of the ui layer (docs/architecture.md)")
        return
    text = path.read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        where = f"src/{rel}:{number}"
        m = PROJECT_INCLUDE.match(line)
        if m:
            target = m.group(1)
            if not (src / target).is_file():
                problems.append(f'{where}: "{target}" is not a file under src/ (includes are written from src/)')
                continue
            t_layer, t_area = layer_of(target)
            if t_layer not in LAYERS[layer]:
                problems.append(f'{where}: {layer} may not include {t_layer} ("{target}"): '
                                f"{layer} sees only {', '.join(LAYERS[layer])}")
            elif layer == "ui" and t_layer == "ui":
                if area is None or t_area is None:
                    problems.append(f'{where}: files of ui live in an area folder (src/ui/AREA/), "{target}" or this file does not')
                elif t_area not in UI_AREAS[area]:
                    problems.append(f'{where}: ui/{area} may not include ui/{t_area} ("{target}"): '
                                    f"ui/{area} sees only {', '.join('ui/' + a for a in UI_AREAS[area])}")
            continue
        m = SYSTEM_INCLUDE.match(line)
        if m:
            header = m.group(1)
            if layer in NO_QT and (header.startswith("Q") or header.startswith("Qt")):
                problems.append(f"{where}: {layer} is plain C++ and may not include the Qt header <{header}>")
            if header == "cblas.h" and rel != BLAS_FILE:
                problems.append(f"{where}: only src/{BLAS_FILE} includes cblas.h")


def main():
    here = pathlib.Path(__file__).resolve().parent
    src = pathlib.Path(sys.argv[1]).resolve() if len(sys.argv) > 1 else here.parent / "src"
    files = sorted(p for p in src.rglob("*") if p.suffix in (".h", ".cpp") and p.is_file())
    if not files:
        print(f"check_layers: no .h or .cpp files under {src}")
        return 1
    problems = []
    for path in files:
        check_file(src, path, problems)
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layers of docs/architecture.md")
        return 1
    print(f"check_layers: {len(files)} files, every include points down the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
