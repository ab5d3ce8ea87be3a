"""Answer, for names used in a Python tree, where Jedi says they are defined.

Usage: python3 jedi_oracle.py ROOT

Reads requests from stdin, one a line:

    file<TAB>line<TAB>name

(file a slash path under ROOT, line 1-based) and answers each, in order,
with one line on stdout:

    file<TAB>line<TAB>name[<TAB>defining file<TAB>defined name]...

Jedi's goto, following imports, is asked at each place on the line where
the name stands as a whole word; a definition counts when it is not a
module and lies in another .py or .pyi file under ROOT. Where goto finds
none there, three uses it does not follow are looked up: a name in a
string (an entry of __all__) as the module's global of that name; an
attribute of a class of the tree (a classmethod, which goto gives as the
decorator's object) among the class's names; and a parameter of a
function in a test module or a conftest.py as the pytest fixture of its
name, in the module itself or the nearest conftest.py above it. The import path
is ROOT and the parent of each top-level package under it (a src
layout), then the standard library: the interpreter's installed packages
are left out, so that the tree's own modules are the ones found. A file
Jedi cannot read answers with no definitions, and says why on stderr.
"""

import os
import re
import sys
import sysconfig

import jedi


def source_files(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "node_modules")
        for f in sorted(filenames):
            if f.endswith((".py", ".pyi")):
                yield os.path.join(dirpath, f)


def import_path(root, files):
    """ROOT, the parent of each top-level package, the standard library."""
    pkgs = {os.path.dirname(f) for f in files if os.path.basename(f) in ("__init__.py", "__init__.pyi")}
    out = [root]
    for d in sorted(pkgs):
        parent = os.path.dirname(d)
        if parent not in pkgs and parent not in out:
            out.append(parent)
    paths = sysconfig.get_paths()
    std = [paths["stdlib"], paths["platstdlib"], os.path.join(paths["stdlib"], "lib-dynload")]
    return out + [p for p in dict.fromkeys(std) if os.path.isdir(p)]


class Tree:
    def __init__(self, root):
        self.root = os.path.realpath(root)
        files = list(source_files(self.root))
        self.rel = {os.path.realpath(f): os.path.relpath(f, self.root).replace(os.sep, "/") for f in files}
        self.project = jedi.Project(self.root, sys_path=import_path(self.root, files), smart_sys_path=False)
        self.path = None  # the file whose script is open
        self.script = None
        self.code = ""
        self.lines = []
        self.fixtures = {}  # per file: its fixtures, by name

    def open(self, rel):
        if rel == self.path:
            return self.script is not None
        self.path, self.script, self.code, self.lines = rel, None, "", []
        full = os.path.join(self.root, rel)
        try:
            with open(full, encoding="utf-8") as f:
                self.code = f.read()
            self.script = jedi.Script(self.code, path=full, project=self.project)
            self.lines = self.code.splitlines()
        except Exception as e:
            print(f"{rel}: {e}", file=sys.stderr)
        return self.script is not None

    def in_tree(self, d, rel):
        """The file of the tree, other than rel, that holds definition d."""
        if d.type == "module" or d.module_path is None:
            return None
        to = self.rel.get(os.path.realpath(str(d.module_path)))
        return None if to == rel else to

    def global_name(self, name):
        """What the open module's global name means, star imports
        followed: goto asked on a line naming it, added at the end."""
        code = self.code if self.code.endswith("\n") else self.code + "\n"
        full = os.path.join(self.root, self.path)
        script = jedi.Script(code + name + "\n", path=full, project=self.project)
        return script.goto(len(code.splitlines()) + 1, 0, follow_imports=True, follow_builtin_imports=False)

    def class_names(self, line, col, name):
        """The names called name of the classes of the tree that the
        operand before the dot at col means."""
        text = self.lines[line - 1]
        if col < 2 or text[col - 1] != "." or not (text[col - 2].isalnum() or text[col - 2] in "_)]"):
            return []
        out = []
        for c in self.script.infer(line, col - 1):
            if c.type == "class" and self.in_tree(c, None) is not None:
                out.extend(m for m in c.defined_names() if m.name == name)
        return out

    def fixture(self, rel, name):
        """The fixture name that a test in rel means: the module's own or
        that of the nearest conftest.py above it."""
        d = os.path.dirname(rel)
        candidates = [rel]
        while True:
            candidates.append((d + "/" if d else "") + "conftest.py")
            if not d:
                break
            d = os.path.dirname(d)
        for c in candidates:
            if c not in self.rel.values():
                continue
            if c not in self.fixtures:
                self.fixtures[c] = fixtures_of(os.path.join(self.root, c))
            if name in self.fixtures[c]:
                return (c, name) if c != rel else None
        return None

    def definitions(self, rel, line, name):
        """The (file, name) of each definition in another file of the
        tree that name, at each of its places on line, means."""
        if not self.open(rel) or not 1 <= line <= len(self.lines):
            return []
        out = []
        text = self.lines[line - 1]
        for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text):
            col = m.start()
            try:
                defs = self.script.goto(line, col, follow_imports=True, follow_builtin_imports=False)
                found = [(to, d.name) for d in defs if (to := self.in_tree(d, rel)) is not None]
                if not found and not defs and col > 0 and text[col - 1] in "'\"":
                    defs = self.global_name(name)
                elif not found and any(d.type == "param" and self.in_tree(d, None) == rel for d in defs):
                    if is_test_module(rel) and (f := self.fixture(rel, name)) is not None:
                        found.append(f)
                elif not found:
                    defs = self.class_names(line, col, name)
                found += [(to, d.name) for d in defs if (to := self.in_tree(d, rel)) is not None]
            except Exception:
                continue
            for f in found:
                if f not in out:
                    out.append(f)
        return out


def is_test_module(rel):
    base = os.path.basename(rel)
    return base == "conftest.py" or base.startswith("test_") or base.endswith("_test.py")


def fixtures_of(path):
    """The names of the module-level functions of the file at path that
    a pytest.fixture decorator marks."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except Exception:
        return set()
    out = set()
    for m in re.finditer(r"^@(?:pytest\.)?fixture\b[^\n]*\n(?:@[^\n]*\n)*(?:async\s+)?def\s+(\w+)", text, re.M):
        out.add(m.group(1))
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: jedi_oracle.py ROOT")
    tree = Tree(sys.argv[1])
    for row in sys.stdin:
        parts = row.rstrip("\n").split("\t")
        if len(parts) != 3 or not parts[1].isdigit():
            sys.exit(f"bad request {row!r}: want file<TAB>line<TAB>name")
        rel, line, name = parts[0], int(parts[1]), parts[2]
        answer = [rel, parts[1], name]
        for to, defined in tree.definitions(rel, line, name):
            answer += [to, defined]
        sys.stdout.write("\t".join(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
