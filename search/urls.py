"""Search URLs, mounted at /search/ by wims/urls.py (all expert-only; see classifier/permissions.py)."""

from django.urls import path

from search import views

app_name = "search"
urlpatterns = [
    path("", views.results, name="results"),
    path("open", views.open_result, name="open"),
    path("save", views.save, name="save"),
    path("saved/", views.saved_list, name="saved"),
    path("saved/<int:saved_id>/", views.saved_open, name="saved-open"),
    path("saved/<int:saved_id>/edit", views.saved_edit, name="saved-edit"),
    path("saved/<int:saved_id>/delete", views.saved_delete, name="saved-delete"),
]
