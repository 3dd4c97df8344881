"""News for lobby pages: a listed match was created, its seats changed, or it ended.

Each lobby page holds one subscription (``GET /api/lobby/events``, Server-Sent
Events) and refetches the list when told.  Bounded: at most ``max_subscribers``
pages at once, and each subscription queues at most ``backlog`` pieces of news —
a page that is that far behind refetches the whole list anyway, so further news
for it is dropped rather than queued.
"""

from __future__ import annotations

import asyncio

from cardtable.server.errors import ProtocolError
from cardtable.server.views import dumps

CHANGES = ("created", "seats", "finished")
"""What can happen to a listed match that the lobby shows."""


class LobbyFeed:
    """The lobby pages subscribed, each a bounded queue of JSON texts ``{"match", "change"}``."""

    def __init__(self, max_subscribers: int = 256, backlog: int = 8) -> None:
        self.max_subscribers = max_subscribers
        self.backlog = backlog
        self.queues: set[asyncio.Queue[str]] = set()
        self.published = 0
        """News published so far (to any number of subscribers)."""

    def subscribe(self) -> asyncio.Queue[str]:
        """A new subscription, or ``busy`` (503) when ``max_subscribers`` are open."""
        if len(self.queues) >= self.max_subscribers:
            raise ProtocolError("busy", f"at most {self.max_subscribers} lobby pages are kept up to date at once; "
                                "reload the list instead", status=503)
        queue: asyncio.Queue[str] = asyncio.Queue(self.backlog)
        self.queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        self.queues.discard(queue)

    def publish(self, match_id: str, change: str) -> None:
        """Tell every subscriber that ``change`` (one of :data:`CHANGES`) happened to a match."""
        if change not in CHANGES:
            raise ValueError(f"unknown lobby change {change!r}; one of {', '.join(CHANGES)}")
        text = dumps({"match": match_id, "change": change})
        self.published += 1
        for queue in self.queues:
            if not queue.full():
                queue.put_nowait(text)
