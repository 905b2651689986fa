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

// A checkbox with its label, for the installed-apps controls.
function check(value, label, checked) {
  const box = el("input", { type: "checkbox", value });
  box.checked = checked;
  return el("label", { class: "check" }, box, label);
}

// The installed-apps control of the resolve form: the apps and browsers of the served rules (/v1/apps).
let appList = null;
async function loadApps(chosen) {
  if (!appList) appList = (await getJSON("/v1/apps")).apps;
  for (const [selector, kind, title] of [["#installed-apps", "app", "Apps"], ["#installed-browsers", "browser", "Browsers"]]) {
    const apps = appList.filter((app) => app.kind === kind).sort((a, b) => a.name.localeCompare(b.name));
    $(selector).replaceChildren(el("h3", {}, title), ...apps.map((app) => check(app.identifier, app.name, chosen.has(app.identifier))));
  }
  updateInstalledSummary();
}

const installedList = () => [...document.querySelectorAll("#installed-picker input:checked")].map((box) => box.value);

function updateInstalledSummary() {
  const chosen = [...document.querySelectorAll("#installed-picker input:checked")].map((box) => box.parentElement.textContent);
  $("#installed-summary").textContent = chosen.length === 0 ? "all" : visible(`${chosen.length}: ${chosen.join(", ")}`);
}

