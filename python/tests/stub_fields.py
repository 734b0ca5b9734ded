"""The installed package's stub, read with `ast` (a stub is not imported):
the fields of each TypedDict, so tests can compare them with real results.
Shared by test_decide.py and test_sheets.py."""

import ast
from pathlib import Path

import verify_claim

#: Stub fields marked NotRequired (a result may lack them).
OPTIONAL = set()


def present(fields, result):
    """The stub's fields, less the NotRequired ones the result lacks."""
    return [f for f in fields if f in result or f not in OPTIONAL]


def stub_fields():
    """The fields of each TypedDict in the stub, by class name (bases'
    fields included)."""
    tree = ast.parse((Path(verify_claim.__file__).parent / "__init__.pyi").read_text())
    fields = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            own = [s.target.id for s in node.body if isinstance(s, ast.AnnAssign)]
            OPTIONAL.update(
                s.target.id
                for s in node.body
                if isinstance(s, ast.AnnAssign)
                and isinstance(s.annotation, ast.Subscript)
                and getattr(s.annotation.value, "id", None) == "NotRequired"
            )
            inherited = [f for b in node.bases if isinstance(b, ast.Name) for f in fields.get(b.id, [])]
            fields[node.name] = inherited + own
    return fields
