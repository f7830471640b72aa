"""A workaround for a kombu/Celery bug that makes a worker on Redis exit when Redis goes away.

celery 5.7.0 and kombu 5.7.0 (the newest releases; no fixed one yet). On a lost broker connection the consumer
calls ``Connection.collect()``, then ``Connection.close()`` (``on_connection_error_after_connected``, added by
celery/celery#10242 for celery/celery#9705). When closing the default channel fails early in ``collect`` (a BRPOP
was outstanding), ``collect`` still detaches the transport from its connection (``transport.client = None``) and
keeps the channel; ``close`` then closes that channel again, and its QoS restores the unacknowledged messages
through a new Redis client: ``_connparams`` reads ``transport.client.hostname``, and the AttributeError, not being
a connection error, is an "Unrecoverable error" that ends the worker (a threads worker holding messages with
threads free, so with a BRPOP outstanding: WIMS's network worker). The same crash as celery/kombu#970 and
celery/kombu#582, by another path.

The fix: a channel whose transport is detached restores nothing (Redis is unreachable anyway) and forgets its
deliveries; the messages stay in Redis' unacked index, from which kombu's ``restore_visible`` puts them back after
the visibility timeout, and WebMon's sweep re-enqueues their rows before that. Remove this module once a kombu or
Celery release closes the collected channel only once (tests/monitor/test_broker_outage.py fails without it).
"""

from __future__ import annotations

import logging

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

_original_restore_unacked = kombu_redis.QoS.restore_unacked


def _restore_unacked(self, client=None):
    transport = self.channel.connection
    if client is None and (transport is None or transport.client is None):
        # the connection was collected: nothing to connect to; the messages are still in Redis' unacked index
        log.warning(
            "broker connection gone: %d unacknowledged message(s) left to Redis, delivered again after the "
            "visibility timeout",
            len(self._delivered),
        )
        self._delivered.clear()  # restore_unacked_once expects them gone once restored
        return None
    return _original_restore_unacked(self, client)


def apply() -> None:
    """Install the workaround (idempotent)."""
    kombu_redis.QoS.restore_unacked = _restore_unacked  # type: ignore[method-assign]  # the patch itself
