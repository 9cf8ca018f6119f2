"""The cluster router passes on one answer per request, and a request its client sends again
itself is owed an answer again (the owner's first, once more): no server, no Redis."""

from __future__ import annotations

import json
from typing import Any

from tilerummy.server.cluster.router import ClusterRouter, Visit
from tilerummy.server.members import Member


class Outbox:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)

    def close(self, code: int, reason: str) -> None:
        raise AssertionError("the connection is not to be closed")


class Relay:
    def __init__(self) -> None:
        self.posted: list[tuple[str, ...]] = []

    def post(self, *parts: str) -> None:
        self.posted.append(parts)


def router_and_visit() -> tuple[ClusterRouter, Visit, Outbox, Relay]:
    router = ClusterRouter.__new__(ClusterRouter)
    relay = Relay()
    router.relay = relay  # type: ignore[assignment]
    outbox = Outbox()
    visit = Visit(member=Member(outbox=outbox), node="owner", code="ABCDEF", join_text=None, session="s1")
    return router, visit, outbox, relay


def request(number: int) -> tuple[str, dict[str, Any]]:
    body = {"type": "draw_tile", "id": number, "seq": 4}
    return json.dumps(body), body


ANSWER = '{"reply_to":7,"type":"game","seq":5}'


def test_a_second_answer_to_one_request_is_not_passed_on() -> None:
    router, visit, outbox, relay = router_and_visit()
    text, body = request(7)
    router._forward(visit, text, body)
    assert relay.posted == [("owner", "text", "s1", text)]
    router._pass_on(visit, ANSWER)
    # The same request reached two owners (a takeover meanwhile): the second answer is dropped.
    router._pass_on(visit, ANSWER)
    assert outbox.sent == [ANSWER]
    assert not visit.unanswered


def test_a_request_the_client_sends_again_is_answered_again() -> None:
    router, visit, outbox, relay = router_and_visit()
    text, body = request(7)
    router._forward(visit, text, body)
    router._pass_on(visit, ANSWER)
    # The client did not know whether its request arrived, and sends it again itself.
    router._forward(visit, text, body)
    assert json.dumps(7) in visit.unanswered
    router._pass_on(visit, ANSWER)
    assert outbox.sent == [ANSWER, ANSWER]
    assert len(relay.posted) == 2
