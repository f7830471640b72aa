"""A site that sends one byte at a time, slower than nothing but faster than the read timeout, in its headers
or its body: the request ends at its one absolute deadline (the socket is shut down), not when the site
stops. Before, each byte reset the read timeout and the deadline was checked only between 64 KiB chunks."""

import socket
import threading
import time

import pytest

from monitor import net

pytestmark = pytest.mark.django_db


def trickler(header_first: bool, stop: threading.Event) -> int:
    """A server that answers every connection byte by byte, one every 0.2 s, for up to 15 s."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 100000\r\n\r\n"
            data = head if header_first else b""
            payload = (b"HTTP/1.1 200 OK\r\nX-Slow: " + b"x" * 1000) if not header_first else b"<p>" + b"y" * 1000
            try:
                if data:
                    conn.sendall(data)
                deadline = time.monotonic() + 15
                for byte in payload:
                    if stop.is_set() or time.monotonic() > deadline:
                        break
                    conn.sendall(bytes([byte]))
                    time.sleep(0.2)
            except OSError:
                pass
            finally:
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    stop_hook = threading.Thread(target=lambda: (stop.wait(), server.close()), daemon=True)
    stop_hook.start()
    return server.getsockname()[1]


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_trickling_site_is_cut_at_the_request_deadline(settings, where):
    settings.WIMS_CONNECT_TIMEOUT = 0.5
    settings.WIMS_READ_TIMEOUT = 1.0  # the deadline: connect + 2 x read = 2.5 s
    stop = threading.Event()
    port = trickler(header_first=where == "body", stop=stop)
    started = time.monotonic()
    try:
        with pytest.raises(net.FetchError) as caught:
            net.fetch(f"http://127.0.0.1:{port}/slow", allow_private=True)
    finally:
        stop.set()
    elapsed = time.monotonic() - started
    assert elapsed < 4.5, f"cut after {elapsed:.1f} s, not at the 2.5 s deadline"
    assert "total time limit" in str(caught.value) and caught.value.transient
