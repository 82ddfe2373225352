// A click on the new key's secret selects all of it, ready to copy.
"use strict";
document.addEventListener("DOMContentLoaded", () => {
  const secret = document.getElementById("api-key-secret");
  if (secret) {
    secret.addEventListener("click", () => secret.select());
  }
});
