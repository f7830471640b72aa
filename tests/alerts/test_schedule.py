"""Digest times in the subscriber's time zone (alerts/schedule.py, pure)."""

from datetime import UTC, datetime, time

import pytest

from alerts.schedule import DAILY, IMMEDIATE, WEEKLY, is_time_zone, next_send_at


def utc(*args):
    return datetime(*args, tzinfo=UTC)


def test_daily_at_eight_in_berlin_is_seven_utc_in_winter_and_six_in_summer():
    assert next_send_at(utc(2026, 1, 15, 5, 0), DAILY, time(8), 0, "Europe/Berlin") == utc(2026, 1, 15, 7, 0)
    assert next_send_at(utc(2026, 7, 15, 5, 0), DAILY, time(8), 0, "Europe/Berlin") == utc(2026, 7, 15, 6, 0)


def test_daily_is_strictly_after_so_the_time_itself_gives_tomorrow():
    assert next_send_at(utc(2026, 1, 15, 7, 0), DAILY, time(8), 0, "Europe/Berlin") == utc(2026, 1, 16, 7, 0)
    assert next_send_at(utc(2026, 1, 15, 6, 59), DAILY, time(8), 0, "Europe/Berlin") == utc(2026, 1, 15, 7, 0)


def test_daily_keeps_the_wall_clock_across_the_spring_change():
    # Berlin moves to summer time on 29 March 2026: 08:00 is 07:00 UTC the day before, 06:00 UTC that day
    assert next_send_at(utc(2026, 3, 28, 8, 0), DAILY, time(8), 0, "Europe/Berlin") == utc(2026, 3, 29, 6, 0)


def test_a_time_that_does_not_exist_on_the_change_day_is_sent_once_that_day():
    # 02:30 does not exist in Berlin on 29 March 2026; it is taken with the winter offset: 01:30 UTC
    at = next_send_at(utc(2026, 3, 28, 12, 0), DAILY, time(2, 30), 0, "Europe/Berlin")
    assert at == utc(2026, 3, 29, 1, 30)


def test_a_zone_ahead_of_utc_can_be_on_the_next_day():
    # 07:00 in Tokyo (UTC+9) is 22:00 UTC the day before
    assert next_send_at(utc(2026, 5, 1, 12, 0), DAILY, time(7), 0, "Asia/Tokyo") == utc(2026, 5, 1, 22, 0)


def test_weekly_on_the_weekday_in_the_zone():
    # Wednesday 18:30 in New York (UTC-4 in May) after Thursday 7 May 2026: Wednesday 13 May, 22:30 UTC
    at = next_send_at(utc(2026, 5, 7, 12, 0), WEEKLY, time(18, 30), 2, "America/New_York")
    assert at == utc(2026, 5, 13, 22, 30)
    assert at.astimezone(__import__("zoneinfo").ZoneInfo("America/New_York")).weekday() == 2
    # same day, before the time: today
    assert next_send_at(utc(2026, 5, 13, 12, 0), WEEKLY, time(18, 30), 2, "America/New_York") == at


def test_immediate_has_no_digest_time_and_naive_times_are_refused():
    assert next_send_at(utc(2026, 5, 7), IMMEDIATE, time(8), 0, "UTC") is None
    with pytest.raises(ValueError):
        next_send_at(datetime(2026, 5, 7), DAILY, time(8), 0, "UTC")


@pytest.mark.parametrize("name", ["Europe/Berlin", "America/New_York", "UTC", "Asia/Kolkata"])
def test_time_zone_names(name):
    assert is_time_zone(name)


@pytest.mark.parametrize("name", ["", "CEST", "Europe/Nowhere", "../../etc/passwd", "/usr/share/zoneinfo/UTC"])
def test_not_time_zone_names(name):
    assert not is_time_zone(name)
