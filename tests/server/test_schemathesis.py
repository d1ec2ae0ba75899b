"""Schemathesis against a real server on SQLite, from its own ``/openapi.json``:
every route with and without a session (data that fits the schema and data that
does not), then a stateful run that follows the document's links (open a table,
then join, seat robots, start, act, read it...). Every answer must be no 5xx, a
status the document lists for that route, of the documented content type and
matching the documented body.

The number of examples is bounded (``EXAMPLES`` per route and mode with a
session, ``SIGNED_OUT_EXAMPLES`` without; ``SCENARIOS`` stateful scenarios of up
to ``STEPS`` calls) so that the module stays within a minute on two cores. The
figures are printed (``-s``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy  # noqa: F401  (whole before the server's threads import it lazily: see below)
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import Case, GenerationMode, Response
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from server_helpers import Client

# numpy is imported above, whole, on purpose: the server runs in this process and
# its threads import the robots' kernel (numpy) lazily, at their first decision;
# hypothesis, drawing a step meanwhile, reads ``sys.modules["numpy"].ndarray`` and
# fails on the partially initialised module (seen in the stateful run).

AnyCase = Case[Any]
EXAMPLES = 15
SIGNED_OUT_EXAMPLES = 5
"""Without a session most routes answer 401 whatever they are sent (the session is
checked before the input), so a few examples show that the refusal is the
documented one; the routes open to everyone get their ``EXAMPLES`` with a session."""
SCENARIOS = 50
STEPS = 10
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
QUICK = settings(
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate],
)


@pytest.fixture(scope="module")
def schema(base: str) -> Any:
    return schemathesis.openapi.from_url(base + "/openapi.json")


DELETES_ACCOUNT = "DELETE /api/account"
"""Deleting the account ends the session it is sent with: fuzzed with a person
of its own (every example after the first is then 401). It and the devices'
sign-outs are left out of the stateful run, which must keep Ana."""


@pytest.fixture(scope="module")
def ana(base: str) -> Iterator[Client]:
    client = Client(base)
    client.sign_in("Ana")
    yield client
    client.close()


def leaving(base: str) -> Client:
    """Someone who will delete their account."""
    client = Client(base)
    client.sign_in("Bea")
    return client


def call_kwargs(base: str, person: Client | None) -> dict[str, Any]:
    """How a request is sent: to ``base``, redirects not followed, and for a
    person their session cookie and CSRF header."""
    kwargs: dict[str, Any] = {"base_url": base, "allow_redirects": False}
    if person is not None:
        kwargs["headers"] = {"x-csrf-token": person.csrf}
        kwargs["cookies"] = dict(person.http.cookies)
    return kwargs


def run_case(case: AnyCase, kwargs: dict[str, Any], statuses: Counter[tuple[str, int]]) -> None:
    response = case.call(**kwargs)
    statuses[(case.operation.label, response.status_code)] += 1
    case.validate_response(response, checks=CHECKS)


def fuzzer(
    operation: Any,
    mode: GenerationMode,
    kwargs: dict[str, Any],
    statuses: Counter[tuple[str, int]],
    examples: int,
) -> Callable[[], None]:
    """A bounded Hypothesis run of ``operation`` in ``mode``: ``examples`` cases."""

    @settings(QUICK, max_examples=examples)
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case: AnyCase) -> None:
        run_case(case, kwargs, statuses)

    result: Callable[[], None] = fuzz
    return result


def test_every_route_with_and_without_a_session(base: str, schema: Any, ana: Client) -> None:
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 25
    statuses: Counter[tuple[str, int]] = Counter()
    signed_in: Counter[tuple[str, int]] = Counter()
    failures: list[str] = []
    for operation in operations:
        for person in (None, ana if operation.label != DELETES_ACCOUNT else leaving(base)):
            inputs = len(operation.body) + len(operation.path_parameters) + len(operation.query)
            modes = [GenerationMode.POSITIVE] + ([GenerationMode.NEGATIVE] if inputs else [])
            for mode in modes:
                try:
                    counter = statuses if person is None else signed_in
                    examples = SIGNED_OUT_EXAMPLES if person is None else EXAMPLES
                    fuzzer(operation, mode, call_kwargs(base, person), counter, examples)()
                except Unsatisfiable:
                    # nothing to make wrong: any string is a resume token
                    assert mode is GenerationMode.NEGATIVE, operation.label
                except (Exception, BaseExceptionGroup) as exc:  # gathered, reported together
                    who = "with a session" if person else "without a session"
                    failures.append(f"{operation.label} {who} ({mode}): {exc}"[:2000])
    # the session was sent: signed in, nothing asks for one
    assert not [key for key in signed_in if key[1] == 401 and key[0] != DELETES_ACCOUNT], signed_in
    assert signed_in[(DELETES_ACCOUNT, 200)] == 1, signed_in
    statuses.update(signed_in)
    covered = {label for label, _ in statuses}
    print(
        f"\nschemathesis: {len(covered)} of {len(operations)} routes,"
        f" {sum(statuses.values())} requests, {len(failures)} failures;"
        f" statuses {dict(Counter(s for _, s in statuses.elements()))}"
    )
    assert not failures, "\n\n".join(failures)
    assert covered == {operation.label for operation in operations}
    assert not [s for _, s in statuses if s >= 500]


def stateful(schema: Any, kwargs: dict[str, Any], statuses: Counter[tuple[str, int]]) -> Any:
    """Schemathesis' state machine of the document's links, sending ``kwargs``."""

    class Run(schema.as_state_machine()):  # type: ignore[misc]
        def get_call_kwargs(self, case: AnyCase) -> dict[str, Any]:
            return kwargs

        def after_call(self, response: Response, case: AnyCase) -> None:
            statuses[(case.operation.label, response.status_code)] += 1

        def validate_response(
            self, response: Response, case: AnyCase, additional_checks: Any = None, **kw: Any
        ) -> None:
            case.validate_response(response, checks=CHECKS)

    return Run


def test_stateful_run_with_and_without_a_session(base: str, schema: Any, ana: Client) -> None:
    statuses: Counter[tuple[str, int]] = Counter()
    # signing out (schemathesis reuses the devices' ids it was answered) and
    # deleting the account would end Ana's session in the middle of the run
    kept = schema.exclude(path_regex="^/api/account", method="DELETE")
    for person in (ana, None):
        run = stateful(kept, call_kwargs(base, person), statuses)
        run.run(settings=settings(QUICK, max_examples=SCENARIOS, stateful_step_count=STEPS))
    print(
        f"\nschemathesis stateful: {len({label for label, _ in statuses})} routes,"
        f" {sum(statuses.values())} requests, statuses"
        f" {dict(Counter(s for _, s in statuses.elements()))}"
    )
    # the links were followed: tables opened, then used with their real id
    assert statuses[("POST /api/tables", 201)] > 0
    followed = {label for (label, status) in statuses if "{table_id}" in label and status < 300}
    assert len(followed) >= 3, statuses
