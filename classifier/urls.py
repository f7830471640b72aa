"""The experts' workspace URLs (all expert-only; see classifier/permissions.py)."""

from django.urls import path

from . import views

app_name = "classifier"
urlpatterns = [
    path("", views.inbox, name="inbox"),
    path("articles/bulk", views.bulk, name="bulk"),
    path("articles/<int:pk>/", views.article_detail, name="article"),
    path("articles/<int:pk>/accept", views.accept, name="accept"),
    path("articles/<int:pk>/reject", views.reject, name="reject"),
    path("articles/<int:pk>/move", views.move, name="move"),
    path("articles/<int:pk>/rule", views.rule, name="rule"),
    path("articles/<int:pk>/rule/check", views.rule_check, name="rule_check"),
    path("articles/<int:pk>/rule/commit", views.rule_commit, name="rule_commit"),
    path("articles/<int:pk>/filters", views.article_filters, name="article_filters"),
    path("corrections/", views.corrections, name="corrections"),
    path("corrections/<int:pk>/withdraw", views.correction_withdraw, name="correction_withdraw"),
    path("rules/<int:pk>/", views.rule_detail, name="rule_detail"),
    path("rules/undo", views.rule_undo, name="rule_undo"),
    path("folders/", views.folders, name="folders"),
    path("folders/new", views.folder_create, name="folder_create"),
    path("folders/<int:pk>/", views.folder_detail, name="folder"),
    path("folders/<int:pk>/rename", views.folder_rename, name="folder_rename"),
    path("folders/<int:pk>/move", views.folder_move, name="folder_move"),
    path("folders/<int:pk>/merge", views.folder_merge, name="folder_merge"),
    path("folders/<int:pk>/delete", views.folder_delete, name="folder_delete"),
]
