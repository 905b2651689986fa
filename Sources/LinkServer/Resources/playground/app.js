"use strict";
// Switchyard playground: plain JavaScript over the JSON API; no build step.
const $ = (selector) => document.querySelector(selector);

// Invisible format characters (bidirectional controls such as U+202E, zero-width spaces) shown as ⟦U+202E⟧, so a
// right-to-left override in a link cannot make it read as another. Every text the page shows goes through el().
const visible = (text) =>
  String(text).replace(/\p{Cf}/gu, (c) => `⟦U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}⟧`);

function el(tag, attributes, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes || {})) {
    if (key === "class") node.className = value; else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child instanceof Node ? child : document.createTextNode(visible(child)));
  return node;
}

// A monogram when an icon cannot be fetched (offline, or no iconURL): a stable colour from the name.
function monogram(name) {
  let hash = 0;
  for (const character of name) hash = (hash * 31 + character.codePointAt(0)) >>> 0;
  const node = el("div", { class: "icon monogram", "aria-hidden": "true" }, (name.trim()[0] || "?").toUpperCase());
  node.style.background = `hsl(${hash % 360}, 55%, 45%)`;
  return node;
}

function icon(name, url) {
  if (!url) return monogram(name);
  const image = el("img", { class: "icon", alt: "", src: url });
  image.addEventListener("error", () => image.replaceWith(monogram(name)));
  return image;
}

async function getJSON(url) {
  const response = await fetch(url);
  const body = await response.json();
  if (!response.ok) throw new Error(body.error ? `${body.error.message} (${body.error.code})` : response.statusText);
  return body;
}

async function resolveLink(link, installed) {
  const error = $("#resolve-error");
  error.hidden = true;
  document.body.dataset.state = "loading";
  const query = new URLSearchParams({ url: link });
  if (installed) query.set("installed", installed);
  try {
    // One resolution, with its trace: the same document /v1/resolve gives, plus why each rule did or did not match.
    const resolution = await getJSON(`/v1/explain?${query}`);
    renderSteps(resolution);
    renderOpenings(resolution.openings, $("#openings"));
  } catch (failure) {
    error.textContent = visible(failure.message);
    error.hidden = false;
    $("#openings").replaceChildren();
  }
  document.body.dataset.state = "done";
}

function renderSteps(resolution) {
  const steps = $("#steps");
  steps.replaceChildren();
  steps.append(el("p", { class: "step" }, `Input: ${resolution.input}`));
  for (const step of resolution.steps) steps.append(el("p", { class: "step" }, step.refused ? `↳ ${step.kind} ${step.rule}: refused, ${step.refused}` : `↳ ${step.kind} ${step.rule}: ${step.to}`));
  const actions = resolution.trace ? resolution.trace.actions : [];
  const candidates = actions.filter((action) => action.verdict !== "not a candidate").length;
  steps.append(el("p", { class: "step" }, `Matcher: ${candidates} of ${actions.length} actions were candidates; ${resolution.openings.length} openings.`));
}

function renderOpenings(openings, list) {
  list.replaceChildren();
  if (openings.length === 0) list.append(el("li", { class: "opening" }, el("span"), "No app opens this link."));
  for (const opening of openings) {
    const native = opening.url
      ? el("a", { class: "native", href: opening.url }, opening.url)
      : el("span", { class: "native" }, opening.needsScript ? "(a script produces this URL)" : `(no URL: ${opening.error ? `${opening.error.message} (${opening.error.code})` : "none"})`);
    list.append(el("li", { class: "opening", "data-kind": opening.kind },
      icon(opening.appName || opening.title, opening.iconURL),
      el("div", {},
        el("div", {}, el("span", { class: "name" }, opening.appName || opening.title), el("span", { class: "kind" }, `${opening.kind} · ${opening.title}`)),
        native,
        el("div", { class: "rule" }, `rule ${opening.rule}`))));
  }
}

async function choose(form) {
  const data = new FormData(form);
  const query = new URLSearchParams({ type: data.get("type"), action: data.get("action") });
  for (const pair of String(data.get("params") || "").split(",").map((text) => text.trim()).filter(Boolean)) query.append("param", pair);
  if (data.get("installed")) query.set("installed", data.get("installed"));
  const error = $("#choose-error");
  error.hidden = true;
  try {
    const picker = await getJSON(`/v1/choose?${query}`);
    const list = $("#choices");
    list.replaceChildren();
    for (const choice of picker.choices || []) {
      list.append(el("li", { class: "opening" + (choice.isDefault ? " default" : "") },
        icon(choice.name, null),
        el("div", {}, el("div", { class: "name" }, choice.name + (choice.isDefault ? " (default)" : "")), el("a", { class: "native", href: choice.url }, choice.url))));
    }
  } catch (failure) {
    error.textContent = visible(failure.message);
    error.hidden = false;
  }
}

let testReport = null;
async function loadTests() {
  if (!testReport) testReport = await getJSON("/v1/tests");
  $("#tests-summary").textContent = `${testReport.passed} passed, ${testReport.failed} failed, ${testReport.skipped} skipped`;
  const body = $("#tests tbody");
  body.replaceChildren();
  const failuresOnly = $("#failures-only").checked;
  for (const result of testReport.results.filter((r) => !failuresOnly || r.status !== "passed").slice(0, 2000)) {
    body.append(el("tr", {},
      el("td", { class: result.status }, result.status), el("td", {}, result.kind), el("td", {}, result.location),
      el("td", {}, result.input), el("td", {}, `${result.expected ?? "null"} / ${result.actual ?? "null"}${result.reason ? ` — ${result.reason}` : ""}`)));
  }
}

function show(view) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.view === view);
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${view}`;
  if (view === "tests") loadTests().catch((failure) => { $("#tests-summary").textContent = failure.message; });
}

for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => show(tab.dataset.view));
$("#resolve-form").addEventListener("submit", (event) => { event.preventDefault(); resolveLink($("#link").value, $("#installed").value); });
$("#choose-form").addEventListener("submit", (event) => { event.preventDefault(); choose(event.target); });
$("#failures-only").addEventListener("change", () => loadTests());

// ?url=… fills the form and resolves at once (handy for sharing, and how the browser test drives the page).
const initial = new URLSearchParams(location.search).get("url");
if (initial) {
  $("#link").value = initial;
  $("#resolve-form").requestSubmit();
}
