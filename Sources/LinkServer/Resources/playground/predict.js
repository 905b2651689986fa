"use strict";
// The device tab: a pasted device file and a link, sent to POST /v1/predict; the outcome, the candidates and each
// reason with its rule. Uses app.js's $, el, visible and show.
async function predictTap() {
  const error = $("#predict-error");
  error.hidden = true;
  document.body.dataset.state = "loading";
  let device;
  try {
    device = JSON.parse($("#predict-device").value);
  } catch (failure) {
    error.textContent = visible(`The device file is not JSON: ${failure.message}`);
    error.hidden = false;
    $("#prediction").hidden = true;
    document.body.dataset.state = "done";
    return;
  }
  try {
    const response = await fetch("/v1/predict", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ url: $("#predict-link").value, device }),
    });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ? `${body.error.message} (${body.error.code})` : response.statusText);
    $("#prediction-opens").textContent = visible(body.opens);
    $("#prediction-candidates").textContent = visible(body.candidates.length ? body.candidates.join(", ") : "none");
    $("#prediction-reasons").replaceChildren(...body.reasons.map((reason) =>
      el("li", { "data-rule": reason.rule }, el("span", { class: "rule" }, reason.rule), reason.text)));
    $("#prediction").hidden = false;
  } catch (failure) {
    error.textContent = visible(failure.message);
    error.hidden = false;
    $("#prediction").hidden = true;
  }
  document.body.dataset.state = "done";
}

$("#predict-form").addEventListener("submit", (event) => { event.preventDefault(); predictTap(); });

// #device opens the tab; ?predict=LINK&device=JSON fills it and predicts at once (how the browser test drives it).
(() => {
  const query = new URLSearchParams(location.search);
  if (location.hash === "#device" || query.get("device")) show("device");
  if (query.get("device")) {
    $("#predict-link").value = query.get("predict") || "";
    $("#predict-device").value = query.get("device");
    $("#predict-form").requestSubmit();
  }
})();
