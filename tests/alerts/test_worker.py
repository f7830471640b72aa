"""A real Celery worker sends an alert through the file e-mail backend (as `make run` does)."""

import email
import time
from datetime import timedelta

import pytest
from celery import current_app
from django.conf import settings
from django.utils import timezone

from alerts import services
from alerts.models import Delivery, Subscription
from classifier import services as kb_services

pytestmark = pytest.mark.worker


def wait_for(predicate, timeout=60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_the_scan_task_and_a_worker_send_the_alert_to_the_mail_folder(
    start_worker, tmp_path, reader, editor, tree, make_article, suggest
):
    assert settings.CELERY_TASK_ROUTES["alerts.send"] == {"queue": "alerts"}
    worker = start_worker(
        queues="celery,alerts",
        extra_env={
            "EMAIL_BACKEND": "django.core.mail.backends.filebased.EmailBackend",
            "EMAIL_FILE_PATH": str(tmp_path),
        },
    )
    sub = services.save_subscription(Subscription(user=reader, folder=tree["health"]))
    article = make_article(title="Measles outbreak in the north")
    kb_services.accept(suggest(article, tree["measles"]), editor)

    current_app.send_task("alerts.scan")
    assert wait_for(lambda: list(tmp_path.iterdir())), worker.log()
    assert wait_for(lambda: Delivery.objects.filter(state=Delivery.State.SENT).exists()), worker.log()
    (sent,) = tmp_path.iterdir()
    message = email.message_from_string(sent.read_text().rsplit("\n" + "-" * 79, 1)[0])
    assert message["To"] == "reader@example.org" and "Measles outbreak in the north" in message["Subject"]
    assert message["List-Unsubscribe"].strip() == f"<{services.unsubscribe_url(sub)}>"  # folded: long
    assert [part.get_content_type() for part in message.get_payload()] == ["text/plain", "text/html"]

    # the scan again, and a send task delivered twice: nothing more is sent
    current_app.send_task("alerts.scan")
    current_app.send_task("alerts.send", (sub.pk,))
    current_app.send_task("alerts.send", (sub.pk,))
    assert wait_for(lambda: worker.log().count("succeeded") >= 4, timeout=30), worker.log()
    assert len(list(tmp_path.iterdir())) == 1
    assert Delivery.objects.get().state == Delivery.State.SENT


def test_a_worker_killed_mid_send_never_sends_twice_and_the_failure_is_shown(
    start_worker, reader, editor, tree, make_article, suggest, webhook
):
    webhook.delay = 30  # the service takes its time: the worker is killed while it waits
    sub = services.save_subscription(
        Subscription(
            user=reader,
            folder=tree["health"],
            channel="apprise",
            notify_url=webhook.url(),
            allow_private_addresses=True,
        )
    )
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    worker = start_worker(queues="celery,alerts", pool="threads", concurrency=2)
    current_app.send_task("alerts.scan")
    assert wait_for(lambda: webhook.requests), worker.log()
    worker.kill()
    assert Delivery.objects.get().state == Delivery.State.SENDING

    # the lease runs out; the next scan marks it failed instead of sending it again
    later = timezone.now() + services.LEASE + timedelta(seconds=1)
    assert services.scan(now=later) == []
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and "worker stopped while sending" in row.error
    second = start_worker(queues="celery,alerts", pool="threads", concurrency=2)
    current_app.send_task("alerts.scan")
    current_app.send_task("alerts.send", (sub.pk,))
    assert wait_for(lambda: second.log().count("succeeded") >= 2, timeout=30), second.log()
    assert len(webhook.requests) == 1, "never a second message"
