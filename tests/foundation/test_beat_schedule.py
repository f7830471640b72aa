"""Every periodic task is declared once, in CELERY_BEAT_SCHEDULE (wims/settings.py): the beat writes it into
django-celery-beat's table at its start and sends each task on time, also on a database whose rows were made
by the code that created them before (`bootstrap` and alerts' migration 0002): one row each, never two."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from wims.celery import app

#: the periodic tasks and their intervals in seconds, as `bootstrap` and alerts' migration 0002 created them
EXPECTED = {
    "Dispatch due site polls": ("monitor.dispatch_due_polls", 30),
    "Scan alert subscriptions": ("alerts.scan", 30),
    "Apply the retention policy": ("monitor.apply_retention", 86400),
}
#: the rows the former code created (`bootstrap`, alerts' migration 0002), before the schedule was in settings
FORMER = ("Dispatch due site polls", "Scan alert subscriptions")


@pytest.fixture(autouse=True)
def _connection_kept(monkeypatch):
    """Between its ticks the beat closes the database connections of its own process, which would end this
    test's transaction."""
    monkeypatch.setattr("django_celery_beat.schedulers.close_old_connections", lambda: None)


def start_beat() -> DatabaseScheduler:
    """What `celery -A wims beat` does at its start with the scheduler the settings name, without a broker."""
    assert settings.CELERY_BEAT_SCHEDULER == "django_celery_beat.schedulers:DatabaseScheduler"
    beat = DatabaseScheduler(app=app)
    beat.producer = None  # the tasks' sending is recorded by the tests, not handed to a broker
    return beat


def ours() -> dict[str, tuple[str, int, str, bool]]:
    return {
        row.name: (row.task, row.interval.every, row.interval.period, row.enabled)
        for row in PeriodicTask.objects.select_related("interval").exclude(task__startswith="celery.")
    }


def make_due() -> None:
    """Each entry last ran one interval and a second ago: due at the beat's first tick, and not again at once."""
    for name, (_, every) in EXPECTED.items():
        PeriodicTask.objects.filter(name=name).update(last_run_at=timezone.now() - timedelta(seconds=every + 1))


def sent_by(beat: DatabaseScheduler, monkeypatch, ticks: int = 10) -> list[str]:
    """Run the beat's loop for a few ticks; the tasks it sends, by name."""
    sent = []
    app.loader.import_default_modules()
    for name in {task for task, _ in EXPECTED.values()}:
        monkeypatch.setattr(type(app.tasks[name]), "apply_async", lambda self, *args, **options: sent.append(self.name))
    for _ in range(ticks):
        beat.tick()
    beat.sync()
    return sent


def test_every_periodic_task_is_declared_in_the_settings():
    declared = {
        name: (entry["task"], entry["schedule"].total_seconds())
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items()
    }
    assert declared == EXPECTED
    app.loader.import_default_modules()
    assert {task for task, _ in EXPECTED.values()} <= set(app.tasks), "tasks the workers know"


@pytest.mark.django_db
def test_the_beat_writes_the_schedule_at_its_start_and_sends_each_task_when_due(monkeypatch):
    assert not PeriodicTask.objects.exists(), "nothing creates them before the beat (no migration, no bootstrap)"
    beat = start_beat()
    assert ours() == {name: (task, every, "seconds", True) for name, (task, every) in EXPECTED.items()}
    assert {name: entry.schedule.run_every for name, entry in beat.schedule.items() if name in EXPECTED} == {
        name: timedelta(seconds=every) for name, (_, every) in EXPECTED.items()
    }
    # each is due 30 s after the row was written: sent once at the first tick past that, not again at once
    make_due()
    beat = start_beat()
    assert sorted(sent_by(beat, monkeypatch)) == sorted(task for task, _ in EXPECTED.values())
    assert all(row.total_run_count == 1 for row in PeriodicTask.objects.filter(name__in=EXPECTED))
    # a second beat start (a restart) changes nothing
    start_beat()
    assert PeriodicTask.objects.filter(name__in=EXPECTED).count() == len(EXPECTED)


@pytest.mark.django_db
def test_on_a_database_set_up_by_the_former_code_the_beat_keeps_one_row_per_task(monkeypatch):
    """The rows `bootstrap` (the dispatch) and alerts' migration 0002 (the scan) created, as they created them:
    the beat updates them in place, so that each task is sent once per interval, not twice."""
    every, _ = IntervalSchedule.objects.get_or_create(every=30, period=IntervalSchedule.SECONDS)
    long_ago = timezone.now() - timedelta(minutes=5)
    for name in FORMER:
        task = EXPECTED[name][0]
        PeriodicTask.objects.create(name=name, task=task, interval=every, last_run_at=long_ago, total_run_count=7)
    beat = start_beat()
    assert ours() == {name: (task, every, "seconds", True) for name, (task, every) in EXPECTED.items()}
    assert IntervalSchedule.objects.filter(every=30, period=IntervalSchedule.SECONDS).count() == 1
    sent = sent_by(beat, monkeypatch)
    assert sorted(t for t in sent if t in {EXPECTED[n][0] for n in FORMER}) == sorted(EXPECTED[n][0] for n in FORMER)
    assert all(row.total_run_count == 8 for row in PeriodicTask.objects.filter(name__in=FORMER)), "history kept"


@pytest.mark.django_db
def test_a_task_disabled_in_the_admin_stays_disabled_when_the_beat_starts_again(monkeypatch):
    start_beat()
    PeriodicTask.objects.filter(name="Scan alert subscriptions").update(enabled=False)
    make_due()
    beat = start_beat()
    assert not PeriodicTask.objects.get(name="Scan alert subscriptions").enabled
    assert sorted(sent_by(beat, monkeypatch)) == ["monitor.apply_retention", "monitor.dispatch_due_polls"]
