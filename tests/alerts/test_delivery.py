"""Alerts and digests end to end in one process: an expert's accept (classifier.services.accept, as the accept
view calls it) -> the scan -> the send, through Django's locmem mail backend, a real JSON webhook on loopback
(Apprise) and a real refused SMTP connection."""

import datetime
import email
import email.policy
import itertools
import socket
from zoneinfo import ZoneInfo

import pytest
from django.core import mail
from django.utils import timezone

from alerts import services
from alerts.models import Delivery, Subscription
from classifier import services as kb_services
from classifier.models import Classification
from tests.metrics import counted

pytestmark = pytest.mark.django_db


def subscribe(user, folder=None, **fields):
    return services.save_subscription(Subscription(user=user, folder=folder, **fields))


def scan_and_send(now=None):
    """What the beat and the workers do: scan, then send what is due."""
    results = [services.send(pk, now=now) for pk in services.scan(now=now)]
    return results


def test_an_accept_into_the_folder_sends_an_immediate_alert(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    article = make_article(title="Measles <script>alert(1)</script> outbreak")
    case = suggest(article, tree["measles"])
    assert scan_and_send() == [], "a suggestion is not an alert"

    sent = counted("wims_alert_messages_total", kind="alert", outcome="sent")
    kb_services.accept(case, editor)
    assert scan_and_send() == ["sent 1 by email"]
    assert counted("wims_alert_messages_total", kind="alert", outcome="sent") == sent + 1

    (message,) = mail.outbox
    assert message.to == ["reader@example.org"]
    assert "Measles <script>alert(1)</script> outbreak" in message.subject
    text = message.body
    for expected in ("Health/Measles", "Health Daily", "Cases of measles rose sharply", article.url):
        assert expected in text
    assert f"http://127.0.0.1:8000/articles/{article.pk}/" in text
    html, mime = message.alternatives[0]
    assert mime == "text/html"
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "<script>" not in html
    assert f'href="{article.url}"' in html
    unsubscribe = services.unsubscribe_url(sub)
    assert message.extra_headers["List-Unsubscribe"] == f"<{unsubscribe}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert unsubscribe in text and unsubscribe in html
    assert Delivery.objects.get().state == Delivery.State.SENT


def test_a_long_non_ascii_subject_folds_as_rfc_5322_says(reader, editor, tree, make_article, suggest):
    """Issue 30's trial: the Subject of such an alert began on an empty folded line, was base64 throughout and
    decoded with a leading space. Folded by email.policy.SMTP, it starts on its own line, keeps the ASCII words
    readable, breaks at spaces within 78 characters and decodes to the subject exactly."""
    subscribe(reader, tree["health"])
    title = "Rougeole : l’épidémie s’étend à la région Provence-Alpes-Côte d’Azur, selon l’Agence régionale de santé"
    kb_services.accept(suggest(make_article(title=title), tree["measles"]), editor)
    assert scan_and_send() == ["sent 1 by email"]
    (message,) = mail.outbox

    raw = message.message().as_bytes(linesep="\r\n")
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii")
    (start,) = [i for i, line in enumerate(head.split("\r\n")) if line.startswith("Subject:")]
    lines = head.split("\r\n")
    folded = [lines[start]] + list(itertools.takewhile(lambda line: line.startswith(" "), lines[start + 1 :]))
    assert folded[0].startswith("Subject: [WIMS] "), folded[0]
    assert len(folded) > 1 and all(len(line) <= 78 for line in folded)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"] == message.subject == f"[WIMS] {tree['health'].path}: {title}"
    assert parsed["List-Unsubscribe"].strip().startswith("<http")  # the other headers are still there


@pytest.mark.parametrize("title", ["Santé : un bilan", "“Asthma” clinics"])
def test_a_short_non_ascii_subject_is_encoded_and_sent(
    title, reader, editor, tree, make_article, suggest, settings, tmp_path
):
    """A live trial: a Subject that fits one line went out with its non-ASCII characters unencoded, and the
    file backend `make run` uses (as SMTP would) refused it: UnicodeEncodeError, the alert never sent."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
    settings.EMAIL_FILE_PATH = str(tmp_path)
    subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(title=title), tree["measles"]), editor)
    assert scan_and_send() == ["sent 1 by email"]
    (written,) = tmp_path.iterdir()
    raw = written.read_bytes()
    head = raw.split(b"\n\n", 1)[0].decode("ascii")  # RFC 2047: encoded words, never raw UTF-8 in a header
    assert "=?utf-8?" in head
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert parsed["Subject"] == f"[WIMS] {tree['health'].path}: {title}"


def test_only_accepts_in_the_subtree_after_the_subscription_count(reader, editor, tree, make_article, suggest):
    before = suggest(make_article(title="Before"), tree["measles"])
    kb_services.accept(before, editor)
    sub = subscribe(reader, tree["measles"])
    elsewhere = suggest(make_article(title="Football"), tree["sport"], tree["health"])
    kb_services.accept(elsewhere, editor, folders=[tree["sport"]])  # Health stays a suggestion
    rejected = suggest(make_article(title="Rejected"), tree["measles"])
    kb_services.reject(rejected, tree["measles"], editor)
    assert scan_and_send() == []
    assert not mail.outbox and not sub.deliveries.exists()


def test_scanning_twice_and_sending_twice_sends_once(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    due = services.scan()
    assert due == services.scan() == [sub.pk], "the second scan finds the same, stored once"
    assert Delivery.objects.count() == 1
    assert services.send(sub.pk) == "sent 1 by email"
    assert services.send(sub.pk) == "nothing due", "a redelivered or retried task finds nothing to send"
    assert services.scan() == [] and len(mail.outbox) == 1


def test_a_late_committed_accept_within_the_overlap_is_still_found(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    case = suggest(make_article(), tree["health"])
    kb_services.accept(case, editor)
    # the scan ran after the decision's timestamp but before its transaction was visible: cursor past it
    Subscription.objects.filter(pk=sub.pk).update(cursor=timezone.now() + datetime.timedelta(minutes=2))
    assert services.scan() == [sub.pk]


def test_a_worker_killed_mid_send_leaves_a_visible_failure_never_a_second_message(
    reader, editor, tree, make_article, suggest
):
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    services.scan()
    # the send claimed the row, then its worker died before recording the outcome
    Delivery.objects.update(
        state=Delivery.State.SENDING, claim="dead", lease_until=timezone.now() - datetime.timedelta(seconds=1)
    )
    failed = counted("wims_alert_messages_total", kind="alert", outcome="failed")
    assert services.scan() == []
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and "worker stopped while sending" in row.error
    assert counted("wims_alert_messages_total", kind="alert", outcome="failed") == failed + 1
    services.scan()
    assert counted("wims_alert_messages_total", kind="alert", outcome="failed") == failed + 1, "counted once"
    assert services.send(sub.pk) == "nothing due" and not mail.outbox
    # the subscriber decides to have it again
    assert services.retry_failed(sub) == 1
    scan_and_send()
    assert len(mail.outbox) == 1 and Delivery.objects.get().state == Delivery.State.SENT


def test_a_daily_digest_at_eight_in_berlin_holds_the_days_articles(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"], frequency="daily", send_time=datetime.time(8), time_zone="Europe/Berlin")
    berlin = ZoneInfo("Europe/Berlin")
    local = sub.next_digest_at.astimezone(berlin)
    assert (local.hour, local.minute) == (8, 0) and sub.next_digest_at > timezone.now()
    assert sub.next_digest_at - timezone.now() <= datetime.timedelta(days=1)

    first, second = make_article(title="First story"), make_article(title="Second story")
    kb_services.accept(suggest(first, tree["health"]), editor)
    kb_services.accept(suggest(second, tree["measles"]), editor)
    assert scan_and_send() == [], "nothing before eight"
    assert set(Delivery.objects.values_list("due_at", flat=True)) == {sub.next_digest_at}

    eight = sub.next_digest_at + datetime.timedelta(seconds=5)
    digests = counted("wims_alert_messages_total", kind="digest", outcome="sent")
    assert scan_and_send(now=eight) == ["sent 2 by email"]
    assert counted("wims_alert_messages_total", kind="digest", outcome="sent") == digests + 1, "one message"
    (digest,) = mail.outbox
    assert digest.subject == "[WIMS] Daily digest: 2 new articles in Health"
    assert "First story" in digest.body and "Second story" in digest.body
    assert "Health/Measles" in digest.body
    html = digest.alternatives[0][0]
    assert "First story" in html and "Second story" in html
    sub.refresh_from_db()
    assert sub.next_digest_at.astimezone(berlin) == (local + datetime.timedelta(days=1)).replace(hour=8)
    # an accept after the digest (the clock moved on: its decision is dated after eight) waits for the next one
    kb_services.accept(suggest(make_article(title="Third"), tree["health"]), editor)
    later = eight + datetime.timedelta(seconds=10)
    Classification.objects.filter(case__article__title="Third").update(decided_at=later, updated_at=later)
    assert scan_and_send(now=eight + datetime.timedelta(seconds=30)) == []
    assert Delivery.objects.get(article__title="Third").due_at == sub.next_digest_at


def test_a_weekly_digest_goes_on_its_weekday_and_empty_digests_are_not_sent(reader, editor, tree):
    sub = subscribe(
        reader, tree["health"], frequency="weekly", weekday=2, send_time=datetime.time(18, 30), time_zone="Asia/Tokyo"
    )
    local = sub.next_digest_at.astimezone(ZoneInfo("Asia/Tokyo"))
    assert local.weekday() == 2 and (local.hour, local.minute) == (18, 30)
    after = sub.next_digest_at + datetime.timedelta(seconds=1)
    assert scan_and_send(now=after) == [] and not mail.outbox
    sub.refresh_from_db()
    assert sub.next_digest_at.astimezone(ZoneInfo("Asia/Tokyo")) == local + datetime.timedelta(days=7)


def test_changing_to_a_digest_re_times_what_waits(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    services.scan()
    sub.frequency, sub.time_zone = "daily", "America/New_York"
    services.save_subscription(sub)
    assert Delivery.objects.get().due_at == sub.next_digest_at
    assert services.send(sub.pk) == "nothing due"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_refused_smtp_connection_is_retried_then_recorded_as_failed(
    reader, editor, tree, make_article, suggest, settings
):
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_TIMEOUT = "127.0.0.1", closed_port(), 5
    settings.WIMS_ALERT_MAX_ATTEMPTS = 2
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    retried, failed = (counted("wims_alert_messages_total", kind="alert", outcome=o) for o in ("retry", "failed"))
    (result,) = scan_and_send()
    assert result.startswith("will retry (1 attempts): could not send the e-mail")
    assert counted("wims_alert_messages_total", kind="alert", outcome="retry") == retried + 1
    row = Delivery.objects.get()
    assert row.state == Delivery.State.PENDING and "Connection refused" in row.error
    assert row.due_at > timezone.now() + datetime.timedelta(seconds=50), "backs off"
    assert scan_and_send() == [], "not before its time"
    (result,) = scan_and_send(now=row.due_at + datetime.timedelta(seconds=1))
    assert result.startswith("failed after 2 attempts")
    assert counted("wims_alert_messages_total", kind="alert", outcome="failed") == failed + 1
    row.refresh_from_db()
    assert row.state == Delivery.State.FAILED and row.attempts == 2 and "Connection refused" in row.error
    assert services.send(sub.pk, now=row.due_at + datetime.timedelta(hours=1)) == "nothing due"


def test_an_account_without_an_address_fails_at_once_with_the_reason(editor, tree, make_article, suggest):
    subscribe(editor, tree["health"])
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    scan_and_send()
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and "no e-mail address" in row.error


def test_apprise_posts_to_a_real_json_webhook(reader, editor, tree, make_article, suggest, webhook):
    sub = subscribe(
        reader, tree["health"], channel="apprise", notify_url=webhook.url("alerts"), allow_private_addresses=True
    )
    article = make_article(title="Measles [click](javascript:alert(1)) news")
    kb_services.accept(suggest(article, tree["measles"]), editor)
    assert scan_and_send() == ["sent 1 by apprise"]
    (payload,) = webhook.payloads()
    assert webhook.requests[0]["path"] == "/alerts"
    assert payload["title"].startswith("[WIMS] Health: Measles")
    body = payload["message"]
    assert article.url in body and f"/articles/{article.pk}/" in body
    assert services.unsubscribe_url(sub) in body
    assert "\\[click\\]\\(javascript:alert\\(1\\)\\)" in body, "untrusted title is Markdown-escaped"
    assert "Health/Measles" in body
    assert not mail.outbox


def test_a_refusing_webhook_is_recorded_with_apprises_reason(
    reader, editor, tree, make_article, suggest, webhook, settings
):
    settings.WIMS_ALERT_MAX_ATTEMPTS = 1
    webhook.status = 500
    subscribe(reader, tree["health"], channel="apprise", notify_url=webhook.url(), allow_private_addresses=True)
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    (result,) = scan_and_send()
    assert result.startswith("failed after 1 attempts")
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and "500" in row.error and len(webhook.requests) == 1


def test_a_private_address_is_refused_at_send_time_without_a_superusers_allowance(
    reader, editor, tree, make_article, suggest, webhook
):
    subscribe(reader, tree["health"], channel="apprise", notify_url=webhook.url(), allow_private_addresses=True)
    Subscription.objects.update(allow_private_addresses=False)  # e.g. a superuser withdrew it
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    scan_and_send()
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and "private" in row.error and not webhook.requests


@pytest.mark.parametrize(
    "notify_url",
    ["syslog://", "json://93.184.215.14/hook json://127.0.0.1:{port}/second"],
    ids=["local syslog", "a second private URL"],
)
def test_a_url_stored_before_the_checks_is_refused_at_send_time(
    reader, editor, tree, make_article, suggest, webhook, notify_url
):
    """Saved without the form (an older release's checks, the admin): the send checks every URL again and
    delivers to none, neither the local syslog nor a private second URL."""
    notify_url = notify_url.format(port=webhook.port)
    subscribe(reader, tree["health"], channel="apprise", notify_url=notify_url)
    kb_services.accept(suggest(make_article(), tree["health"]), editor)
    (result,) = scan_and_send()
    assert not result.startswith("sent"), result
    row = Delivery.objects.get()
    assert row.state == Delivery.State.FAILED and not webhook.requests
    assert "syslog://" in row.error or "127.0.0.1" in row.error, row.error


def test_deleting_the_folder_or_the_article_takes_the_subscription_or_delivery_with_it(
    reader, editor, tree, make_article, suggest
):
    sub = subscribe(reader, tree["sport"])
    article = make_article()
    kb_services.accept(suggest(article, tree["sport"]), editor)
    services.scan()
    article.delete()
    assert not Delivery.objects.exists()
    Classification.objects.all().delete()
    kb_services.discard_folder(tree["sport"], editor)
    assert not Subscription.objects.filter(pk=sub.pk).exists()


def test_a_subscriber_who_is_no_longer_an_expert_gets_nothing_and_sees_why(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(title="Waiting"), tree["health"]), editor)
    services.scan()  # recorded while an expert
    reader.groups.clear()
    kb_services.accept(suggest(make_article(title="After"), tree["health"]), editor)
    assert services.scan() == [sub.pk]
    assert list(Delivery.objects.values_list("article__title", flat=True)) == ["Waiting"], "no new matches"
    assert services.send(sub.pk).startswith("failed")
    assert not mail.outbox and "no longer an active expert" in Delivery.objects.get().error


def test_a_saved_search_made_private_stops_alerting_other_users(reader, editor, make_article):
    from search import services as search_services
    from search.models import SavedSearch

    shared = SavedSearch.objects.create(owner=editor, name="shared", query="measles", public=True)
    sub = services.save_subscription(Subscription(user=reader, saved_search=shared))
    search_services.index_article(make_article())
    assert services.scan() == [sub.pk]
    Delivery.objects.all().delete()
    SavedSearch.objects.filter(pk=shared.pk).update(public=False)
    search_services.index_article(make_article())
    assert services.scan() == [] and not Delivery.objects.exists()


def test_an_accept_just_before_the_digest_scanned_just_after_it_goes_in_that_digest(
    reader, editor, tree, make_article, suggest
):
    sub = subscribe(reader, tree["health"], frequency="daily", send_time=datetime.time(8), time_zone="Europe/Berlin")
    eight = sub.next_digest_at
    kb_services.accept(suggest(make_article(title="Just in time"), tree["health"]), editor)
    before = eight - datetime.timedelta(seconds=10)
    Classification.objects.update(decided_at=before, updated_at=before)
    assert scan_and_send(now=eight + datetime.timedelta(seconds=10)) == ["sent 1 by email"]
    assert "Just in time" in mail.outbox[0].body


def test_a_long_backlog_goes_out_in_messages_of_at_most_max_per_message(
    reader, editor, tree, make_article, suggest, monkeypatch
):
    monkeypatch.setattr(services, "MAX_PER_MESSAGE", 2)
    sub = subscribe(reader, tree["health"])
    for n in range(3):
        kb_services.accept(suggest(make_article(title=f"Story {n}"), tree["health"]), editor)
    assert scan_and_send() == ["sent 2 by email"]
    assert scan_and_send() == ["sent 1 by email"]
    assert scan_and_send() == [] and len(mail.outbox) == 2
    assert sub.deliveries.filter(state=Delivery.State.SENT).count() == 3


def test_moving_a_subscription_to_another_folder_starts_it_afresh(reader, editor, tree, make_article, suggest):
    sub = subscribe(reader, tree["health"])
    kb_services.accept(suggest(make_article(title="Earlier sport"), tree["sport"]), editor)
    sub.folder = tree["sport"]
    services.save_subscription(sub)
    assert scan_and_send() == [], "what the new folder got before the move is not sent"
    kb_services.accept(suggest(make_article(title="Later sport"), tree["sport"]), editor)
    assert scan_and_send() == ["sent 1 by email"] and "Later sport" in mail.outbox[0].subject


def test_a_saved_search_named_with_quotes_is_not_quoted_twice():
    """A second live check: the subject read "[WIMS] saved search ““Asthma watch” — santé”: …"."""
    from search.models import SavedSearch

    def named(name):
        return Subscription(saved_search=SavedSearch(name=name)).target_name

    assert named("Asthma watch") == "saved search “Asthma watch”"
    assert named("“Asthma watch” — santé") == "saved search “Asthma watch” — santé"
