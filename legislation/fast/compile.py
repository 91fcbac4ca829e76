"""The batch form of a calculator, **generated** from the calculator's own source — never a second copy.

Each rule is written once, in ``legislation/calculators`` (see :mod:`legislation.calculators.kit`). The
:class:`~legislation.calculators.kit.Lean` context runs it as it is, but pays for what it ignores: a method
call per ``ctx.step``, the keyword dicts of templates that are never formatted, the citation built for every
award. This module removes that cost by a **mechanical transformation of the calculator's source**, done
once per version when the engine starts:

1. the version's calculator module and the transitive closure of the ``legislation.calculators`` modules it
   uses (``_bonus_2017``, ``_decret_2014_1672_art1``…), plus the rule methods of :class:`~kit.Ctx` it calls
   (``ctx.cost_with_battery``, ``ctx.lease_refusal``…), are read with :func:`inspect.getsource` and parsed;
2. each function is rewritten (:class:`Rewriter`) with the version's own numbers:

   - ``ctx.money("x")`` / ``ctx.count("x")`` / ``ctx.qty("x")`` and ``ctx.of(VID).count["x"]`` (a relied
     version's numbers) become the integer constant — a name the version does not give, or a value that is
     not whole at its scale, keeps the call, which raises the :class:`~legislation.errors.CatalogueError`;
   - ``ctx.rate(p, "x", base, label)`` becomes ``(N * base + H) // D`` with :func:`~kit.rate_terms` of the
     version's parameter (``ctx.per_unit`` likewise, in thousandths): the same integers as the contexts; a
     rate named only at run time reads its terms from the version's table (``_numbers_rates[name]``);
   - ``ctx.cap`` / ``ctx.floor`` become a comparison; ``ctx.is_open(b)`` becomes ``b in ctx.open_branches``;
   - ``ctx.step`` / ``ctx.step_at`` / ``ctx.step_once`` / ``ctx.miss`` / ``ctx.assume`` / ``ctx.read``
     statements are dropped — **only** when every argument is free of effects (constants, names, attribute
     reads, arithmetic, comparisons, f-strings…); a call in an argument (a ``ctx.need`` that may raise, say)
     keeps the statement as it is;
   - ``ctx.award`` / ``ctx.refuse`` / ``ctx.not_covered`` with a literal paragraph become the outcome tuple
     the :class:`~kit.Lean` context would return, its citation formatted once;
   - ``ctx.need(x, "f", "p")`` becomes ``(t if (t := x) is not None else ctx.need(None, "f", "p"))``, so the
     missing fact is still raised by the context itself (not inside a comprehension or a lambda, where the
     call stays);
   - the rule methods of ``Ctx`` (``ctx.lease_refusal(…)``…) become calls of their compiled forms
     (``_kit_lease_refusal(ctx, …)``, same rules); a number whose name is known only at run time is read from
     the version's table bound as a global (``_numbers_money[name]``, which raises alike); enum members read
     through their class (``Energy.ELECTRIC``), ``date(2001, 1, 1)`` and the kit's ``Candidate(…)`` records
     are bound or built once, the records by their slots (the frozen dataclass's ``__init__`` is 5× slower);

3. the calendar helpers a calculator calls on facts (``add_months``…, :data:`LIFTED`) are bound as their
   :func:`lifted` form: the same function, which a column of the columnar trace may compute once per value it
   holds (any other argument: the function's own call);

4. anything else is left exactly as written: the generated functions run with a real, started ``Lean``
   context named ``ctx``, so a call the rewriter does not know is still correct — only slower.

"Free of effects" is decided on the syntax alone: constants, names, attribute reads and subscripts,
arithmetic, comparisons, conditional expressions, f-strings, displays and comprehensions of such, and the
string methods of :data:`PURE_STR_METHODS` called on a literal or on a parameter annotated ``str`` (the
calculators pass ``mypy --strict``). Any other call is assumed to have an effect.

The functions are compiled and executed once per version, into fresh module namespaces whose globals are the
original module's (its constants, enums and imports are the very same objects); references to another
calculator module or to one of its functions point to that module's compiled form for the same version. The
code is compiled under the original file's name, so a traceback points at the rule as it is written. Forms are
remembered in the process by what they are made of (the calculator module, the version's citation and
numbers, those of the versions it relies on): a new engine reuses them with a context of its own. Between
processes, an engine given a :class:`~legislation.fast.stored.FormStore` keeps each version's generated code
(:class:`Step`: the compiled code of each module, the globals it reads as recipes to make them again) and runs
it, linked the same way, in the next process whose sources, Python and numbers are the same
(:mod:`legislation.fast.stored` says what the key holds); anything else is generated again.

Reading the generated code: ``python -m legislation.fast.compile VERSION_ID`` prints, for an auditor, the
exact source that runs for that version (with what was left as calls to the context). A test compares the
compiled form with the lean and the explained forms on the whole regression corpus and on generated
purchases; another fails when a registered calculator does not compile.
"""

from __future__ import annotations
import __future__

import ast
import copy
import dataclasses
import importlib
import inspect
import itertools
import pickle
import re
import sys
import textwrap
import types
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from enum import EnumMeta
from typing import Any

from legislation import dates
from legislation.calculators import get_calculator, kit
from legislation.calculators.kit import COMPUTED, NOT_COVERED, Lean, Outcome, Params
from legislation.errors import MissingFact
from legislation.fast.stored import FormStore, key_of, pack, slot_of, unpack
from legislation.row import Row
from legislation.timeline import Catalogue
from legislation.versions import Version

Kernel = Callable[[Row, frozenset[str], date], Outcome]  # as legislation.fast.engine.Kernel
Recipe = tuple[Any, ...]  # how a global of the generated code is made again (see :func:`made`)

CALCULATORS_PACKAGE = "legislation.calculators."
CTX = "ctx"  # the name every calculator gives its context (``self`` in the kit's methods, renamed)

# The recording methods: they return None and, in the lean context, do nothing.
RECORDING = frozenset({"step", "step_at", "step_once", "miss", "assume", "read"})
# The kit methods the rewriter handles itself; any other method of Ctx that Lean does not override is a rule
# of the kit (``cost_with_battery``, ``lease_refusal``…) and is compiled like a calculator's function.
HANDLED = RECORDING | frozenset(
    {
        "need",
        "money",
        "qty",
        "count",
        "of",
        "is_open",
        "cite",
        "rate",
        "per_unit",
        "cap",
        "floor",
        "award",
        "refuse",
        "not_covered",
        "reworded",
        "start",
        "missing",
    }
)
SCALES = frozenset({"money", "qty", "count", "rates", "per_kwh"})
NUMBERS = "_numbers_"  # a version's number table bound as a global: reading it may raise, so it is never pure
CONSTANT_MAKERS: tuple[Any, ...] = (date, timedelta, Decimal)  # immutable values: built once when constant
TEMPORARY = re.compile(r"\b_k[0-9]+\b")  # the rewriter's temporaries: _k1, _k2…
PURE_STR_METHODS = frozenset(
    {"join", "replace", "strip", "lower", "upper", "capitalize", "split", "removeprefix", "removesuffix"}
)


