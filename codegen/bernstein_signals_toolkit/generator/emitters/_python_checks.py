"""The Python renderer of the schema compiler's checks (:mod:`..schema_checks`).

Every verdict is decided by the compiler; this module only writes each check
as Python: straight-line statements, a module-level constant for each regex,
bound and enum, and a function for each verdict an applicator needs and each
``$ref`` target (so recursive schemas compile to functions that call each
other). Statements are built as a small tree (:class:`_If`, :class:`_For`,
:class:`_Line`) and printed once, so ``else: if`` prints as ``elif`` and
``if a: if b:`` as ``if a and (b):``, as written by hand.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, fields, is_dataclass

from ..ecma_regex import translate
from ..schema_checks import (
    REF_TOO_DEEP,
    Conditional,
    Const,
    Contains,
    Count,
    DependentRequired,
    EachItem,
    EachMember,
    Enum,
    Fail,
    IfPresent,
    ItemAt,
    Member,
    MultipleOf,
    Not,
    NumberBound,
    Pattern,
    Pointer,
    RefCall,
    Required,
    Size,
    TypeSwitch,
    Unique,
    Var,
)
from ._checks_renderer import ChecksRenderer, RenderedModule

__all__ = ["PythonChecks", "PythonModule"]

_TYPE_TESTS = {
    "null": "{} is None",
    "boolean": "isinstance({}, bool)",
    "integer": (
        "(isinstance({0}, int) and not isinstance({0}, bool))"
        " or (isinstance({0}, float) and {0}.is_integer())"
    ),
    "number": "isinstance({0}, numbers.Number) and not isinstance({0}, bool)",
    "string": "isinstance({}, str)",
    "array": "isinstance({}, list)",
    "object": "isinstance({}, dict)",
}
"""JSON type -> its test on a Python value (``{}``) as json.loads gives it."""
_FUNCTION_SIGNATURE = "(value: Any, pointer: str, errors: list[PayloadError], depth: int) -> None:"


@dataclass(frozen=True)
class _Line:
    text: str


@dataclass(frozen=True)
class _If:
    test: str
    body: tuple[_Statement, ...]
    orelse: tuple[_Statement, ...] = ()


@dataclass(frozen=True)
class _For:
    header: str
    body: tuple[_Statement, ...]


_Statement = _Line | _If | _For


def _indented(statements: Sequence[_Statement]) -> list[str]:
    return [f"    {line}" for line in _printed(statements) or ["pass"]]


def _printed(statements: Iterable[_Statement]) -> list[str]:
    """Python source lines; a lone ``if`` in an ``else`` becomes ``elif``; no empty block."""
    lines: list[str] = []
    for statement in statements:
        if isinstance(statement, _Line):
            lines.append(statement.text)
        elif isinstance(statement, _For):
            lines += [statement.header, *_indented(statement.body)]
        else:
            lines += [f"if {statement.test}:", *_indented(statement.body)]
            orelse = statement.orelse
            if len(orelse) == 1 and isinstance(orelse[0], _If):
                lines += [
                    "el" + line if index == 0 else line
                    for index, line in enumerate(_printed(orelse))
                ]
            elif orelse:
                lines += ["else:", *_indented(orelse)]
    return lines


def _if_and(test: str, body: Sequence[_Statement]) -> _If:
    """``if test:`` around ``body``; around one plain ``if``, the two tests are joined."""
    if len(body) == 1 and isinstance(body[0], _If) and not body[0].orelse:
        return _If(f"{test} and ({body[0].test})", body[0].body)
    return _If(test, tuple(body))


def _name(var: Var) -> str:
    return var.role if var.role in ("payload", "value") else f"{var.role}_{var.depth}"


def _pointer(pointer: Pointer) -> str:
    """The pointer as a Python expression: literal tokens joined at compile time."""
    expression = "pointer" if pointer.from_argument else "''"
    for step in pointer.steps:
        if isinstance(step, str):
            if expression == "''":
                expression = repr("/" + step)
            else:
                expression = f"{expression} + '/' + {step!r}"
        elif step.role == "key":
            expression = f"member_pointer({expression}, {_name(step)})"
        else:
            expression = f"{expression} + '/' + str({_name(step)})"
    return expression


def _json_literal(value: object) -> str:
    """A Python expression for a JSON value: parsed from its JSON text, safely escaped."""
    return f"json.loads({json.dumps(value, ensure_ascii=False)!r})"


def _mentions(node: object, var: Var) -> bool:
    """Whether ``var`` is read anywhere in ``node`` (a check, or checks)."""
    if node == var:
        return True
    if isinstance(node, tuple):
        return any(_mentions(item, var) for item in node)
    if is_dataclass(node) and not isinstance(node, (type, Pointer)):
        return any(_mentions(getattr(node, item.name), var) for item in fields(node))
    return False


@dataclass
class PythonModule(RenderedModule):
    """What the documents of one module share, and the helpers their code uses."""

    helpers: set[str] = field(default_factory=set)
    """Names from ``_validation`` (and ``numbers``, ``MAX_NESTING_DEPTH``) the code uses."""


@dataclass
class PythonChecks(ChecksRenderer[_Statement, PythonModule]):
    """Writes one document's checks as Python statements into ``module``."""

    def body(self) -> list[str]:
        """The document's checks as the lines of a function body."""
        return _printed(self.checks(self.document.checks))

    def function_text(self, name: str, statements: list[_Statement]) -> str:
        return "\n".join([f"def {name}{_FUNCTION_SIGNATURE}", *_indented(statements), "", ""])

    def ref_function_text(self, name: str, target: str) -> str:
        self.module.helpers.add("MAX_NESTING_DEPTH")
        too_deep = f"PayloadError(pointer, '$ref', {REF_TOO_DEEP!r}, {REF_TOO_DEEP!r})"
        guard = ["    if depth > MAX_NESTING_DEPTH:", f"        errors.append({too_deep})"]
        body = _indented(self.checks(self.document.refs[target]))
        return "\n".join(
            [f"def {name}{_FUNCTION_SIGNATURE}", *guard, "        return", *body, "", ""]
        )

    def boolean(self, value: bool) -> str:
        return repr(value)

    def passes_call(self, function: str, subject: Var) -> str:
        self.module.helpers.add("passes")
        return f"passes({function}, {_name(subject)}, depth)"

    def pattern(self, source: str) -> str:
        return self.module.constant("PATTERN", f"re.compile({translate(source)!r})")

    # -- checks ----------------------------------------------------------------------

    def fail(self, fail: Fail) -> _Line:
        arguments = f"{_pointer(fail.at)}, {fail.rule!r}, {fail.message!r}, {fail.detail!r}"
        return _Line(f"errors.append(PayloadError({arguments}))")

    def ref_call(self, function: str, check: RefCall) -> _Statement:
        return _Line(f"{function}({_name(check.subject)}, {_pointer(check.at)}, errors, depth + 1)")

    def scalar_check(
        self, check: Size | NumberBound | MultipleOf | Pattern | Unique
    ) -> list[_Statement]:
        return [self.scalar(check)]

    def equality_check(self, check: Enum | Const) -> list[_Statement]:
        return [self.equality(check)]

    def type_switch(self, check: TypeSwitch) -> list[_Statement]:
        subject = _name(check.subject)
        tests: list[str] = []
        bodies: list[list[_Statement]] = []
        for branch in check.branches:
            if "number" in branch.types:
                self.module.helpers.add("numbers")
            tests.append(" or ".join(_TYPE_TESTS[name].format(subject) for name in branch.types))
            bodies.append(self.checks(branch.checks))
        mismatch: tuple[_Statement, ...] = ()
        if check.otherwise is not None:
            mismatch = (self.fail(check.otherwise),)
            if len(tests) == 1 and not bodies[0]:
                return [_If(f"not ({tests[0]})", mismatch)]
        chain = mismatch
        for test, body in reversed(list(zip(tests, bodies, strict=True))):
            chain = (_If(test, tuple(body), chain),)
        return list(chain)

    def scalar(self, check: Size | NumberBound | MultipleOf | Pattern | Unique) -> _If:
        subject = _name(check.subject)
        if isinstance(check, Size):
            test = f"len({subject}) {check.operator} {check.bound!r}"
        elif isinstance(check, NumberBound):
            bound = self.module.constant("BOUND", _json_literal(check.bound))
            test = f"{subject} {check.operator} {bound}"
        elif isinstance(check, MultipleOf):
            self.module.helpers.add("multiple_of")
            divisor = self.module.constant("BOUND", _json_literal(check.divisor))
            test = f"not multiple_of({subject}, {divisor})"
        elif isinstance(check, Pattern):
            test = f"{self.pattern(check.source)}.search({subject}) is None"
        else:
            self.module.helpers.add("all_unique")
            test = f"not all_unique({subject})"
        return _If(test, (self.fail(check.fail),))

    def array(self, check: ItemAt | EachItem | Contains) -> list[_Statement]:
        subject, item = _name(check.subject), _name(check.item)
        if isinstance(check, ItemAt):
            take = _Line(f"{item} = {subject}[{check.position}]")
            return [_If(f"len({subject}) > {check.position}", (take, *self.checks(check.checks)))]
        if isinstance(check, EachItem):
            index = _name(check.index)
            items = (
                f"enumerate({subject}[{check.start}:], {check.start})"
                if check.start
                else f"enumerate({subject})"
            )
            return [_For(f"for {index}, {item} in {items}:", tuple(self.checks(check.checks)))]
        test = self.passes(check.test, check.item)
        count = _name(check.count)
        statements: list[_Statement] = [
            _Line(f"{count} = sum(1 for {item} in {subject} if {test})")
        ]
        if check.least > 0:
            statements.append(_If(f"{count} < {check.least!r}", (self.fail(check.fail_least),)))
        if check.fail_most is not None:
            statements.append(_If(f"{count} > {check.most!r}", (self.fail(check.fail_most),)))
        return statements

    def member(self, check: Required | DependentRequired | IfPresent | Member) -> list[_Statement]:
        subject, name = _name(check.subject), repr(check.name)
        if isinstance(check, Required):
            return [_If(f"{name} not in {subject}", (self.fail(check.fail),))]
        if isinstance(check, DependentRequired):
            test = f"{name} in {subject} and {check.needed!r} not in {subject}"
            return [_If(test, (self.fail(check.fail),))]
        if isinstance(check, IfPresent):
            return [_If(f"{name} in {subject}", tuple(self.checks(check.checks)))]
        var = _name(check.var)
        take = _Line(f"{var} = {subject}.get({name}, ABSENT)")
        body = self.checks(check.checks)
        if check.absent is not None:
            return [take, _If(f"{var} is ABSENT", (self.fail(check.absent),), tuple(body))]
        return [take, _if_and(f"{var} is not ABSENT", body)]

    def each_member(self, check: EachMember) -> list[_Statement]:
        self.module.helpers.add("member_pointer")
        key, member = _name(check.key), _name(check.member)
        body: list[_Statement] = []
        if check.key_checks or check.patterns:  # a Python caller's dict may have non-str keys
            body.append(_If(f"not isinstance({key}, str)", (_Line(f"{key} = _shown({key})"),)))
        body += self.checks(check.key_checks)
        matched: list[str] = []
        for pattern in check.patterns:
            test = f"{self.pattern(pattern.source)}.search({key}) is not None"
            matched.append(test)
            if pattern.checks:
                body.append(_If(test, tuple(self.checks(pattern.checks))))
        if check.additional is not None:
            others = [f"{key} not in {check.additional.known!r}", *(f"not ({t})" for t in matched)]
            body.append(_If(" and ".join(others), tuple(self.checks(check.additional.checks))))
        reads_members = _mentions((check.patterns, check.additional), check.member)
        subject = _name(check.subject)
        if reads_members:
            return [_For(f"for {key}, {member} in {subject}.items():", tuple(body))]
        return [_For(f"for {key} in {subject}:", tuple(body))]

    def equality(self, check: Enum | Const) -> _If:
        self.module.helpers.add("json_key")
        subject = _name(check.subject)
        if isinstance(check, Enum):
            values = _json_literal(list(check.values))
            choices = self.module.constant(
                "ENUM", f"frozenset(json_key(item) for item in {values})"
            )
            return _If(f"json_key({subject}) not in {choices}", (self.fail(check.fail),))
        constant = self.module.constant("CONST", f"json_key({_json_literal(check.value)})")
        return _If(f"json_key({subject}) != {constant}", (self.fail(check.fail),))

    def applicator(self, check: Count | Not | Conditional) -> list[_Statement]:
        subject = check.subject
        if isinstance(check, Count):
            tests = [self.passes(alternative, subject) for alternative in check.alternatives]
            if check.mode == "any":
                failed = f"not ({' or '.join(tests)})"
            else:
                failed = f"[{', '.join(tests)}].count(True) != 1"
            return [_If(failed, (self.fail(check.fail),))]
        if isinstance(check, Not):
            return [_If(self.passes(check.schema, subject), (self.fail(check.fail),))]
        test = self.passes(check.test, subject)
        then = tuple(self.checks(check.then))
        return [_If(test, then, tuple(self.checks(check.otherwise)))]
