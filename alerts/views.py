"""The subscriptions pages (experts, their own subscriptions only) and the signed unsubscribe link (no login)."""

from __future__ import annotations

from django.contrib import messages
from django.core import signing
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from alerts import selectors, services
from alerts.forms import AddressForm, SubscriptionForm
from alerts.models import Subscription
from classifier.permissions import expert_required


def _own(request, pk: int) -> Subscription:
    # another user's subscription is "not found", not "forbidden": ids are not confirmed to exist
    return get_object_or_404(Subscription, pk=pk, user=request.user)


def _page(request, address_form: AddressForm, status: int = 200):
    context = {"rows": selectors.subscriptions_page(request.user), "address_form": address_form}
    return render(request, "alerts/subscriptions.html", context, status=status)


@expert_required
@require_safe
def subscriptions(request):
    return _page(request, AddressForm(initial={"email": request.user.email}))


@expert_required
@require_POST
def address(request):
    """The user's own e-mail address, where their e-mail subscriptions go."""
    form = AddressForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    request.user.email = form.cleaned_data["email"]
    request.user.save(update_fields=["email"])
    messages.success(request, f"E-mails go to {request.user.email} now.")
    return redirect("alerts:list")


def _initial(request) -> dict:
    last = Subscription.objects.filter(user=request.user).order_by("-id").first()
    initial = {"time_zone": last.time_zone if last else "UTC"}
    for name in ("folder", "saved_search", "frequency"):
        if request.GET.get(name):
            initial[name] = request.GET[name]
    return initial


@expert_required
@require_http_methods(["GET", "POST"])
def create(request):
    form = SubscriptionForm(
        request.POST or None, user=request.user, instance=Subscription(user=request.user), initial=_initial(request)
    )
    if request.method == "POST" and form.is_valid():
        sub = services.save_subscription(form.instance)
        messages.success(request, f"Subscribed to {sub.target_name}.")
        return redirect("alerts:list")
    status = 400 if request.method == "POST" else 200
    return render(request, "alerts/form.html", {"form": form, "creating": True}, status=status)


@expert_required
@require_http_methods(["GET", "POST"])
def edit(request, pk):
    sub = _own(request, pk)
    form = SubscriptionForm(request.POST or None, user=request.user, instance=sub)
    if request.method == "POST" and form.is_valid():
        services.save_subscription(form.instance)
        messages.success(request, f"Saved your subscription to {sub.target_name}.")
        return redirect("alerts:list")
    status = 400 if request.method == "POST" else 200
    return render(request, "alerts/form.html", {"form": form, "sub": sub}, status=status)


@expert_required
@require_POST
def delete(request, pk):
    sub = _own(request, pk)
    name = sub.target_name
    services.unsubscribe(sub)
    messages.success(request, f"Unsubscribed from {name}.")
    return redirect("alerts:list")


@expert_required
@require_POST
def retry(request, pk):
    n = services.retry_failed(_own(request, pk))
    messages.success(request, f"{n} failed deliveries will be sent again within a minute.")
    return redirect("alerts:list")


# The signed token in the URL is what authorises this (it is unguessable and names one subscription), so it
# needs no login and no CSRF token: mail providers' one-click unsubscribe (RFC 8058) POSTs without one. A GET
# only shows the confirm button, because mail clients and scanners prefetch links.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token):
    try:
        sub = services.subscription_for_token(token)
    except (signing.BadSignature, ValueError, TypeError):
        return render(request, "alerts/unsubscribe.html", {"invalid": True}, status=400)
    if sub is None:
        return render(request, "alerts/unsubscribe.html", {"gone": True}, status=404)
    if request.method == "POST":
        name = sub.target_name
        services.unsubscribe(sub)
        return render(request, "alerts/unsubscribe.html", {"done": True, "name": name})
    return render(request, "alerts/unsubscribe.html", {"sub": sub})