async function resolveLink() {
  const error = $("#resolve-error");
  error.hidden = true;
  document.body.dataset.state = "loading";
  const query = new URLSearchParams({ url: $("#link").value });
  const installed = installedList();
  if (installed.length > 0) query.set("installed", installed.join(","));
  if ($("#platform").value) query.set("platform", $("#platform").value);
  try {
    // One resolution, with its trace: the same document /v1/resolve gives, plus why each rule did or did not match.
    const resolution = await getJSON(`/v1/explain?${query}`);
    renderSteps(resolution);
    renderOpenings(resolution.openings);
  } catch (failure) {
    error.textContent = visible(failure.message);
    error.hidden = false;
    $("#steps").replaceChildren();
    renderOpenings([], false);
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
  // The final link's domain claims (serve --claims): each file, with every claim and exclusion and its rule, or why
  // it gave none.
  for (const file of (resolution.trace && resolution.trace.claims) || []) {
    const what = file.problem ? `no claims: ${file.problem}` : `age ${file.age || 0} s`;
    steps.append(el("p", { class: "step claims-file" }, `Claims: ${file.url} (${file.kind}): ${what}`));
    for (const claim of file.claims) {
      const app = claim.manifestApp ? `${claim.app} (${claim.manifestApp})` : claim.app;
      const listed = claim.notListed ? ` (not listed: ${claim.notListed})` : "";
      steps.append(el("p", { class: "step claim" }, `↳ ${app}: ${claim.outcome}${claim.rule ? ` by ${claim.rule}` : ""}${listed}`));
    }
    for (const note of file.notes) steps.append(el("p", { class: "step claim-note" }, `↳ note: ${note}`));
  }
}

// What an opening gives: its native URL as a link, or why there is none (an error reads as an error, not a URL).
function nativePart(opening) {
  if (opening.url) return el("a", { class: "native", href: opening.url }, opening.url);
  if (opening.error) return el("div", { class: "opening-error error", role: "alert" }, `No URL: ${opening.error.message} (${opening.error.code})`);
  if (opening.needsScript) return el("span", { class: "pending" }, "a script produces this URL");
  return el("span", { class: "pending" }, "no URL");
}

function openingItem(opening) {
  return el("li", { class: "opening", "data-kind": opening.kind },
    icon(opening.appName || opening.title, opening.iconURL),
    el("div", {},
      el("div", {}, el("span", { class: "name" }, opening.appName || opening.title), el("span", { class: "kind" }, `${opening.kind} · ${opening.title}`)),
      nativePart(opening),
      el("div", { class: "rule" }, opening.claim
        ? `claim ${opening.claim.rule} in ${opening.claim.file} (age ${opening.claim.age} s)`
        : `rule ${opening.rule}`)));
}

// App actions (and previews) first; the browsers, which open any web link, in their own group, collapsed.
function renderOpenings(openings, saysWhenEmpty = true) {
  const list = $("#openings");
  const browsers = openings.filter((opening) => opening.kind === "browser");
  const others = openings.filter((opening) => opening.kind !== "browser");
  list.replaceChildren(...others.map(openingItem));
  if (others.length === 0 && saysWhenEmpty) list.append(el("li", { class: "opening empty" }, el("span"), browsers.length === 0 ? "No app opens this link." : "No app action opens this link; browsers can."));
  const group = $("#browsers");
  group.hidden = browsers.length === 0;
  group.open = false;
  $("#browsers-summary").textContent = `${browsers.length} ${browsers.length === 1 ? "browser" : "browsers"} can open it as a web page`;
  $("#browser-openings").replaceChildren(...browsers.map(openingItem));
}

// The chooser form: its selects and fields come from /v1/app-types.
let appTypes = null;
async function loadAppTypes() {
  if (!appTypes) {
    appTypes = (await getJSON("/v1/app-types")).types;
    $("#choose-type").replaceChildren(...appTypes.map((type) => el("option", { value: type.key }, type.name)));
    fillChooser();
  }
}

function fillChooser() {
  const type = appTypes.find((candidate) => candidate.key === $("#choose-type").value) || appTypes[0];
  $("#choose-action").replaceChildren(...type.actions.map((action) => el("option", { value: action.key }, action.name || action.key)));
  $("#choose-params").replaceChildren(...type.parameters.map((parameter) =>
    el("label", { class: "control" }, parameter.name || parameter.key,
      el("input", { type: "text", "data-param": parameter.key, placeholder: parameter.description || parameter.key }))));
  $("#choose-installed").replaceChildren(el("h3", {}, "Installed apps (none ticked: all)"), ...type.apps.map((app) => check(app.key, app.name, false)));
}

async function choose() {
  const query = new URLSearchParams({ type: $("#choose-type").value, action: $("#choose-action").value });
  for (const input of document.querySelectorAll("#choose-params input")) if (input.value) query.append("param", `${input.dataset.param}=${input.value}`);
  const installed = [...document.querySelectorAll("#choose-installed input:checked")].map((box) => box.value);
  if (installed.length > 0) query.set("installed", installed.join(","));
  const error = $("#choose-error");
  error.hidden = true;
  const list = $("#choices");
  list.replaceChildren();
  try {
    const picker = await getJSON(`/v1/choose?${query}`);
    for (const choice of picker.choices || []) {
      list.append(el("li", { class: "opening" + (choice.isDefault ? " default" : "") },
        icon(choice.name, null),
        el("div", {}, el("div", { class: "name" }, choice.name + (choice.isDefault ? " (default)" : "")), el("a", { class: "native", href: choice.url }, choice.url))));
    }
  } catch (failure) {
    error.textContent = visible(failure.message);
    error.hidden = false;
  }
  document.body.dataset.state = "done";
}

// The rule-tests tab: one row per case; a failure's reason reads as an error, values as code.
let testReport = null;
async function loadTests() {
  if (!testReport) testReport = await getJSON("/v1/tests");
  $("#tests-summary").textContent = `${testReport.passed} passed, ${testReport.failed} failed, ${testReport.skipped} skipped`;
  const body = $("#tests tbody");
  body.replaceChildren();
  const failuresOnly = $("#failures-only").checked;
  const shown = testReport.results.filter((r) => !failuresOnly || r.status !== "passed");
  // Failures first, then skips: what needs attention is at the top.
  shown.sort((a, b) => (a.status === "failed" ? 0 : 1) - (b.status === "failed" ? 0 : 1));
  for (const result of shown.slice(0, 2000)) {
    const outcome = el("td", { class: "outcome" },
      el("div", {}, el("span", { class: "label" }, "expected "), el("code", {}, result.expected ?? "null")),
      el("div", {}, el("span", { class: "label" }, "actual "), el("code", {}, result.actual ?? "null")));
    if (result.reason) outcome.append(el("div", { class: result.status === "failed" ? "reason error" : "reason" }, result.reason));
    body.append(el("tr", { class: `row-${result.status}` },
      el("td", { class: `status ${result.status}` }, result.status), el("td", {}, result.kind), el("td", {}, el("code", {}, result.location)),
      el("td", {}, el("code", {}, result.input)), outcome));
  }
  document.body.dataset.state = "done";
}

function show(view) {
  for (const tab of document.querySelectorAll(".tab")) tab.classList.toggle("active", tab.dataset.view === view);
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== `view-${view}`;
  history.replaceState(null, "", view === "resolve" ? location.pathname + location.search : `#${view}`);
  if (view === "tests") loadTests().catch((failure) => { $("#tests-summary").textContent = failure.message; });
  if (view === "chooser") loadAppTypes().catch((failure) => { $("#choose-error").textContent = failure.message; $("#choose-error").hidden = false; });
}

for (const tab of document.querySelectorAll(".tab")) tab.addEventListener("click", () => show(tab.dataset.view));
$("#resolve-form").addEventListener("submit", (event) => { event.preventDefault(); resolveLink(); });
$("#installed-picker").addEventListener("change", updateInstalledSummary);
$("#installed-clear").addEventListener("click", () => {
  for (const box of document.querySelectorAll("#installed-picker input:checked")) box.checked = false;
  updateInstalledSummary();
});
$("#choose-type").addEventListener("change", fillChooser);
$("#choose-form").addEventListener("submit", (event) => { event.preventDefault(); choose(); });
$("#failures-only").addEventListener("change", () => loadTests());

// Which rules the server resolves with (/healthz names the manifest by its file name, a URL, or bundled:FILE for the bundled rules).
async function showRules() {
  try {
    const health = await getJSON("/healthz");
    const rules = health.rules.startsWith("bundled") ? "Switchyard's bundled rules" : health.rules;
    $("#rules").textContent = visible(`Rules: ${rules} (generation ${health.generation})`);
  } catch (failure) {
    $("#rules").textContent = visible(`Rules: unknown (${failure.message})`);
  }
}

// ?url=…&platform=…&installed=a,b fills the form and resolves at once (handy for sharing, and how the browser test
// drives the page); #tests or #chooser opens that tab.
async function start() {
  showRules();
  const query = new URLSearchParams(location.search);
  if (query.get("platform")) $("#platform").value = query.get("platform");
  try {
    await loadApps(new Set((query.get("installed") || "").split(",").filter(Boolean)));
  } catch (failure) {
    $("#installed-summary").textContent = `unavailable (${failure.message})`;
  }
  const view = location.hash.slice(1);
  if (view === "tests" || view === "chooser") show(view);
  if (query.get("url")) {
    $("#link").value = query.get("url");
    $("#resolve-form").requestSubmit();
  }
}
start();
