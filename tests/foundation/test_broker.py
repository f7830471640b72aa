"""The embedded filesystem broker under concurrent publishers and consumers: every message arrives once, whole.

kombu's own filesystem transport let a consumer read a message file still being written (kombu issue
#1551: a JSONDecodeError that killed the worker), let two consumers take one message, and dropped messages
published while another thread was binding the queue. With kombu's transport this test lost or repeated
messages in 2 runs of 3; wims/broker.py (atomic writes, claims and bindings) passes it.
"""

import threading
import time
from pathlib import Path

from kombu import Connection

PUBLISHERS, CONSUMERS, PER_PUBLISHER = 8, 2, 400


def test_concurrent_publishers_and_consumers_get_every_message_exactly_once_and_whole(tmp_path: Path):
    folders = {name: tmp_path / name for name in ("queue", "processed", "control")}
    for folder in folders.values():
        folder.mkdir()
    options = {
        "data_folder_in": str(folders["queue"]),
        "data_folder_out": str(folders["queue"]),
        "processed_folder": str(folders["processed"]),
        "control_folder": str(folders["control"]),
        "store_processed": False,
    }
    filler = "x" * 3_000
    received: list[int] = []
    errors: list[BaseException] = []
    done = threading.Event()

    def publish(n: int) -> None:
        with Connection("filesystem://", transport="wims.broker:Transport", transport_options=options) as conn:
            queue = conn.SimpleQueue("soak")
            for i in range(PER_PUBLISHER):
                queue.put({"id": n * PER_PUBLISHER + i, "filler": filler})

    def consume() -> None:
        with Connection("filesystem://", transport="wims.broker:Transport", transport_options=options) as conn:
            queue = conn.SimpleQueue("soak")
            deadline = None
            while len(received) < PUBLISHERS * PER_PUBLISHER:
                if done.is_set():
                    deadline = deadline or time.monotonic() + 60
                    if time.monotonic() > deadline:
                        break
                try:
                    message = queue.get(block=True, timeout=0.01)
                except queue.Empty:
                    continue
                except Exception as exc:  # a half-written message: what the race did
                    errors.append(exc)
                    continue
                assert message.payload["filler"] == filler
                received.append(message.payload["id"])
                message.ack()

    consumers = [threading.Thread(target=consume) for _ in range(CONSUMERS)]
    publishers = [threading.Thread(target=publish, args=(n,)) for n in range(PUBLISHERS)]
    for thread in consumers + publishers:
        thread.start()
    for thread in publishers:
        thread.join(timeout=120)
    done.set()
    for thread in consumers:
        thread.join(timeout=120)
    assert not errors, errors[:3]
    assert sorted(received) == list(range(PUBLISHERS * PER_PUBLISHER)), "every message exactly once"
    assert not list(folders["queue"].iterdir()), "no partial or claimed file left behind"


def test_connecting_names_no_host_and_warns_nothing(tmp_path: Path, caplog):
    """Every worker and the beat used to log "No hostname was supplied. Reverting to default 'localhost'"."""
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path), "control_folder": str(tmp_path)}
    connection = Connection("filesystem://", transport="wims.broker:Transport", transport_options=options)
    with caplog.at_level("WARNING", logger="kombu.connection"), connection as conn:
        conn.connect()
        conn.info()  # what a worker prints at start
    assert not [r for r in caplog.records if "hostname" in r.getMessage()]
