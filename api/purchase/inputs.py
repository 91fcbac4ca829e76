"""The request fields a version's calculator may read, found by reading the calculator's source.

A calculator reads facts through ``ctx.need(ctx.vehicle.x, "vehicle.x", …)`` or directly
(``ctx.vehicle.energy``), and through kit helpers (``ctx.cost_with_battery`` reads
``vehicle.acquisition_cost``). The scan collects, in the calculator module, the shared ``_`` modules
it imports and the kit methods it calls: field-path strings and attribute reads on ``vehicle``,
``buyer``, ``scrapped_vehicle`` and ``purchase``; it keeps only the paths of the request contract.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import cache
from types import ModuleType

from pydantic import BaseModel

from api.purchase.request import BuyerIn, CalculationRequest, ScrappedVehicleIn, VehicleIn
from legislation.calculators import CALCULATORS, kit

PACKAGE = "legislation.calculators"
GROUPS: dict[str, type[BaseModel]] = {
    "vehicle": VehicleIn,
    "buyer": BuyerIn,
    "scrapped_vehicle": ScrappedVehicleIn,
}
TOP_LEVEL = frozenset(CalculationRequest.model_fields) - {"vehicle", "buyer", "schemes"}
PATH = re.compile(r"^(vehicle|buyer|scrapped_vehicle)\.([a-z0-9_]+)$")


def is_request_path(path: str) -> bool:
    """True for ``vehicle.co2_g_per_km``, ``invoice_date``…: a field of the request contract."""
    match = PATH.match(path)
    if match:
        return match.group(2) in GROUPS[match.group(1)].model_fields
    return path in TOP_LEVEL


@cache
def calculator_facts(key: str) -> tuple[str, ...]:
    """The request paths the calculator registered under ``key`` may read (sorted); () for an unknown key."""
    module = CALCULATORS.get(key)
    if module is None:
        return ()
    kit_methods = _kit_methods()
    found: set[str] = set()
    called: set[str] = set()
    for tree in _trees(module):
        paths, calls = _scan(tree)
        found |= paths
        called |= calls
    seen: set[str] = set()
    while pending := (called & kit_methods.keys()) - seen:
        for name in pending:
            seen.add(name)
            paths, calls = kit_methods[name]
            found |= paths
            called |= calls
    return tuple(sorted(p for p in found if is_request_path(p)))


def _trees(module: ModuleType) -> list[ast.Module]:
    """The module's syntax tree and those of the shared ``_`` modules of the package it imports."""
    trees, queue, done = [], [module.__name__], set()
    while queue:
        name = queue.pop()
        if name in done:
            continue
        done.add(name)
        tree = ast.parse(inspect.getsource(importlib.import_module(name)))
        trees.append(tree)
        queue.extend(_shared_imports(tree, name))
    return trees


def _shared_imports(tree: ast.Module, name: str) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative import inside the package
                base = f"{PACKAGE}.{base}" if base else PACKAGE
            if base == PACKAGE:
                found += [f"{PACKAGE}.{a.name}" for a in node.names if a.name.startswith("_")]
            elif base.startswith(f"{PACKAGE}._"):
                found.append(base)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.startswith(f"{PACKAGE}._")]
    return [m for m in found if m != name]


def _scan(tree: ast.AST) -> tuple[set[str], set[str]]:
    """Field paths (strings and attribute chains) and the ``ctx.``/``self.`` methods called in ``tree``."""
    paths: set[str] = set()
    calls: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and is_request_path(node.value):
            paths.add(node.value)
        elif isinstance(node, ast.Attribute):
            chain = _chain(node)
            for group in (*GROUPS, "purchase"):
                if group in chain[:-1]:
                    rest = chain[chain.index(group) + 1 :]
                    paths.add(".".join(rest[:2]) if group == "purchase" else f"{group}.{rest[0]}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            calls.add(node.func.attr)
    return paths, calls


def _chain(node: ast.Attribute) -> list[str]:
    """``ctx.purchase.vehicle.energy`` → ``["ctx", "purchase", "vehicle", "energy"]``."""
    names: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        names.append(current.attr)
        current = current.value
    if isinstance(current, ast.Name):
        names.append(current.id)
    return names[::-1]


@cache
def _kit_methods() -> dict[str, tuple[set[str], set[str]]]:
    tree = ast.parse(inspect.getsource(kit))
    methods = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Ctx":
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    methods[item.name] = _scan(item)
    return methods
