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

A second path to the same AttributeError: a task that finishes while the connection is down is acknowledged (or
rejected) on the event loop once the consumer has reconnected, through the message's old, collected channel
(``QoS.ack`` builds a Redis client from ``channel.connection``, now None); the network worker exited that way
right after Redis came back. It shows when task results are not stored (CELERY_TASK_IGNORE_RESULT): with results
stored, a task finishing in the outage did not reach its acknowledgement this way (not traced further).

The fix: a channel whose transport is detached restores, acknowledges and rejects nothing (Redis is unreachable
through it anyway) and forgets those deliveries; the messages stay in Redis' unacked index, from which kombu's
``restore_visible`` puts them back after the visibility timeout (a task that finds its row's work done, or claimed),
and WebMon's sweep re-enqueues unfinished rows before that. Remove this module once a kombu or Celery release closes
the collected channel only once and acknowledges through the new one (tests/monitor/test_broker_outage.py fails
without it).
"""

from __future__ import annotations

import logging

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)

_original_restore_unacked = kombu_redis.QoS.restore_unacked
_original_ack = kombu_redis.QoS.ack
_original_reject = kombu_redis.QoS.reject


def _detached(qos) -> bool:
    """The channel's connection was collected (a lost broker connection): it can no longer reach Redis."""
    transport = qos.channel.connection
    return transport is None or transport.client is None


def _restore_unacked(self, client=None):
    if client is None and _detached(self):
        # the connection was collected: nothing to connect to; the messages are still in Redis' unacked index
        log.warning(
            "broker connection gone: %d unacknowledged message(s) left to Redis, delivered again after the "
            "visibility timeout",
            len(self._delivered),
        )
        self._delivered.clear()  # restore_unacked_once expects them gone once restored
        return None
    return _original_restore_unacked(self, client)


def _ack(self, delivery_tag):
    if _detached(self):
        _left_to_redis(self, delivery_tag, "acknowledgement")
        return None
    return _original_ack(self, delivery_tag)


def _reject(self, delivery_tag, requeue=False):
    if _detached(self):
        _left_to_redis(self, delivery_tag, "rejection")
        return None
    return _original_reject(self, delivery_tag, requeue=requeue)


def _left_to_redis(qos, delivery_tag, what: str) -> None:
    # A task that finished after its message's connection was lost: the worker acknowledges it on the event loop
    # once the consumer has reconnected, through the old channel (Celery keeps no link from a message to the new
    # one). The message stays in Redis' unacked index and comes back after the visibility timeout, to a task
    # that finds its row's work done.
    log.warning("broker connection was lost: %s of message %s left to Redis", what, delivery_tag)
    qos._delivered.pop(delivery_tag, None)


def apply() -> None:
    """Install the workaround (idempotent)."""
    kombu_redis.QoS.restore_unacked = _restore_unacked  # type: ignore[method-assign]  # the patch itself
    kombu_redis.QoS.ack = _ack  # type: ignore[method-assign]
    kombu_redis.QoS.reject = _reject  # type: ignore[method-assign]
