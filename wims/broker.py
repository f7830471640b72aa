"""The embedded broker of `make run` and `make test`: kombu's filesystem transport, safe for concurrent use.

kombu's filesystem transport (5.x) writes a message straight into its final file name, so a consumer that
lists the folder can take and parse a file still being written: a JSONDecodeError that kills the worker
(kombu issue #1551; 8 publishing threads and one consumer hit it within seconds). And a consumer claims a
message by moving it to the system's temp directory, which across file systems is a copy that two consumers
can both make. And a queue binding creates its exchange's table file by truncating it before taking its
lock, so a publisher reading the table at that moment parses an empty file (the same JSONDecodeError, in a
publishing thread). Here a message is written under a hidden temporary name and renamed into place (atomic
within one folder on POSIX); a consumer claims a message by renaming it to a hidden name in the same folder
(exactly one consumer wins the rename, the others find the file gone); exchange tables are changed under a
lock file and replaced whole, so a reader sees the old table or the new one, never a partial one; and a
binding is written to its table before this process's threads are told it exists (kombu records it in the
process-wide state first, so another thread could publish through a table file not written yet: the
message was dropped as undeliverable).

Selected by CELERY_BROKER_TRANSPORT in wims/settings.py whenever the broker URL is ``filesystem://``.
"""

from __future__ import annotations

import fcntl
import os
import sys
import threading
import uuid
from collections.abc import Callable
from queue import Empty
from time import monotonic, sleep

from kombu.exceptions import ChannelError
from kombu.transport import filesystem, virtual
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

#: bindings of this process: kombu's broker state is shared by every channel (thread) of the process
_binding = threading.Lock()


class Channel(filesystem.Channel):
    def queue_bind(self, queue, exchange=None, routing_key="", arguments=None, **kwargs):
        exchange = exchange or "amq.direct"
        with _binding:
            if self.state.has_binding(queue, exchange, routing_key):
                return
            meta = self.typeof(exchange).prepare_bind(queue, exchange, routing_key, arguments)
            self._queue_bind(exchange, *meta)  # the table file first, then this process's state
            self.state.binding_declare(queue, exchange, routing_key, arguments)
            self.state.exchanges[exchange].setdefault("table", []).append(meta)

    def _change_table(self, exchange, change: Callable[[list], list]) -> None:
        """Read, change and replace an exchange's table under its lock file (one writer at a time)."""
        file = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        try:
            with open(f"{file}.lock", "a") as lock_file:  # "<exchange>.exchange.lock": no exchange file name
                fcntl.flock(lock_file.fileno(), fcntl.LOCK_EX)  # released when the file is closed
                try:
                    table = [filesystem.exchange_queue_t(*q) for q in loads(bytes_to_str(file.read_bytes()))]
                except FileNotFoundError:
                    table = []
                new = change(table)
                if new != table:
                    partial = file.with_name(f".{file.name}.{uuid.uuid4()}.part")
                    partial.write_bytes(str_to_bytes(dumps(new)))
                    os.replace(partial, file)
        except OSError as exc:
            raise ChannelError(f"Cannot open {file}") from exc

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(exchange, lambda table: table if entry in table else [entry, *table])

    def _delete(self, queue, exchange, routing_key, pattern, *args, **kwargs):
        # the virtual channel's bookkeeping, then the exchange table (kombu's own _delete rewrites it in place)
        virtual.Channel._delete(self, queue, exchange, routing_key, pattern, *args, **kwargs)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        self._change_table(exchange, lambda table: [q for q in table if q != entry])

    def _put(self, queue, payload, **kwargs):
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        # a leading dot: no queue's pattern (name.partition('.')[2] == 'queue.msg') matches a partial file
        partial = os.path.join(self.data_folder_out, f".{name}.part")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(self.data_folder_in, f".claimed-{uuid.uuid4()}-{name}")
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except FileNotFoundError:
                continue  # another consumer claimed it first
            try:
                with open(claimed, "rb") as f:
                    payload = f.read()
            except OSError as exc:
                raise ChannelError(f"Cannot read file {claimed!r} from queue.") from exc
            if self.store_processed:
                os.replace(claimed, os.path.join(self.processed_folder, name))
            else:
                os.remove(claimed)
            return loads(bytes_to_str(payload))
        raise Empty()


def _worker_stopping() -> bool:
    """Whether this process is a Celery worker that was told to stop (by a signal, or remote control)."""
    state = sys.modules.get("celery.worker.state")  # not imported: not a worker
    return state is not None and any(
        flag is not None and flag is not False for flag in (state.should_stop, state.should_terminate)
    )


class Transport(filesystem.Transport):
    Channel = Channel

    def drain_events(self, connection, timeout=None):
        """kombu's polling loop, but it gives up as soon as the worker is stopping.

        A worker on this transport waits here up to 2 s at a time between two looks at its stop flag
        (celery.worker.loops.synloop): each stop took that much longer.
        """
        started = monotonic()
        interval = self.polling_interval
        if timeout and interval and interval > timeout:
            interval = timeout
        while True:
            try:
                self.cycle.get(self._deliver, timeout=timeout)
                return
            except Empty:
                if _worker_stopping() or (timeout is not None and monotonic() - started >= timeout):
                    raise TimeoutError from None  # socket.timeout, what the worker loop expects
                if interval is not None:
                    sleep(interval)

    @property
    def default_connection_params(self):
        # a folder has no host: kombu's default ("localhost") made every worker and the beat warn at start
        # ("No hostname was supplied. Reverting to default 'localhost'")
        return {"port": self.default_port, "hostname": None}
