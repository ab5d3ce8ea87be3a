"""Print the cross-file edges of a Python tree as Jedi resolves them.

Usage: python3 jedi_edges.py ROOT [USES]

For every name in every .py file under ROOT, Jedi's goto (following
imports) says where the name is defined; when that is a definition other
than a module in another .py file of the tree, a line

    file<TAB>line<TAB>name<TAB>defining file

goes to stdout: paths are slash paths relative to ROOT, the line is the
use's (1-based) and the name the definition's; each file looked at
comes first on a line of its own. USES, a file of
"file<TAB>line<TAB>name" lines, limits the names asked about to those
(the references a tagger found), which is much faster on a large tree.
The import path is the root and each directory under it that holds a
top-level package (a src layout), then the standard library: packages
installed for this interpreter are not looked at, so that the tree's
own modules are the ones found.
"""

import os
import sys
import sysconfig

import jedi


def python_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
        for f in sorted(filenames):
            if f.endswith(".py"):
                yield os.path.join(dirpath, f)


def import_path(root, files):
    """The root and the parent of each top-level package of the tree."""
    dirs = {os.path.dirname(f) for f in files if os.path.basename(f) == "__init__.py"}
    out = [root]
    for d in sorted(dirs):
        parent = os.path.dirname(d)
        if parent not in dirs and parent not in out:
            out.append(parent)
    std = [sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]]
    dynload = os.path.join(std[0], "lib-dynload")
    return out + [p for p in std + [dynload] if os.path.isdir(p)]


def read_uses(path):
    uses = {}
    with open(path, encoding="utf-8") as f:
        for row in f:
            parts = row.rstrip("\n").split("\t")
            if len(parts) == 3:
                uses.setdefault(parts[0], set()).add((int(parts[1]), parts[2]))
    return uses


def in_file(d, in_tree):
    """Whether the definition d is in a file of the tree."""
    return d.module_path is not None and os.path.realpath(str(d.module_path)) in in_tree


def class_members(script, lines, n, in_tree):
    """The definitions of n, an attribute name, in the classes of the
    tree that the object before its dot is: Jedi's goto gives a
    decorated method reached through its class, such as a classmethod,
    as the decorator's instance."""
    text = lines[n.line - 1] if n.line - 1 < len(lines) else ""
    col = n.column
    if col < 2 or text[col - 1] != ".":
        return []
    end = col - 1
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    if start == end:
        return []
    out = []
    for c in script.infer(n.line, end - 1):
        if c.type != "class" or not in_file(c, in_tree):
            continue
        out.extend(m for m in c.defined_names() if m.name == n.name)
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: jedi_edges.py ROOT [USES]")
    root = os.path.realpath(sys.argv[1])
    uses = read_uses(sys.argv[2]) if len(sys.argv) == 3 else None
    files = list(python_files(root))
    project = jedi.Project(root, sys_path=import_path(root, files), smart_sys_path=False)
    in_tree = {os.path.realpath(f) for f in files}
    out = sys.stdout
    for path in files:
        out.write(os.path.relpath(path, root).replace(os.sep, "/") + "\n")
    for path in files:
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        want = None
        if uses is not None:
            want = uses.get(rel)
            if not want:
                continue
        try:
            with open(path, encoding="utf-8") as f:
                code = f.read()
            script = jedi.Script(code, path=path, project=project)
            names = script.get_names(all_scopes=True, definitions=True, references=True)
        except Exception as e:  # a file Jedi cannot read counts as having no uses
            print(f"{rel}: {e}", file=sys.stderr)
            continue
        lines = code.splitlines()
        seen = set()
        for n in names:
            if want is not None and (n.line, n.name) not in want:
                continue
            try:
                # Asked at its place rather than of the name, Jedi
                # infers a use in the function that holds it.
                defs = script.goto(n.line, n.column, follow_imports=True, follow_builtin_imports=False)
                if not any(in_file(d, in_tree) for d in defs):
                    # What Jedi inferred for earlier names can hide a
                    # definition (an import cycle met halfway): a fresh
                    # script asks again.
                    again = jedi.Script(code, path=path, project=project)
                    defs = again.goto(n.line, n.column, follow_imports=True, follow_builtin_imports=False)
                    defs = defs + class_members(again, lines, n, in_tree)
            except Exception:
                continue
            for d in defs:
                if d.type == "module" or d.module_path is None:
                    continue
                to = os.path.realpath(str(d.module_path))
                if to not in in_tree or to == os.path.realpath(path):
                    continue
                row = (rel, n.line, d.name, os.path.relpath(to, root).replace(os.sep, "/"))
                if row not in seen:
                    seen.add(row)
                    out.write("%s\t%d\t%s\t%s\n" % row)


if __name__ == "__main__":
    main()
