"""The subscriptions API, mounted at /api/subscriptions/ by wims/urls.py (in the API's schema and docs)."""

from rest_framework.routers import SimpleRouter

from alerts.api import SubscriptionViewSet

app_name = "alerts-api"
router = SimpleRouter()
router.register("", SubscriptionViewSet, basename="subscription")
urlpatterns = router.urls