def lifted(function: Callable[..., Any]) -> Callable[..., Any]:
    """``function`` (a pure function of plain values, such as a calendar helper) as compiled calculators call it: an
    argument whose type has ``__lift__`` (a column of :mod:`legislation.columnar.symbolic`, standing for many
    values) computes it itself, by calling ``function`` once per value it holds; any other call is the function's."""

    def call(*args: Any) -> Any:
        for value in args:
            lift = getattr(type(value), "__lift__", None)
            if lift is not None:
                return lift(value, function, args)
        return function(*args)

    call.__wrapped__ = function  # type: ignore[attr-defined]
    return call


# The pure helpers calculators call on facts (by identity): bound in compiled modules as :func:`lifted` forms.
LIFTED: dict[int, Callable[..., Any]] = {
    id(f): lifted(f) for f in (dates.add_months, dates.last_day_of_months_following, dates.deadline_after_event)
}


def _lift(value: Any) -> Any:
    return LIFTED.get(id(value), value)


class CompileError(Exception):
    """A calculator written in a way the compiler does not handle (the engine then runs it lean)."""


@dataclass(slots=True)
class CompiledForm:
    """One version's compiled calculator: the function, its context, and the generated code."""

    version_id: str
    calculate: Callable[[Lean], Outcome]
    ctx: Lean
    trees: list[tuple[str, ast.Module]] = field(default_factory=list)  # (title, the code generated)
    left: Counter[str] = field(default_factory=Counter)  # context methods still called (by name)
    # ``calculate`` fused with the engine's kernel (see :func:`Compiler.fuse`); its context comes as a default.
    fused: Any = None  # a types.FunctionType (typed Any: a function-typed field reads as a method to mypy)

    @property
    def source(self) -> str:
        """The generated code as source text (what runs; its line numbers in tracebacks are the original's)."""
        return "\n\n".join(f"# ---- {title}\n{ast.unparse(tree)}" for title, tree in self.trees)


# -- the rewriting ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class Numbers:
    """What the rewriter folds in for one version: its numbers, its relied versions' numbers, its outcomes."""

    version: Version
    params: Params
    relied: Mapping[str, Params]
    scheme: str
    kit_functions: frozenset[str]

    def cite(self, paragraph: str) -> str:
        citation = self.version.citation
        return f"{citation}, {paragraph}" if paragraph else citation


def is_pure(node: ast.expr, strings: frozenset[str] = frozenset()) -> bool:
    """True when evaluating ``node`` has no effect beyond its value (no call, no binding): it may be dropped."""
    if isinstance(node, ast.Constant | ast.Name):
        return True
    if isinstance(node, ast.Attribute):
        return is_pure(node.value, strings)
    if isinstance(node, ast.Subscript):
        if isinstance(node.value, ast.Name) and node.value.id.startswith(NUMBERS):
            return False  # a parameter the version may not give: a CatalogueError to raise
        return is_pure(node.value, strings) and is_pure(node.slice, strings)
    if isinstance(node, ast.BinOp):
        return is_pure(node.left, strings) and is_pure(node.right, strings)
    if isinstance(node, ast.UnaryOp):
        return is_pure(node.operand, strings)
    if isinstance(node, ast.BoolOp):
        return all(is_pure(v, strings) for v in node.values)
    if isinstance(node, ast.Compare):
        return is_pure(node.left, strings) and all(is_pure(c, strings) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return is_pure(node.test, strings) and is_pure(node.body, strings) and is_pure(node.orelse, strings)
    if isinstance(node, ast.JoinedStr):
        return all(is_pure(v, strings) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        return is_pure(node.value, strings) and (node.format_spec is None or is_pure(node.format_spec, strings))
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(is_pure(e, strings) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is None or is_pure(k, strings) for k in node.keys) and all(
            is_pure(v, strings) for v in node.values
        )
    if isinstance(node, ast.Starred):
        return is_pure(node.value, strings)
    if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp):
        return is_pure(node.elt, strings) and all(_pure_generator(g, strings) for g in node.generators)
    if isinstance(node, ast.DictComp):
        return (
            is_pure(node.key, strings)
            and is_pure(node.value, strings)
            and all(_pure_generator(g, strings) for g in node.generators)
        )
    if isinstance(node, ast.Call):  # ``"; ".join(…)``: a method of a string, on pure arguments
        func = node.func
        return (
            isinstance(func, ast.Attribute)
            and (
                (isinstance(func.value, ast.Constant) and isinstance(func.value.value, str))
                or (isinstance(func.value, ast.Name) and func.value.id in strings)
            )
            and func.attr in PURE_STR_METHODS
            and all(is_pure(a, strings) for a in node.args)
            and all(is_pure(k.value, strings) for k in node.keywords)
        )
    return False


def _pure_generator(generator: ast.comprehension, strings: frozenset[str]) -> bool:
    return (
        not generator.is_async and is_pure(generator.iter, strings) and all(is_pure(c, strings) for c in generator.ifs)
    )


def _all_pure(call: ast.Call, skip: int = 0, strings: frozenset[str] = frozenset()) -> bool:
    """Every argument of ``call`` from position ``skip`` on, and every keyword value, is pure."""
    return all(is_pure(a, strings) for a in call.args[skip:]) and all(is_pure(k.value, strings) for k in call.keywords)


def _str_parameters(function: ast.FunctionDef) -> frozenset[str]:
    """The parameters annotated ``str`` and never rebound: strings (the calculators pass ``mypy --strict``), whose
    methods of :data:`PURE_STR_METHODS` have no effect."""
    arguments = function.args
    annotated = {
        a.arg
        for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        if isinstance(a.annotation, ast.Name) and a.annotation.id == "str"
    }
    bindings = Counter(
        n.id if isinstance(n, ast.Name) else n.arg
        for n in ast.walk(function)
        if (isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)) or isinstance(n, ast.arg)
    )
    return frozenset(name for name in annotated if bindings[name] == 1)


