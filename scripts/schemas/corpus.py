"""Every case of the contract corpus with an unknown or misplaced key is rejected by the
JSON Schema at the place `accord lint` reports: for each such diagnostic, check-jsonschema
names the key itself, or the mapping holding it with that key as unexpected.

usage: python corpus.py CHECK_JSONSCHEMA SCHEMA CORPUS_DIR
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

from ruamel.yaml import YAML

KEY_PROBLEM = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):(?P<column>\d+): error: "
                         r"(?:unknown key '(?P<unknown>[^']+)'|'(?P<misplaced>[^']+)' does not belong in"
                         r"|'(?P<openapi>[^':]+)(?::[^']*)?' is OpenAPI's)")
PATH_TOKEN = re.compile(r"\.([A-Za-z_][A-Za-z0-9_-]*)|\['((?:[^'\\]|\\.)*)'\]|\[(\d+)\]")


def components(path):
    """`$.types.Note['a.b'][0]` as ['types', 'Note', 'a.b', 0]."""
    assert path.startswith("$"), path
    parts, rest = [], path[1:]
    while rest:
        match = PATH_TOKEN.match(rest)
        assert match, f"cannot read the path {path!r}"
        name, quoted, index = match.groups()
        parts.append(name if name is not None else quoted if quoted is not None else int(index))
        rest = rest[match.end():]
    return parts


def normalized(parts, like):
    """`parts` with each component written as text where `like` has text there (mapping keys)."""
    return [str(part) if index < len(like) and isinstance(like[index], str) else part for index, part in enumerate(parts)]


def key_path(node, line, column, prefix=()):
    """The path of the mapping key written at line:column (1-based), if there is one."""
    if hasattr(node, "lc") and hasattr(node, "items"):
        for key, value in node.items():
            key_line, key_column = node.lc.key(key)
            if (key_line + 1, key_column + 1) == (line, column):
                return [*prefix, key]
            found = key_path(value, line, column, (*prefix, key))
            if found:
                return found
    elif isinstance(node, list):
        for index, item in enumerate(node):
            found = key_path(item, line, column, (*prefix, index))
            if found:
                return found
    return None


def main(checker, schema, corpus):
    corpus, checked, failures = pathlib.Path(corpus), 0, []
    for case in sorted(path for path in corpus.iterdir() if path.is_dir() and not path.name.startswith("_")):
        problems = [match for line in (case / "expected.txt").read_text().splitlines() if (match := KEY_PROBLEM.match(line))]
        if not problems:
            continue
        with tempfile.TemporaryDirectory() as work:
            work = pathlib.Path(work)
            if not (case / "standalone").exists():
                for file in (corpus / "_base").glob("*.yaml"):
                    shutil.copy(file, work / file.name)
            for file in case.glob("*.yaml"):
                shutil.copy(file, work / file.name)
            for problem in problems:
                checked += 1
                file = work / problem["file"]
                key = problem["unknown"] or problem["misplaced"] or problem["openapi"]
                path = key_path(YAML().load(file.read_text()), int(problem["line"]), int(problem["column"]))
                run = subprocess.run([checker, "--schemafile", schema, "--output-format", "json", str(file)], capture_output=True, text=True)
                errors = json.loads(run.stdout)["errors"]
                # A YAML key 404 is the path component '404' to check-jsonschema.
                path = [str(part) if isinstance(part, int) and not isinstance(part, bool) and index < len(path) else part
                        for index, part in enumerate(path or [])] or None
                at_key = [error for error in errors if normalized(components(error["path"]), path) == path]
                at_parent = [error for error in errors if path and normalized(components(error["path"]), path[:-1]) == path[:-1]
                             and f"'{key}'" in error["message"]]
                if path is None or not (at_key or at_parent):
                    failures.append(f"{case.name}: {problem.group(0)}: the schema reports " +
                                    (", ".join(f"{error['path']}: {error['message'][:120]}" for error in errors) or "nothing"))
    for failure in failures:
        print(failure)
    print(f"schema against the lint corpus: {checked} key problems, {checked - len(failures)} rejected where lint reports them")
    return 1 if failures or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
