"""Routes under /api/."""

from django.urls import path

from search.api import views

urlpatterns = [
    path("health", views.health, name="health"),
]