def _bound_names(function: ast.FunctionDef | ast.Lambda) -> set[str]:
    """Every name bound anywhere in a function (parameters, assignments, loops…), nested ones too; a
    :class:`CompileError` for what the compiler does not handle (``ctx`` rebound, an import in a body)."""
    names: set[str] = set()
    where = getattr(function, "name", "lambda")
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            if node.id == CTX:
                raise CompileError(f"function {where} rebinds {CTX}: the compiler cannot tell it is the context")
            names.add(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            raise CompileError(f"function {where} imports inside its body: imports belong at module level")
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


# The names of each top-level function of a source, by (source, line, column, name): a module is rewritten for
# each version that uses it, from the same source (a pure function of the function's text; bounded memory).
_SCOPES: dict[tuple[str, int, int, str], tuple[frozenset[str], frozenset[str]]] = {}
_TREES: dict[str, bytes] = {}  # the parsed sources, pickled: unpickling a tree is twice as fast as parsing it
_MEMO_LIMIT = 4096


def _scope(function: ast.FunctionDef, source: str) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`_bound_names` and :func:`_str_parameters` of a top-level function of ``source``, not rewritten yet."""
    key = (source, function.lineno, function.col_offset, function.name)
    found = _SCOPES.get(key)
    if found is None:
        found = frozenset(_bound_names(function)), _str_parameters(function)
        if len(_SCOPES) >= _MEMO_LIMIT:
            _SCOPES.clear()
        _SCOPES[key] = found
    return found


def parsed(source: str) -> ast.Module:
    """``ast.parse(source)``: a new tree each time (the rewriter changes it), parsed once per process."""
    blob = _TREES.get(source)
    if blob is not None:
        tree: ast.Module = pickle.loads(blob)  # noqa: S301 - pickled by this process, just above
        return tree
    tree = ast.parse(source)
    if len(_TREES) >= _MEMO_LIMIT:
        _TREES.clear()
    _TREES[source] = pickle.dumps(tree, protocol=pickle.HIGHEST_PROTOCOL)
    return tree


def _outcome(*items: ast.expr) -> ast.expr:
    """An outcome tuple: one constant when every item is constant, else a tuple display."""
    if all(isinstance(i, ast.Constant) for i in items):
        values: Any = tuple(i.value for i in items if isinstance(i, ast.Constant))  # a constant tuple
        return ast.Constant(values)
    return ast.Tuple(elts=list(items), ctx=ast.Load())


def _ctx_method(node: ast.AST) -> str | None:
    """``m`` when ``node`` is a call ``ctx.m(...)``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == CTX
    ):
        return node.func.attr
    return None


