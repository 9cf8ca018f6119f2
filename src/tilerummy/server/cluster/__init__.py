"""Many server processes acting as one service, through Redis and a shared PostgreSQL.

Any process accepts any connection. Each room is owned by one process, which
alone runs its game and computes its players' views; the owner holds the
room's lease in Redis (:mod:`.leases`) and renews it. A connection whose room
another process owns is forwarded there over Redis pub/sub (:mod:`.router` on
the connection's side, :mod:`.guests` on the owner's, :mod:`.relay` between
them). Every process publishes its heartbeat, lobby and open rooms of people
(:mod:`.directory`); the rooms quick match opens wait on one list, by rating
(:mod:`.quick`). When a process stops, its leases expire and the others take
its rooms over from the events in PostgreSQL (:mod:`.node`), and the visits
follow each room to its new owner. ``docs/deploy.md`` tells how to run it.
"""

from .link import ClusterError, RedisDown, check_redis
from .node import ClusterNode, RoomUnanswered

__all__ = ["ClusterError", "ClusterNode", "RedisDown", "RoomUnanswered", "check_redis"]
