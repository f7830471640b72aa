"""Dashboard URLs, mounted at /dashboards/ by wims/urls.py (experts only)."""

from django.urls import path

from dashboards import views

app_name = "dashboards"
urlpatterns = [
    path("", views.dashboards, name="index"),
    path("<slug:chart>.csv", views.chart_csv, name="csv"),
]
