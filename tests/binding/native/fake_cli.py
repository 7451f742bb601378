"""A stand-in for ``claude`` or ``codex`` (the first argument) that replays an upstream fixture.

Environment: ``FAKE_FIXTURE`` the transcript to print; ``FAKE_LOG`` a file that
gets every line read from stdin, then ``EOF`` when stdin ends; ``FAKE_EXIT``
the exit status (default 0); ``FAKE_PROMPT`` the prompt a ``--input-format
stream-json`` run must read first. As the real CLIs, ``claude`` waits on stdin
after each ``control_request``/``can_use_tool`` (only when it reads stream-json
input) and, after its ``result``, reads stdin to its end. A reply that is not
the ``control_response`` for the pending request makes it exit 4; end of file
where a reply was due, 5; a wrong prompt, 3.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _log(text: str) -> None:
    with open(os.environ["FAKE_LOG"], "a", encoding="utf-8") as log:
        log.write(text + "\n")


def _read() -> str | None:
    line = sys.stdin.readline()
    if not line:
        _log("EOF")
        return None
    _log(line.rstrip("\n"))
    return line


def _fail(status: int, message: str) -> None:
    print(f"fake: {message}", file=sys.stderr)
    sys.exit(status)


def _check_reply(event: dict[str, Any]) -> None:
    line = _read()
    if line is None:
        _fail(5, "end of file where the reply was due")
        return
    reply = json.loads(line)
    response = reply.get("response", {})
    if reply.get("type") != "control_response" or response.get("request_id") != event.get(
        "request_id"
    ):
        _fail(4, f"not the reply to {event.get('request_id')}: {line!r}")


def main() -> None:
    program, args = sys.argv[1], sys.argv[2:]
    streaming = program == "claude" and "--input-format" in args
    if streaming:
        line = _read()
        message = json.loads(line) if line else {}
        if message.get("type") != "user" or message["message"]["content"] != os.environ.get(
            "FAKE_PROMPT"
        ):
            _fail(3, f"no prompt on stdin: {line!r}")
    with open(os.environ["FAKE_FIXTURE"], encoding="utf-8") as fixture:
        for line in fixture:
            sys.stdout.write(line)
            sys.stdout.flush()
            event = json.loads(line)
            request = event.get("request", {})
            asks = event["type"] == "control_request" and request.get("subtype") == "can_use_tool"
            if streaming and asks:
                _check_reply(event)
            if streaming and event["type"] == "result":
                while _read() is not None:
                    pass
    sys.exit(int(os.environ.get("FAKE_EXIT", "0")))


if __name__ == "__main__":
    main()
