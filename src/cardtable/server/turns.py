"""News of whose turn it is, for the pages of players who are not at the table:
the "your turn" notice of correspondence matches (``GET /api/turns/events``).

A page subscribes with the ids of the matches it holds seats in (its "your
matches"); whenever one of them comes to a new seat's turn, or ends, the page
gets ``{"match", "change": "turn", "seq", "current_player", "status", "clock"}`` and
can tell its player (the lobby marks the match; a page in the background may notify);
when somebody takes or leaves a seat, the same with ``"change": "seats"`` (the lobby
shows who joined).  What
is sent is the match's public info, which anyone who knows the id may read.

>>> feed = TurnFeed(max_subscribers=2, max_matches=3)
>>> queue = feed.subscribe(["abcdefghijkl"])
>>> feed.publish("abcdefghijkl", {"match": "abcdefghijkl", "current_player": 1})
>>> queue.get_nowait()
'{"match":"abcdefghijkl","current_player":1}'
>>> feed.publish("somethingels", {"match": "somethingels"}); queue.empty()
True
"""

from __future__ import annotations

import asyncio

from cardtable.protocol import JSON
from cardtable.server.errors import ProtocolError
from cardtable.server.validate import is_match_id
from cardtable.server.views import dumps


class TurnFeed:
    """Subscriptions to the turns of given matches, each a bounded queue of JSON texts."""

    def __init__(self, max_subscribers: int = 256, max_matches: int = 50, backlog: int = 16) -> None:
        self.max_subscribers = max_subscribers
        self.max_matches = max_matches
        self.backlog = backlog
        self.watchers: dict[str, set[asyncio.Queue[str]]] = {}
        self.subscribers = 0

    def parse_ids(self, text: str | None) -> list[str]:
        """The ``matches`` parameter: comma-separated match ids (``bad_message``)."""
        ids = [part for part in (text or "").split(",") if part]
        if not ids:
            raise ProtocolError("bad_message", "'matches' must list the ids of your matches, comma-separated")
        if len(ids) > self.max_matches:
            raise ProtocolError("bad_message", f"'matches' may list at most {self.max_matches} matches")
        bad = next((i for i in ids if not is_match_id(i)), None)
        if bad is not None:
            raise ProtocolError("bad_message", f"'matches' holds {bad[:20]!r}, which is not a match id")
        return sorted(set(ids))

    def subscribe(self, match_ids: list[str]) -> asyncio.Queue[str]:
        """A subscription to ``match_ids``, or ``busy`` (503) past ``max_subscribers``."""
        if self.subscribers >= self.max_subscribers:
            raise ProtocolError("busy", f"at most {self.max_subscribers} pages hear of turns at once; "
                                "reload instead", status=503)
        queue: asyncio.Queue[str] = asyncio.Queue(self.backlog)
        for match_id in match_ids:
            self.watchers.setdefault(match_id, set()).add(queue)
        self.subscribers += 1
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str], match_ids: list[str]) -> None:
        for match_id in match_ids:
            watching = self.watchers.get(match_id)
            if watching is not None:
                watching.discard(queue)
                if not watching:
                    del self.watchers[match_id]
        self.subscribers -= 1

    def watched(self, match_id: str) -> bool:
        return match_id in self.watchers

    def publish(self, match_id: str, news: dict[str, JSON]) -> None:
        """Tell the subscribers of ``match_id`` (a full queue misses it: its page resyncs)."""
        watching = self.watchers.get(match_id)
        if not watching:
            return
        text = dumps(news)
        for queue in watching:
            if not queue.full():
                queue.put_nowait(text)
