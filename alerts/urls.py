"""Alert URLs, mounted at /alerts/ by wims/urls.py: the subscriptions pages (experts) and unsubscribe links
(signed, no login)."""

from django.urls import path

from alerts import views

app_name = "alerts"
urlpatterns = [
    path("", views.subscriptions, name="list"),
    path("new", views.create, name="create"),
    path("address", views.address, name="address"),
    path("<int:pk>/edit", views.edit, name="edit"),
    path("<int:pk>/delete", views.delete, name="delete"),
    path("<int:pk>/retry", views.retry, name="retry"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
