"""Notification connections are held to the address rule where names are resolved (alerts/guard.py)."""

import contextvars
import socket
import threading

import pytest
from django.core import mail

from alerts import channels, guard, services
from alerts.models import Delivery, Subscription
from classifier import services as kb_services


def test_inside_the_block_refused_addresses_are_dropped_and_none_left_fails():
    with guard.only_addresses(lambda address: False), pytest.raises(guard.AddressRefused, match="127.0.0.1"):
        socket.getaddrinfo("127.0.0.1", 80)
    with guard.only_addresses(lambda address: address != "127.0.0.1"):
        assert socket.getaddrinfo("127.0.0.2", 80), "an allowed address passes"
    # outside the block, and in other threads (WebMon's fetches), nothing changes
    assert socket.getaddrinfo("127.0.0.1", 80)
    seen = []
    with guard.only_addresses(lambda address: False):
        thread = threading.Thread(target=lambda: seen.append(socket.getaddrinfo("127.0.0.1", 80)))
        thread.start()
        thread.join()
        # a thread started with a copy of the context (as Apprise's worker threads are) is held to it
        errors = []

        def copied():
            try:
                socket.getaddrinfo("127.0.0.1", 80)
            except guard.AddressRefused as exc:
                errors.append(exc)

        context = contextvars.copy_context()
        thread = threading.Thread(target=context.run, args=(copied,))
        thread.start()
        thread.join()
    assert seen and len(errors) == 1


@pytest.mark.django_db
def test_a_host_that_turns_private_after_the_check_is_not_connected_to(
    reader, editor, tree, make_article, suggest, webhook, monkeypatch
):
    """DNS rebinding: the URL passed the check (public then), resolves to loopback at the send."""
    subscribe = services.save_subscription
    subscribe(Subscription(user=reader, folder=tree["health"], channel="apprise", notify_url=webhook.url()))
    monkeypatch.setattr(channels, "check_notify_url", lambda url, allow_private=False: "JSON")
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    (result,) = [services.send(pk) for pk in services.scan()]
    assert result.startswith("will retry")
    assert not webhook.requests, "no connection was made"
    assert "Connection error" in Delivery.objects.get().error and not mail.outbox