class Rewriter(ast.NodeTransformer):
    """Rewrites one module's functions for one version (see the module's docstring for the rules)."""

    def __init__(self, numbers: Numbers, module_globals: Mapping[str, Any], source: str) -> None:
        self.numbers = numbers
        self.globals = module_globals
        self.source = source
        self.taken = set(TEMPORARY.findall(source))  # temporaries must not clash with the source's names
        self.counter = itertools.count(1)
        self.local: frozenset[str] = frozenset()
        self.depth = 0
        self.no_walrus = 0
        self.left: Counter[str] = Counter()  # context methods left as calls
        self.strings: frozenset[str] = frozenset()  # the current function's ``str`` parameters (mypy --strict)
        self.hoisted: dict[str, Any] = {}  # globals the rewritten code reads (enum members)
        self.recipes: dict[str, Recipe] = {}  # how each is made again when the code is read from a store

    # -- helpers ------------------------------------------------------------------------------------------

    def temp(self) -> str:
        while True:
            name = f"_k{next(self.counter)}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def literal(self, node: ast.expr) -> str | None:
        """The string a node stands for: a literal, or a module-level string constant not shadowed locally."""
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name) and node.id not in self.local:
            value = self.globals.get(node.id)
            if isinstance(value, str):
                return value
        return None

    def hoist(self, name: str, value: Any, recipe: Recipe) -> ast.Name:
        """A global of the generated code bound once to ``value`` (a number table, a constant object), which
        ``recipe`` makes again (:func:`made`)."""
        if name in self.local:
            name = self.temp() + name
        self.hoisted[name] = value
        self.recipes[name] = recipe
        return ast.Name(id=name, ctx=ast.Load())

    def citation(self, paragraph: ast.expr) -> ast.expr | None:
        """The citation of a paragraph (``ctx.cite``): a constant for a literal, else formatted where it is read."""
        text = self.literal(paragraph)
        if text is not None:
            return ast.Constant(self.numbers.cite(text))
        citation = self.numbers.version.citation
        if isinstance(paragraph, ast.Name):
            value: ast.expr = paragraph
            test: ast.expr = paragraph
        elif self.pure(paragraph) and not self.no_walrus:
            t = self.temp()
            value, test = (
                ast.Name(id=t, ctx=ast.Load()),
                ast.NamedExpr(target=ast.Name(id=t, ctx=ast.Store()), value=paragraph),
            )
        else:
            return None
        joined = ast.BinOp(left=ast.Constant(citation + ", "), op=ast.Add(), right=value)
        return ast.IfExp(test=test, body=joined, orelse=ast.Constant(citation))

    def scale_value(self, numbers: Params, scale: str, name: str) -> Any:
        values: dict[str, Any] = getattr(numbers, scale)
        return dict.get(values, name)  # not Numbers.__missing__: a name not given keeps the call

    # -- scopes -------------------------------------------------------------------------------------------

    def pure(self, node: ast.expr) -> bool:
        return is_pure(node, self.strings)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        outer, strings = self.local, self.strings
        if not self.depth:  # a nested function's names are among its outer function's
            self.local, self.strings = _scope(node, self.source)
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        self.local, self.strings = outer, strings
        return node

    def generic_visit(self, node: ast.AST) -> ast.AST:
        super().generic_visit(node)
        _fill(node)
        return node

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        raise CompileError(f"async function {node.name}: a calculator is plain synchronous code")

    def _no_walrus(self, node: ast.AST) -> ast.AST:
        outer = self.local
        if isinstance(node, ast.Lambda):
            self.local = outer | frozenset(_bound_names(node))
        self.no_walrus += 1
        self.generic_visit(node)
        self.no_walrus -= 1
        self.local = outer
        return node

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _no_walrus

    # -- statements ---------------------------------------------------------------------------------------

    def visit_Expr(self, node: ast.Expr) -> ast.AST | None:
        self.generic_visit(node)
        value = node.value
        method = _ctx_method(value)
        if method in RECORDING and isinstance(value, ast.Call) and _all_pure(value, 0, self.strings):
            self.left[method] -= 1  # counted as left by visit_Call: it goes after all
            return None  # a step, a reading, an assumption: the lean context records nothing
        return node

    # -- expressions --------------------------------------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.value, ast.Name) and node.value.id not in self.local and isinstance(node.ctx, ast.Load):
            owner = self.globals.get(node.value.id)
            if (
                isinstance(owner, EnumMeta)
                and node.attr in owner.__members__
                and not self.local & {f"_{node.value.id}_{node.attr}"}
            ):
                # ``Energy.ELECTRIC``: a member read through its class costs a look-up in the enum's metaclass
                # (~8× a global's); the member itself, bound once as a global, is the same object.
                name = f"_{node.value.id}_{node.attr}"
                self.hoisted[name] = owner.__members__[node.attr]
                self.recipes[name] = ("member", node.value.id, node.attr)
                return ast.copy_location(ast.Name(id=name, ctx=ast.Load()), node)
        if isinstance(node.value, ast.Name) and node.value.id == CTX and isinstance(node.ctx, ast.Load):
            if node.attr == "vid":
                return ast.Constant(self.numbers.version.id)
            if node.attr == "scheme":
                return ast.Constant(self.numbers.scheme)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        """``ctx.of(VID).count["x"]`` → the relied version's constant (before ``ctx.of(VID)`` is rewritten)."""
        target = node.value
        if (
            isinstance(node.ctx, ast.Load)
            and isinstance(target, ast.Attribute)
            and target.attr in SCALES
            and _ctx_method(target.value) == "of"
            and isinstance(target.value, ast.Call)
            and len(target.value.args) == 1
            and not target.value.keywords
        ):
            vid = self.literal(target.value.args[0])
            name = self.literal(node.slice)
            relied = self.numbers.relied.get(vid or "")
            if relied is not None and name is not None:
                value = self.scale_value(relied, target.attr, name)
                if value is not None:
                    return ast.copy_location(ast.Constant(value), node)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        method = _ctx_method(node)
        if method is None:
            return self.record_call(self.constant_call(node))
        rewrite = getattr(self, f"call_{method}", None)
        if rewrite is not None:
            found: ast.AST | None = rewrite(node)
            if found is not None:
                return ast.copy_location(found, node)
            if not (method == "need" and node.args and isinstance(node.args[0], ast.Constant)):
                self.left[method] += 1  # (``ctx.need(None, …)`` raises the missing fact by design)
            return node
        if method in self.numbers.kit_functions:  # a rule of the kit, compiled: ctx.m(a) → _kit_m(ctx, a)
            return ast.copy_location(
                ast.Call(
                    func=ast.Name(id=f"_kit_{method}", ctx=ast.Load()),
                    args=[ast.Name(id=CTX, ctx=ast.Load()), *node.args],
                    keywords=node.keywords,
                ),
                node,
            )
        self.left[method] += 1
        return node

    def constant_call(self, node: ast.Call) -> ast.AST:
        """``date(2001, 1, 1)``: a value object built from constants, built once (an immutable of a known type)."""
        if not isinstance(node.func, ast.Name) or node.func.id in self.local:
            return node
        maker: Any = self.globals.get(node.func.id)
        if (
            maker not in CONSTANT_MAKERS
            or not all(isinstance(a, ast.Constant) for a in [*node.args, *(k.value for k in node.keywords)])
            or any(k.arg is None for k in node.keywords)
        ):
            return node
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        keywords = {k.arg: k.value.value for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)}
        try:
            value = maker(*args, **keywords)
        except (ValueError, TypeError, ArithmeticError):
            return node  # raised where it is written, as written
        recipe = ("const", CONSTANT_MAKERS.index(maker), tuple(args), tuple(sorted(keywords.items())))
        return ast.copy_location(self.hoist(f"_const_{len(self.hoisted)}", value, recipe), node)

    def record_call(self, node: ast.AST) -> ast.AST:
        """``Candidate(amount=…, …)``: a frozen slotted record of the kit built without the dataclass's generic
        ``__init__`` (five times slower): the same object, its fields set by their slots' own descriptors."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.local):
            return node
        maker = record_maker(self.globals.get(node.func.id))
        if maker is None or node.args or any(k.arg is None for k in node.keywords):
            return node
        func = self.hoist(f"_make_{node.func.id}", maker, ("record", node.func.id))
        return ast.copy_location(ast.Call(func=func, args=[], keywords=node.keywords), node)

    def _positional(self, node: ast.Call, count: int, keywords: bool = False) -> list[ast.expr] | None:
        if len(node.args) != count or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if node.keywords and not keywords:
            return None
        return list(node.args)

    def _number(self, node: ast.Call, scale: str) -> ast.expr | None:
        args = self._positional(node, 1)
        if args is None:
            return None
        name = self.literal(args[0])
        if name is None:  # a name known only at run time: the version's table, read directly (it raises alike)
            table = self.hoist(f"{NUMBERS}{scale}", getattr(self.numbers.params, scale), ("numbers", scale))
            return ast.Subscript(value=table, slice=args[0], ctx=ast.Load())
        value = self.scale_value(self.numbers.params, scale, name)
        return ast.Constant(value) if value is not None else None

    def call_of(self, node: ast.Call) -> ast.expr | None:
        args = self._positional(node, 1)
        vid = self.literal(args[0]) if args else None
        relied = self.numbers.relied.get(vid or "")
        if relied is None:
            return None
        return self.hoist(f"_of_{len(self.hoisted)}", relied, ("of", vid))  # the very object ctx.of returns

    def call_money(self, node: ast.Call) -> ast.expr | None:
        return self._number(node, "money")

    def call_count(self, node: ast.Call) -> ast.expr | None:
        return self._number(node, "count")

    def call_qty(self, node: ast.Call) -> ast.expr | None:
        return self._number(node, "qty")

    def call_cite(self, node: ast.Call) -> ast.expr | None:
        args = self._positional(node, 1)
        return self.citation(args[0]) if args else None

    def call_is_open(self, node: ast.Call) -> ast.expr | None:
        args = self._positional(node, 1)
        if args is None:
            return None
        branches = ast.Attribute(value=ast.Name(id=CTX, ctx=ast.Load()), attr="open_branches", ctx=ast.Load())
        return ast.Compare(left=args[0], ops=[ast.In()], comparators=[branches])

    def _product(self, node: ast.Call, scale: str) -> ast.expr | None:
        args = self._positional(node, 4)
        if args is None or not (self.pure(args[0]) and self.pure(args[3])):
            return None
        name = self.literal(args[1])
        if name is None:  # a name known only at run time: its terms read from the version's table (raises alike)
            if self.no_walrus or not self.pure(args[1]):
                return None
            table = self.hoist(f"{NUMBERS}{scale}", getattr(self.numbers.params, scale), ("numbers", scale))
            t = self.temp()
            read = ast.NamedExpr(
                target=ast.Name(id=t, ctx=ast.Store()), value=ast.Subscript(value=table, slice=args[1], ctx=ast.Load())
            )

            def term(i: int, of: ast.expr) -> ast.expr:
                return ast.Subscript(value=of, slice=ast.Constant(i), ctx=ast.Load())

            # (base * (t := table[name])[0] + t[1]) // t[2]: the base evaluated first, as the call's arguments are
            product = ast.BinOp(left=args[2], op=ast.Mult(), right=term(0, read))
            total = ast.BinOp(left=product, op=ast.Add(), right=term(1, ast.Name(id=t, ctx=ast.Load())))
            return ast.BinOp(left=total, op=ast.FloorDiv(), right=term(2, ast.Name(id=t, ctx=ast.Load())))
        terms = self.scale_value(self.numbers.params, scale, name)
        if terms is None:
            return None
        n, h, d = terms
        product = ast.BinOp(left=ast.Constant(n), op=ast.Mult(), right=args[2])
        return ast.BinOp(
            left=ast.BinOp(left=product, op=ast.Add(), right=ast.Constant(h)), op=ast.FloorDiv(), right=ast.Constant(d)
        )

    def call_rate(self, node: ast.Call) -> ast.expr | None:
        return self._product(node, "rates")

    def call_per_unit(self, node: ast.Call) -> ast.expr | None:
        return self._product(node, "per_kwh")

    def _bound(self, node: ast.Call, op: ast.cmpop, builtin: str) -> ast.expr | None:
        args = self._positional(node, 4)
        if args is None or not (self.pure(args[0]) and self.pure(args[3])):
            return None
        amount, limit = args[1], args[2]
        if self.no_walrus:
            return ast.Call(func=ast.Name(id=builtin, ctx=ast.Load()), args=[amount, limit], keywords=[])
        a, b = self.temp(), self.temp()
        test = ast.Compare(
            left=ast.NamedExpr(target=ast.Name(id=a, ctx=ast.Store()), value=amount),
            ops=[op],
            comparators=[ast.NamedExpr(target=ast.Name(id=b, ctx=ast.Store()), value=limit)],
        )
        return ast.IfExp(test=test, body=ast.Name(id=b, ctx=ast.Load()), orelse=ast.Name(id=a, ctx=ast.Load()))

    def call_cap(self, node: ast.Call) -> ast.expr | None:
        return self._bound(node, ast.Gt(), "min")  # « dans la limite de »: the cap when the amount exceeds it

    def call_floor(self, node: ast.Call) -> ast.expr | None:
        return self._bound(node, ast.Lt(), "max")  # « sans être inférieur à »

    def call_need(self, node: ast.Call) -> ast.expr | None:
        if self.no_walrus or not 3 <= len(node.args) <= 4 or not _all_pure(node, 1, self.strings):
            return None
        if any(k.arg != "citation" for k in node.keywords):
            return None
        if any(isinstance(a, ast.Starred) for a in node.args) or (
            isinstance(node.args[0], ast.Constant) and node.args[0].value is None
        ):
            return None  # ctx.need(None, …): raises, as written
        t = self.temp()
        test = ast.Compare(
            left=ast.NamedExpr(target=ast.Name(id=t, ctx=ast.Store()), value=node.args[0]),
            ops=[ast.IsNot()],
            comparators=[ast.Constant(None)],
        )
        raise_missing = ast.Call(func=node.func, args=[ast.Constant(None), *node.args[1:]], keywords=node.keywords)
        return ast.IfExp(test=test, body=ast.Name(id=t, ctx=ast.Load()), orelse=raise_missing)

    def call_award(self, node: ast.Call) -> ast.expr | None:
        if len(node.args) != 3 or not _all_pure(node, 1, self.strings):
            return None
        citation = self.citation(node.args[1])
        if citation is None:
            return None
        n = self.numbers
        return _outcome(
            ast.Constant(n.scheme),
            ast.Constant(COMPUTED),
            node.args[0],
            ast.Constant(True),
            ast.Constant(n.version.id),
            citation,
            ast.Constant(None),
        )

    def call_refuse(self, node: ast.Call) -> ast.expr | None:
        if len(node.args) not in (2, 3) or not _all_pure(node, 0, self.strings):
            return None
        found = self.citation(node.args[0])
        if found is None:
            return None
        n = self.numbers
        citation: ast.expr = found
        if len(node.args) == 3:
            override = node.args[2]
            text = self.literal(override)
            if text:
                citation = ast.Constant(text)
            elif not (isinstance(override, ast.Constant) or text == ""):  # "" or None: the paragraph's citation
                citation = ast.BoolOp(op=ast.Or(), values=[override, citation])
        return _outcome(
            ast.Constant(n.scheme),
            ast.Constant(COMPUTED),
            ast.Constant(0),
            ast.Constant(False),
            ast.Constant(n.version.id),
            citation,
            ast.Constant(None),
        )

    def call_not_covered(self, node: ast.Call) -> ast.expr | None:
        if len(node.args) != 2 or not _all_pure(node, 0, self.strings):
            return None
        citation = self.citation(node.args[0])
        if citation is None:
            return None
        n = self.numbers
        return _outcome(
            ast.Constant(n.scheme),
            ast.Constant(NOT_COVERED),
            ast.Constant(None),
            ast.Constant(None),
            ast.Constant(n.version.id),
            citation,
            ast.Constant(None),
        )

    def call_reworded(self, node: ast.Call) -> ast.expr | None:
        if len(node.args) != 2 or node.keywords or not self.pure(node.args[1]):
            return None
        return node.args[0]  # the lean context words nothing


_MAKERS: dict[type, Callable[..., Any] | None] = {}


def record_maker(cls: Any) -> Callable[..., Any] | None:
    """A keyword-only constructor of a kit record (a frozen, slotted dataclass of :mod:`kit` with no
    ``__post_init__`` and constant defaults), generated from its fields; None for anything else."""
    if not isinstance(cls, type) or cls.__module__ != kit.__name__ or not dataclasses.is_dataclass(cls):
        return None
    if cls in _MAKERS:
        return _MAKERS[cls]
    fields = dataclasses.fields(cls)
    params = getattr(cls, "__dataclass_params__", None)
    simple = (
        params is not None
        and params.frozen
        and "__slots__" in vars(cls)
        and not hasattr(cls, "__post_init__")
        and all(f.init and f.default_factory is dataclasses.MISSING for f in fields)
        and all(
            f.default is dataclasses.MISSING or f.default is None or isinstance(f.default, int | str) for f in fields
        )
    )
    maker = None
    if simple:
        names = [f.name for f in fields]
        signature = ", ".join(
            n if f.default is dataclasses.MISSING else f"{n}={f.default!r}" for n, f in zip(names, fields, strict=True)
        )
        body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
        source = f"def make(*, {signature}):\n    self = _new(_cls)\n{body}    return self\n"
        namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
        namespace.update({f"_set_{n}": vars(cls)[n].__set__ for n in names})
        exec(compile(source, f"<record maker of {cls.__qualname__}>", "exec"), namespace)  # noqa: S102
        maker = namespace["make"]
    _MAKERS[cls] = maker
    return maker


def _fill(node: ast.AST) -> None:
    """Statement lists emptied by the rewriting get a ``pass``; an ``if`` on a pure test that does nothing goes."""
    for name in ("body", "orelse", "finalbody"):
        body = getattr(node, name, None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            setattr(node, name, [s for s in body if not _does_nothing(s)])
    if isinstance(getattr(node, "body", None), list) and not node.body:  # type: ignore[attr-defined]
        node.body = [ast.Pass()]  # type: ignore[attr-defined]


def _does_nothing(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.If) and is_pure(statement.test):
        return all(_does_nothing(s) for s in statement.body) and all(_does_nothing(s) for s in statement.orelse)
    return False


# -- modules ----------------------------------------------------------------------------------------------


def _is_calculator_module(module: types.ModuleType) -> bool:
    return module.__name__.startswith(CALCULATORS_PACKAGE) and module is not kit


def _uses(module: types.ModuleType) -> list[types.ModuleType]:
    """The calculator modules ``module`` refers to at module level (as modules, or by importing their names)."""
    found: dict[str, types.ModuleType] = {}
    for value in vars(module).values():
        target: types.ModuleType | None = None
        if isinstance(value, types.ModuleType):
            target = value
        elif isinstance(value, types.FunctionType):
            target = sys.modules.get(value.__module__)
        if target is not None and target is not module and _is_calculator_module(target):
            found[target.__name__] = target
    return [found[k] for k in sorted(found)]


def _swap(value: Any, compiled: Mapping[int, Any]) -> Any:
    """``value`` with any original module or function replaced by its compiled form (in tuples and dicts too)."""
    if id(value) in compiled:
        return compiled[id(value)]
    if type(value) is tuple and any(id(v) in compiled for v in value):
        return tuple(compiled.get(id(v), v) for v in value)
    if type(value) is list and any(id(v) in compiled for v in value):
        return [compiled.get(id(v), v) for v in value]
    if type(value) is dict and any(id(v) in compiled for v in value.values()):
        return {k: compiled.get(id(v), v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class Step:
    """One module's functions rewritten and compiled for a version: what :meth:`Compiler.execute` runs, and what
    a :class:`~legislation.fast.stored.FormStore` keeps (all but the tree), so that another process runs the same
    code without rewriting it."""

    title: str
    module: str  # the original module's name
    names: tuple[str, ...]  # the functions the code defines (each replaces the original of that name)
    code: types.CodeType
    recipes: tuple[tuple[str, Recipe], ...]  # the globals it reads, made again by :func:`made`
    left: tuple[tuple[str, int], ...]  # the context methods left as calls (counts)
    tree: ast.Module | None = None  # the code generated (None when read from a store)

    def packed(self) -> tuple[Any, ...]:
        return self.title, self.module, self.names, self.code, self.recipes, self.left

    @classmethod
    def unpacked(cls, item: Any) -> Step:
        title, module, names, code, recipes, left = item
        if not (isinstance(code, types.CodeType) and isinstance(names, tuple) and isinstance(recipes, tuple)):
            raise ValueError("not a stored step")
        return cls(title, module, names, code, recipes, left)


# The kit's rule methods as functions of ``ctx`` (pickled: each version rewrites a copy), by their names.
_KIT: dict[tuple[str, ...], tuple[bytes, str]] = {}


def _kit_functions(names: tuple[str, ...]) -> tuple[list[ast.stmt], str]:
    """``Ctx.m(self, …)`` as ``_kit_m(ctx, …)`` for each of ``names``, and their source."""
    functions: list[ast.stmt] = []
    sources = []
    for method in names:
        lines, first = inspect.getsourcelines(getattr(kit.Ctx, method))
        sources.append(textwrap.dedent("".join(lines)))
        item = ast.parse(sources[-1]).body[0]
        ast.increment_lineno(item, first - 1)  # a traceback points at the method in kit.py
        if isinstance(item, ast.FunctionDef):
            if any(isinstance(n, ast.Name) and n.id == CTX for n in ast.walk(item)):
                raise CompileError(f"kit.Ctx.{item.name} uses the name {CTX}")
            for n in ast.walk(item):
                if isinstance(n, ast.Name) and n.id == "self":
                    n.id = CTX
                elif isinstance(n, ast.arg) and n.arg == "self":
                    n.arg = CTX
            item.name = f"_kit_{item.name}"
            item.decorator_list = []
            functions.append(item)
    return functions, "\n".join(sources)


def made(recipe: Recipe, module_globals: Mapping[str, Any], numbers: Numbers) -> Any:
    """The value a :meth:`Rewriter.hoist` recipe stands for, made again for the version of ``numbers``."""
    kind = recipe[0]
    if kind == "numbers":
        return getattr(numbers.params, recipe[1])
    if kind == "of":
        return numbers.relied[recipe[1]]
    if kind == "member":
        return module_globals[recipe[1]].__members__[recipe[2]]
    if kind == "const":
        return CONSTANT_MAKERS[recipe[1]](*recipe[2], **dict(recipe[3]))
    if kind == "record" and (maker := record_maker(module_globals[recipe[1]])) is not None:
        return maker
    raise ValueError(f"not a recipe: {recipe!r}")


class Compiler:
    """Compiles one version's calculator and everything it calls (see the module's docstring).

    :meth:`run` generates the code of each module (a :class:`Step`) and runs it; :meth:`replay` runs steps that an
    earlier :meth:`run` generated (read from a store), linked exactly as :meth:`run` links them."""

    def __init__(self, version: Version, catalogue: Catalogue) -> None:
        if version.calculator is None:
            raise CompileError(f"{version.id} has no calculator")
        self.version = version
        self.ctx = Lean(version, {ref: catalogue.versions[ref] for ref in version.relies_on})
        self.calculator = get_calculator(version.calculator)
        self.numbers = Numbers(
            version=version,
            params=self.ctx.params,
            relied=self.ctx.relied,
            scheme=self.ctx.scheme,
            kit_functions=frozenset(self._kit_rules()),
        )
        self.compiled: dict[int, Any] = {}  # id(original module or function) → its compiled form
        self.keep_alive: list[Any] = []  # the originals whose ids are keys above
        self.modules: dict[str, types.ModuleType] = {}
        self.in_progress: set[str] = set()
        self.trees: list[tuple[str, ast.Module]] = []
        self.left: Counter[str] = Counter()
        self.kit_namespace: dict[str, Any] = {}
        self.steps: list[Step] = []  # the steps run, in order
        self.fused_code: types.CodeType | None = None  # the fused kernel's code (see :meth:`fuse`)
        self.stored: Iterator[Step] | None = None  # when replaying: the steps to run instead of generating them

    @staticmethod
    def _kit_rules() -> list[str]:
        """The rule methods of :class:`kit.Ctx` that :class:`kit.Lean` runs as written (compiled as functions)."""
        return [
            name
            for name, value in vars(kit.Ctx).items()
            if isinstance(value, types.FunctionType)
            and not hasattr(value, "__wrapped__")  # decorated: left as a method
            and "__class__" not in value.__code__.co_freevars  # super(): only as a method
            and not name.startswith("_")
            and name not in HANDLED
            and name not in vars(Lean)
        ]

    def run(self) -> CompiledForm:
        self._compile_kit()
        module = self._compile_module(self.calculator)
        calculate = getattr(module, "calculate", None)
        if not isinstance(calculate, types.FunctionType):
            raise CompileError(f"calculator {self.calculator.__name__} has no calculate function")
        form = CompiledForm(self.version.id, calculate, self.ctx, self.trees, self.left)
        form.fused = self.fuse(module)
        return form

    def replay(self, steps: list[Step], fused: types.CodeType | None) -> CompiledForm:
        """The form :meth:`run` made when it generated ``steps`` and the fused kernel's code ``fused``: the same
        code, run in the same namespaces, without a tree. :class:`ValueError` when the steps do not fit the
        calculator's modules as they are now (the caller then runs :meth:`run` on a new compiler)."""
        self.stored = iter(steps)
        self._compile_kit()
        module = self._compile_module(self.calculator)
        calculate = getattr(module, "calculate", None)
        if not isinstance(calculate, types.FunctionType) or next(self.stored, None) is not None:
            raise ValueError("the stored steps do not fit the calculator")
        form = CompiledForm(self.version.id, calculate, self.ctx, [], self.left)
        if fused is not None:
            form.fused = self._define_kernel(module, fused)
        return form

    def fuse(self, module: types.ModuleType) -> types.FunctionType | None:
        """The kernel and ``calculate`` as one function — one call less per result::

            def kernel(row, open_branches, day, ctx=None, _k_missing=None):
                ctx.row, ctx.decisive_date, ctx.open_branches = row, day, open_branches
                try:
                    <the body of the compiled calculate(ctx)>
                except MissingFact as _k_fact:
                    return _k_missing(_k_fact)

        ``ctx`` and the context's ``missing`` are given as defaults by :func:`kernel_of` (one context per
        engine); None when ``calculate`` is not a plain ``calculate(ctx)`` (the kernel then calls it)."""
        tree = self.trees[-1][1]
        found = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "calculate"]
        if len(found) != 1:
            return None
        calculate = found[0]
        arguments = calculate.args
        names = _bound_names(calculate) | {n.id for n in ast.walk(calculate) if isinstance(n, ast.Name)}
        if (
            [a.arg for a in arguments.args] != [CTX]
            or arguments.posonlyargs
            or arguments.kwonlyargs
            or arguments.vararg
            or arguments.kwarg
            or arguments.defaults
            or calculate.decorator_list
            or any(isinstance(n, ast.Yield | ast.YieldFrom | ast.Await) for n in ast.walk(calculate))
            or names & {"_k_missing", "_k_fact", "_k_MissingFact"}
        ):
            return None
        preamble = ast.parse("ctx.row, ctx.decisive_date, ctx.open_branches = row, day, open_branches").body
        handler = ast.ExceptHandler(
            type=ast.Name(id="_k_MissingFact", ctx=ast.Load()),
            name="_k_fact",
            body=ast.parse("return _k_missing(_k_fact)").body,
        )
        body = copy.deepcopy(calculate.body)
        template = "def kernel(row, open_branches, day, ctx=None, _k_missing=None):\n    pass\n"
        kernel = ast.parse(template).body[0]
        assert isinstance(kernel, ast.FunctionDef)
        kernel.body = [*preamble, ast.Try(body=body, handlers=[handler], orelse=[], finalbody=[])]
        ast.copy_location(kernel, calculate)
        fused = ast.fix_missing_locations(ast.Module(body=[kernel], type_ignores=[]))
        filename = inspect.getsourcefile(self.calculator) or f"<{module.__name__}>"
        code = compile(fused, filename, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
        function = self._define_kernel(module, code)
        self.trees.append(("the kernel: calculate fused with the engine's call", fused))
        return function

    def _define_kernel(self, module: types.ModuleType, code: types.CodeType) -> types.FunctionType:
        """Runs the fused kernel's code in the compiled module's namespace: the function it defines."""
        namespace = vars(module)
        namespace["_k_MissingFact"] = MissingFact
        scratch: dict[str, Any] = {}
        exec(code, namespace, scratch)  # noqa: S102 - defines ``kernel`` only
        function = scratch.get("kernel")
        if not isinstance(function, types.FunctionType) or len(scratch) != 1:
            raise ValueError("the fused kernel's code defines something else")
        self.fused_code = code
        return function

    def _compile_kit(self) -> None:
        """``Ctx.m(self, …)`` → ``_kit_m(ctx, …)``, rewritten like any calculator function."""
        namespace = {name: _lift(value) for name, value in vars(kit).items()}
        title = "kit.Ctx rules"
        step = self._stored(title, kit) if self.stored is not None else self._generate(*self._kit_methods(), kit, title)
        self.execute(step, namespace, kit)
        self.kit_namespace = {name: namespace[f"_kit_{name}"] for name in self.numbers.kit_functions}
        for name, function in self.kit_namespace.items():  # the kit rules may call one another
            namespace[f"_kit_{name}"] = function

    def _kit_methods(self) -> tuple[list[ast.stmt], str]:
        """The kit's rule methods as functions of ``ctx`` named ``_kit_m`` (not rewritten yet), and their source."""
        names = tuple(sorted(self.numbers.kit_functions))
        found = _KIT.get(names)
        if found is None:
            functions, source = _kit_functions(names)
            found = _KIT[names] = pickle.dumps(functions, protocol=pickle.HIGHEST_PROTOCOL), source
        functions = pickle.loads(found[0])  # noqa: S301 - pickled by this process, just above
        return functions, found[1]

    def _compile_module(self, module: types.ModuleType) -> types.ModuleType:
        name = module.__name__
        if name in self.modules:
            return self.modules[name]
        if name in self.in_progress:
            raise CompileError(f"calculator modules import each other in a cycle through {name}")
        self.in_progress.add(name)
        for used in _uses(module):
            self._compile_module(used)
        title = f"{name} for {self.version.id}"
        step = self._stored(title, module) if self.stored is not None else self._generate_module(module, title)
        compiled = types.ModuleType(name, module.__doc__)
        namespace = compiled.__dict__
        for key, value in vars(module).items():
            if key not in ("__dict__", "__doc__", "__name__"):
                namespace[key] = _lift(_swap(value, self.compiled))
        namespace.update({f"_kit_{n}": f for n, f in self.kit_namespace.items()})
        self.execute(step, namespace, module)
        for function in step.names:
            original = vars(module).get(function)
            if original is not None:
                self.compiled[id(original)] = namespace[function]
                self.keep_alive.append(original)
        self.compiled[id(module)] = compiled
        self.keep_alive.append(module)
        for key, value in list(namespace.items()):  # aliases of this module's own functions
            namespace[key] = _swap(value, self.compiled)
        self.in_progress.discard(name)
        self.modules[name] = compiled
        return compiled

    def _generate_module(self, module: types.ModuleType, title: str) -> Step:
        try:
            source = inspect.getsource(module)
        except (OSError, TypeError) as exc:
            raise CompileError(f"no source for {module.__name__}: {exc}") from exc
        tree = parsed(source)
        if any(isinstance(n, ast.AsyncFunctionDef) for n in tree.body):
            raise CompileError(f"{module.__name__} defines an async function")
        return self._generate([n for n in tree.body if isinstance(n, ast.FunctionDef)], source, module, title)

    def _generate(self, functions: list[ast.stmt], source: str, module: types.ModuleType, title: str) -> Step:
        """The functions rewritten for the version and compiled (not run yet)."""
        rewriter = Rewriter(self.numbers, vars(module), source)
        body = [rewriter.visit(f) for f in functions]
        tree = ast.fix_missing_locations(ast.Module(body=body, type_ignores=[]))
        # Compiled under the original file's name: a traceback points at the rule as it is written.
        filename = inspect.getsourcefile(module) or f"<{module.__name__}>"
        code = compile(tree, filename, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
        names = tuple(f.name for f in body if isinstance(f, ast.FunctionDef))
        left = tuple(rewriter.left.items())
        return Step(title, module.__name__, names, code, tuple(rewriter.recipes.items()), left, tree)

    def _stored(self, title: str, module: types.ModuleType) -> Step:
        """The next stored step, which must be ``module``'s (else :class:`ValueError`)."""
        assert self.stored is not None
        step = next(self.stored, None)
        if step is None or step.title != title or step.module != module.__name__:
            raise ValueError(f"the stored steps do not fit the calculator at {title}")
        return step

    def execute(self, step: Step, namespace: dict[str, Any], module: types.ModuleType) -> None:
        """Runs a step's code in ``namespace`` (its functions defined there), its globals bound first."""
        for hoisted, recipe in step.recipes:
            value = made(recipe, vars(module), self.numbers)
            if namespace.get(hoisted, value) is not value:
                raise CompileError(f"{module.__name__} already has a global {hoisted}")
            namespace[hoisted] = value
        self.left.update(dict(step.left))
        self.left = +self.left  # drops the zero counts
        exec(step.code, namespace)  # noqa: S102 - the calculator's own functions, rewritten: see the docstring
        self.steps.append(step)
        if step.tree is not None:
            self.trees.append((step.title, step.tree))


def rewrite_source(
    source: str, version: Version, catalogue: Catalogue, module_globals: Mapping[str, Any] | None = None
) -> str:
    """The functions of ``source`` rewritten for ``version`` (what :class:`Compiler` runs), as source text."""
    numbers = Compiler(version, catalogue).numbers
    tree = ast.parse(source)
    body = [Rewriter(numbers, module_globals or {}, source).visit(node) for node in tree.body]
    return ast.unparse(ast.fix_missing_locations(ast.Module(body=body, type_ignores=[])))


# Compiled forms already made in this process, by what they are made of (engines are built often: each test,
# each batch worker); the functions take their context as an argument, so a new engine gets a new context.
_FORMS: dict[tuple[Any, ...], CompiledForm] = {}
_FORMS_LIMIT = 256


def _fingerprint(version: Version, catalogue: Catalogue) -> tuple[Any, ...]:
    """Everything a compiled form depends on: the calculator module, the version's citation and numbers, and
    the numbers of the versions it relies on."""

    def numbers(v: Version) -> tuple[tuple[str, Any], ...]:
        return tuple(sorted((name, p.value) for name, p in v.parameters.items()))

    relied = tuple((ref, numbers(catalogue.versions[ref])) for ref in version.relies_on)
    calculator = get_calculator(version.calculator or "")
    return calculator, version.id, version.citation, version.scheme, numbers(version), relied


def compile_version(version: Version, catalogue: Catalogue, store: FormStore | None = None) -> CompiledForm:
    """The compiled calculator of ``version`` (:class:`CompileError` when its style is not handled); with a
    ``store``, the code generated by an earlier process for the same sources and numbers is run instead of being
    generated again (a form read so has no trees; asked without a store, the form is generated with them)."""
    if version.calculator is None:
        raise CompileError(f"{version.id} has no calculator")
    key = _fingerprint(version, catalogue)
    found = _FORMS.get(key)
    if found is None or not (found.trees or store is not None):
        found = _made(version, catalogue, store)
        if len(_FORMS) >= _FORMS_LIMIT:
            _FORMS.clear()
        _FORMS[key] = found
    ctx = Lean(version, {ref: catalogue.versions[ref] for ref in version.relies_on})
    return CompiledForm(found.version_id, found.calculate, ctx, found.trees, found.left, found.fused)


def form_key(compiler: Compiler) -> str | None:
    """The key of a compiled form in a store (see :mod:`legislation.fast.stored`): the sources, the Python, and
    every number the rewriter may fold in — the version's and its relied versions', at each scale."""
    numbers = compiler.numbers
    version = numbers.version

    def scales(params: Params) -> tuple[Any, ...]:
        return tuple((scale, tuple(sorted(getattr(params, scale).items()))) for scale in sorted(SCALES))

    relied = tuple((vid, scales(params)) for vid, params in sorted(numbers.relied.items()))
    made_of = (version.calculator, version.id, version.citation, numbers.scheme, scales(numbers.params), relied)
    return key_of((*made_of, tuple(sorted(numbers.kit_functions))))


def _made(version: Version, catalogue: Catalogue, store: FormStore | None) -> CompiledForm:
    """The form read from ``store`` when it holds it for these sources and numbers; else generated (and stored)."""
    compiler = Compiler(version, catalogue)
    key = form_key(compiler) if store is not None else None
    if store is None or key is None:
        return compiler.run()
    slot = slot_of(version.id)
    payload = unpack(store.load(slot), key)
    if payload is not None:
        try:
            return compiler.replay([Step.unpacked(item) for item in payload[0]], payload[1])
        except Exception:  # noqa: BLE001 - an entry that does not run as it was made is a miss: generated again
            compiler = Compiler(version, catalogue)  # the failed replay left the first one half linked
    form = compiler.run()
    try:
        data = pack(key, (tuple(step.packed() for step in compiler.steps), compiler.fused_code))
    except ValueError:  # a constant marshal cannot write: the form is not stored
        return form
    store.save(slot, data)
    return form


def kernel_of(form: CompiledForm) -> Kernel:
    """The engine's kernel for a compiled form: the context pointed at the row, the calculator, a missing fact."""
    ctx, calculate, missing = form.ctx, form.calculate, form.ctx.missing
    if form.fused is not None:  # the same code, this engine's context as its defaults
        fused = form.fused
        kernel: Kernel = types.FunctionType(fused.__code__, fused.__globals__, "kernel", (ctx, missing))
        return kernel

    def wrapper(row: Row, open_branches: frozenset[str], day: date) -> Outcome:
        ctx.row = row
        ctx.decisive_date = day
        ctx.open_branches = open_branches
        try:
            return calculate(ctx)
        except MissingFact as fact:
            return missing(fact)

    return wrapper


def compiled_kernel(version: Version, catalogue: Catalogue, store: FormStore | None = None) -> Kernel:
    """Like :func:`legislation.fast.engine.lean_kernel`, from the calculator's compiled form."""
    return kernel_of(compile_version(version, catalogue, store))


def _forms(catalogue: Catalogue, ids: list[str]) -> Iterator[CompiledForm]:
    for vid in ids:
        yield compile_version(catalogue.versions[vid], catalogue)


def main(argv: list[str] | None = None) -> int:
    """``python -m legislation.fast.compile VERSION_ID…``: print the code generated for each version."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] in (["-h"], ["--help"]):
        print(__doc__)
        return 0
    # The catalogue is read by the application layer; imported here only, so that ``legislation`` stays pure.
    loader = importlib.import_module("api.catalogue.loader")
    catalogue: Catalogue = loader.load_catalogue()
    ids = args or sorted(v.id for v in catalogue.versions.values() if v.calculator is not None)
    unknown = [vid for vid in ids if vid not in catalogue.versions]
    if unknown:
        print(f"unknown version(s): {', '.join(unknown)}")
        return 2
    for form in _forms(catalogue, ids):
        left = ", ".join(f"{m} ×{c}" for m, c in sorted(form.left.items())) or "nothing"
        print(f"# ==== {form.version_id}: generated from the calculator's source; left to the Lean context: {left}")
        print(form.source)
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
