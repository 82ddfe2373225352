"""URLs of the admin's search pages, served inside the admin (login and staff required)."""

from django.contrib import admin
from django.urls import path

from search.interfaces.admin import synonyms as admin_synonyms

from search.interfaces.admin import views as admin_views

from search.interfaces.admin import insights as insights_admin

from search.interfaces.admin import pins as admin_pins

urlpatterns = [
    path("", admin.site.admin_view(admin_views.search_index), name="admin_search_index"),
    path("<slug:slug>/", admin.site.admin_view(admin_views.search_page), name="admin_search"),
    path("<slug:slug>/insights/", admin.site.admin_view(insights_admin.insights_page), name="admin_search_insights"),
    path("<slug:slug>/insights.csv", admin.site.admin_view(insights_admin.insights_csv),
         name="admin_search_insights_csv"),
    path("<slug:slug>/clicks", admin.site.admin_view(insights_admin.search_click), name="admin_search_click"),
    path("<slug:slug>/pin", admin.site.admin_view(admin_pins.search_pin), name="admin_search_pin"),
    path("<slug:slug>/pins", admin.site.admin_view(admin_pins.search_pin_change), name="admin_search_pin_change"),
    path("<slug:slug>/synonyms/", admin.site.admin_view(admin_synonyms.synonyms_page), name="admin_synonyms"),
]
