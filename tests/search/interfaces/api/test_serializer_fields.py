"""Every serializer of the API declares each of its fields once.

A name assigned twice in a class body is one field, the second value in the first one's
place: the first declaration is dead code that reads as if it counted (issue 50 found
EntrySearchResultSerializer's `meta` written twice).
"""

from __future__ import annotations

import ast
from pathlib import Path

import search.interfaces.api

API = Path(search.interfaces.api.__file__).parent


def names_declared_twice(source: str) -> list[str]:
    twice = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            seen: set[str] = set()
            for statement in node.body:
                targets = statement.targets if isinstance(statement, ast.Assign) else (
                    [statement.target] if isinstance(statement, ast.AnnAssign) else [])
                for name in (target.id for target in targets if isinstance(target, ast.Name)):
                    if name in seen:
                        twice.append(f"{node.name}.{name}")
                    seen.add(name)
    return twice


def test_each_serializer_field_is_declared_once():
    twice = {str(path.relative_to(API)): names for path in sorted(API.rglob("*.py"))
             if (names := names_declared_twice(path.read_text()))}

    assert twice == {}


def test_a_name_declared_twice_is_found():
    assert names_declared_twice("class A:\n    meta = 1\n    other = 2\n    meta = 3\n") == ["A.meta"]
