"""The JavaScript renderer of the schema compiler's checks (:mod:`..schema_checks`).

The compiler decides every verdict, pointer, rule and message; this module only
writes each check as JavaScript, beside ``_python_checks`` (the Python
renderer), so both bindings report the same errors. Every schema string lands
in a double-quoted literal (:func:`._escape.js_string`); member values are
bound with ``const`` inside their own block, so names never collide.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass

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
from ._escape import js_string

__all__ = ["JsChecks", "JsModule", "js_literal"]

_TYPE_TESTS = {
    "null": "{} === null",
    "boolean": 'typeof {} === "boolean"',
    "integer": "isInteger({})",
    "number": "isNumber({})",
    "string": 'typeof {} === "string"',
    "array": "Array.isArray({})",
    "object": "isPlainObject({})",
}
"""JSON type -> its test on a JavaScript value as the binding reads it (bigint included)."""
_SAFE = 2**53 - 1


def js_literal(value: object) -> str:
    """A JavaScript expression for a JSON value: integers past 2^53 as BigInt, every string
    escaped, and object members defined as own properties (``__proto__`` included)."""
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, int):
        return str(value) if abs(value) <= _SAFE else f'BigInt("{value}")'
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("a schema number is finite")
        return repr(value)
    if isinstance(value, str):
        return js_string(value)
    if isinstance(value, list):
        return "[" + ", ".join(js_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        members = ", ".join(f"[{js_string(k)}, {js_literal(v)}]" for k, v in value.items())
        return f"Object.fromEntries([{members}])"
    raise ValueError(f"not a JSON value: {type(value).__name__}")


def _name(var: Var) -> str:
    if var.role == "payload" or (var.role == "value" and var.depth == 0):
        return var.role
    return f"{var.role}_{var.depth}"


def _pointer(pointer: Pointer) -> str:
    expression = "pointer" if pointer.from_argument else '""'
    for step in pointer.steps:
        if isinstance(step, str) and expression == '""':
            expression = js_string("/" + step)
        elif isinstance(step, str):
            expression = f"{expression} + {js_string('/' + step)}"
        elif step.role == "key":
            expression = f"memberPointer({expression}, {_name(step)})"
        else:
            expression = f'{expression} + "/" + {_name(step)}'
    return expression


def _block(head: str, body: list[str]) -> list[str]:
    """``head { body }``; an empty head makes a plain block, a scope for ``const``."""
    return [f"{head} {{" if head else "{", *(f"  {line}" for line in body), "}"]


JsModule = RenderedModule
"""What the documents of one ES module share."""

_SIGNATURE = "(value, pointer, errors, depth)"


@dataclass
class JsChecks(ChecksRenderer[str, JsModule]):
    """Writes one document's checks as JavaScript statements into ``module``."""

    def body(self) -> list[str]:
        return self.checks(self.document.checks)

    def function_text(self, name: str, statements: list[str]) -> str:
        return "\n".join(_block(f"function {name}{_SIGNATURE}", statements))

    def ref_function_text(self, name: str, target: str) -> str:
        too_deep = js_string(REF_TOO_DEEP)
        guard = _block(
            "if (depth > MAX_NESTING_DEPTH)",
            [f'errors.push(new PayloadError(pointer, "$ref", {too_deep}, {too_deep}));', "return;"],
        )
        body = [*guard, *self.checks(self.document.refs[target])]
        return "\n".join(_block(f"function {name}{_SIGNATURE}", body))

    def boolean(self, value: bool) -> str:
        return "true" if value else "false"

    def passes_call(self, function: str, subject: Var) -> str:
        return f"passes({function}, {_name(subject)}, depth)"

    def pattern(self, source: str) -> str:
        return self.module.constant("PATTERN", f'new RegExp({js_string(source)}, "u")')

    def fail(self, fail: Fail) -> str:
        parts = [_pointer(fail.at), *(js_string(text) for text in (fail.rule, fail.message))]
        return f"errors.push(new PayloadError({', '.join(parts)}, {js_string(fail.detail)}));"

    def ref_call(self, function: str, check: RefCall) -> str:
        return f"{function}({_name(check.subject)}, {_pointer(check.at)}, errors, depth + 1);"

    def scalar_check(self, check: Size | NumberBound | MultipleOf | Pattern | Unique) -> list[str]:
        return _block(f"if ({self.scalar(check)})", [self.fail(check.fail)])

    def equality_check(self, check: Enum | Const) -> list[str]:
        return _block(f"if ({self.equality(check)})", [self.fail(check.fail)])

    def type_switch(self, check: TypeSwitch) -> list[str]:
        subject = _name(check.subject)
        lines: list[str] = []
        for index, branch in enumerate(check.branches):
            test = " || ".join(_TYPE_TESTS[name].format(subject) for name in branch.types)
            head = "if" if index == 0 else "} else if"
            lines += [f"{head} ({test}) {{", *(f"  {line}" for line in self.checks(branch.checks))]
        if check.otherwise is not None:
            fail = self.fail(check.otherwise)
            lines += ["} else {", f"  {fail}"] if lines else [fail]
        return [*lines, "}"] if check.branches else lines

    def scalar(self, check: Size | NumberBound | MultipleOf | Pattern | Unique) -> str:
        subject = _name(check.subject)
        if isinstance(check, Size):
            return f"size({subject}) {check.operator} {check.bound}"
        if isinstance(check, NumberBound):
            bound = self.module.constant("BOUND", js_literal(check.bound))
            return f"{subject} {check.operator} {bound}"
        if isinstance(check, MultipleOf):
            divisor = self.module.constant("BOUND", js_literal(check.divisor))
            exact = "true" if isinstance(check.divisor, float) else "false"
            return f"!multipleOf({subject}, {divisor}, {exact})"
        if isinstance(check, Pattern):
            return f"!{self.pattern(check.source)}.test({subject})"
        return f"!allUnique({subject})"

    def array(self, check: ItemAt | EachItem | Contains) -> list[str]:
        subject, item = _name(check.subject), _name(check.item)
        if isinstance(check, ItemAt):
            body = [f"const {item} = {subject}[{check.position}];", *self.checks(check.checks)]
            return _block(f"if ({subject}.length > {check.position})", body)
        if isinstance(check, EachItem):
            index = _name(check.index)
            head = f"for (let {index} = {check.start}; {index} < {subject}.length; {index}++)"
            return _block(head, [f"const {item} = {subject}[{index}];", *self.checks(check.checks)])
        count = _name(check.count)
        test = self.passes(check.test, check.item)
        body = [f"let {count} = 0;", f"for (const {item} of {subject}) if ({test}) {count}++;"]
        if check.least > 0:
            body += _block(f"if ({count} < {check.least})", [self.fail(check.fail_least)])
        if check.fail_most is not None:
            body += _block(f"if ({count} > {check.most})", [self.fail(check.fail_most)])
        return _block("", body)

    def member(self, check: Required | DependentRequired | IfPresent | Member) -> list[str]:
        subject, name = _name(check.subject), js_string(check.name)
        has = f"Object.hasOwn({subject}, {name})"
        if isinstance(check, Required):
            return _block(f"if (!{has})", [self.fail(check.fail)])
        if isinstance(check, DependentRequired):
            needed = f"Object.hasOwn({subject}, {js_string(check.needed)})"
            return _block(f"if ({has} && !{needed})", [self.fail(check.fail)])
        if isinstance(check, IfPresent):
            return _block(f"if ({has})", self.checks(check.checks))
        var = _name(check.var)
        body = [f"const {var} = {has} ? {subject}[{name}] : ABSENT;"]
        checks = self.checks(check.checks)
        if check.absent is not None:
            body += [
                f"if ({var} === ABSENT) {{",
                f"  {self.fail(check.absent)}",
                *(["} else {", *(f"  {line}" for line in checks)] if checks else []),
                "}",
            ]
        elif checks:
            body += _block(f"if ({var} !== ABSENT)", checks)
        return _block("", body)

    def each_member(self, check: EachMember) -> list[str]:
        key, member = _name(check.key), _name(check.member)
        body = [f"const {member} = {_name(check.subject)}[{key}];", *self.checks(check.key_checks)]
        matched: list[str] = []
        for pattern in check.patterns:
            test = f"{self.pattern(pattern.source)}.test({key})"
            matched.append(test)
            if pattern.checks:
                body += _block(f"if ({test})", self.checks(pattern.checks))
        if check.additional is not None:
            known = self.module.constant(
                "KNOWN", f"new Set({js_literal(list(check.additional.known))})"
            )
            others = [f"!{known}.has({key})", *(f"!{test}" for test in matched)]
            body += _block(f"if ({' && '.join(others)})", self.checks(check.additional.checks))
        return _block(f"for (const {key} of Object.keys({_name(check.subject)}))", body)

    def equality(self, check: Enum | Const) -> str:
        subject = _name(check.subject)
        if isinstance(check, Enum):
            values = js_literal(list(check.values))
            choices = self.module.constant(
                "ENUM", f"new Set({values}.map((item) => jsonKey(item)))"
            )
            return f"!{choices}.has(jsonKey({subject}))"
        constant = self.module.constant("CONST", f"jsonKey({js_literal(check.value)})")
        return f"jsonKey({subject}) !== {constant}"

    def applicator(self, check: Count | Not | Conditional) -> list[str]:
        subject = check.subject
        if isinstance(check, Count):
            tests = [self.passes(alternative, subject) for alternative in check.alternatives]
            if check.mode == "any":
                failed = f"!({' || '.join(tests)})"
            else:
                failed = f"[{', '.join(tests)}].filter(Boolean).length !== 1"
            return _block(f"if ({failed})", [self.fail(check.fail)])
        if isinstance(check, Not):
            return _block(f"if ({self.passes(check.schema, subject)})", [self.fail(check.fail)])
        then, otherwise = self.checks(check.then), self.checks(check.otherwise)
        lines = _block(f"if ({self.passes(check.test, subject)})", then)
        if otherwise:
            lines = [*lines[:-1], "} else {", *(f"  {line}" for line in otherwise), "}"]
        return lines
