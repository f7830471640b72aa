"""Cursor pagination for every list: stable pages however many rows arrive meanwhile, and each page one index
range scan (no OFFSET over 100,000 articles). A list's order is part of its contract, so each names its own."""

from base64 import b64decode, b64encode

from rest_framework.exceptions import NotFound
from rest_framework.pagination import BasePagination, CursorPagination
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from classifier import selectors as workspace


class NewestFirst(CursorPagination):
    """Newest rows first, by id (the default for lists without a more natural order)."""

    ordering: tuple[str, ...] = ("-id",)
    page_size_query_param = "page_size"
    max_page_size = 200


class ByPath(NewestFirst):
    """Folders in path order (paths are unique)."""

    ordering = ("path",)


class ByName(NewestFirst):
    """Sites and saved searches by name, the id breaking ties between equal names."""

    ordering = ("name", "id")


class InboxOrder(BasePagination):
    """Articles as the inbox pages them: newest collected first, by keyset on (collected_at, id) through the
    workspace's own pager (classifier.selectors.inbox_page), so that ties in collected_at are neither lost nor
    repeated and the API and the inbox page alike. The cursor is opaque: ``n.<position>`` for the next (older)
    page, ``p.<position>`` for the previous (newer) one."""

    cursor_query_param = "cursor"
    page_size_query_param = "page_size"
    page_size = 50
    max_page_size = 200
    invalid_cursor_message = "Invalid cursor"
    cursor_query_description = "The page's cursor: the `next` or `previous` link of another page."
    page_size_query_description = "Articles per page (at most 200)."

    def paginate_queryset(self, queryset, request, view=None):
        self.request = request
        after, before = self._decode(request.query_params.get(self.cursor_query_param))
        size = self._size(request)
        page = workspace.inbox_page(queryset, after=after, before=before, size=size, count=False)  # no total shown
        self.next_cursor, self.prev_cursor = page.next_cursor, page.prev_cursor
        self.chips = {row.article.pk: row.classifications for row in page.rows}
        return [row.article for row in page.rows]

    def _size(self, request) -> int:
        try:
            size = int(request.query_params.get(self.page_size_query_param, self.page_size))
        except ValueError:
            return self.page_size
        return max(1, min(size, self.max_page_size))

    def _decode(self, raw: str | None) -> tuple[workspace.Cursor | None, workspace.Cursor | None]:
        if not raw:
            return None, None
        try:
            text = b64decode(raw.encode("ascii"), validate=True).decode("ascii")
        except (ValueError, UnicodeError):
            raise NotFound(self.invalid_cursor_message) from None
        direction, _, position = text.partition(".")
        cursor = workspace.Cursor.decode(position)
        if cursor is None or direction not in ("n", "p"):
            raise NotFound(self.invalid_cursor_message)
        return (cursor, None) if direction == "n" else (None, cursor)

    def _link(self, direction: str, cursor: workspace.Cursor | None) -> str | None:
        if cursor is None:
            return None
        token = b64encode(f"{direction}.{cursor.encode()}".encode("ascii")).decode("ascii")
        return replace_query_param(self.request.build_absolute_uri(), self.cursor_query_param, token)

    def get_paginated_response(self, data) -> Response:
        return Response(
            {"next": self._link("n", self.next_cursor), "previous": self._link("p", self.prev_cursor), "results": data}
        )

    # the same response shape and parameters as DRF's cursor pagination
    def get_paginated_response_schema(self, schema: dict) -> dict:
        return CursorPagination.get_paginated_response_schema(self, schema)

    def get_schema_operation_parameters(self, view) -> list[dict]:
        return CursorPagination.get_schema_operation_parameters(self, view)
