// Browser test of `errdex serve` (docs/web.md, "Browser test"): headless Chromium (Debian's package),
// driven by playwright-core from node_modules (pinned by package-lock.json; it never downloads a browser).
// Started by run_browser.py, which builds and indexes the fixture repository and starts the server; this
// script gets everything it needs as one JSON argument:
//   {"base": "http://127.0.0.1:PORT", "chromium": "/usr/bin/chromium", "out": DIR,
//    "error": {"id", "repo", "type", "template", "path", "line", "function"}, "traceback": TEXT}
// Each step prints one line; the first failed check throws with a message saying what was expected.

import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const cfg = JSON.parse(process.argv[2] || '{}');
for (const key of ['base', 'chromium', 'out', 'error', 'traceback']) {
  if (!cfg[key]) throw new Error(`browser_test.mjs: missing "${key}" in the JSON argument`);
}
const E = cfg.error;
const base = cfg.base.replace(/\/$/, '');
const started = Date.now();
const STEP_TIMEOUT_MS = 15000;

let checks = 0;
function check(cond, message) {
  checks++;
  if (!cond) throw new Error(`check failed: ${message}`);
}
function step(text) {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)}s] ${text}`);
}

// Everything a page reports that is not meant to happen: console errors, uncaught exceptions, failed
// requests, HTTP errors and CSP violations. Two allowances, each logged by Chromium as a console error
// "Failed to load resource: ... status of 4xx" with the address as its location:
// - by design of static/errdex.js: before a search it probes the server with an empty POST api/match,
//   which answers 400 with JSON (a static host answers otherwise; the script then searches locally), then
//   submits the form, which may cancel the probe while its body arrives (then a failed request, ERR_ABORTED);
// - Chromium asks every origin for /favicon.ico on its own (the pages name no icon), and errdex answers
//   404. Neither is a request of the page's markup; anything else is a problem.
const problems = [];
const allowed = [];
const cspViolations = [];
function isProbe(url, method) {
  return method === 'POST' && new URL(url).pathname === '/api/match';
}
function isAllowedConsoleError(where, text) {
  const pathname = new URL(where, base).pathname;
  return (pathname === '/api/match' && /status of 400/.test(text)) ||
         (pathname === '/favicon.ico' && /status of 404/.test(text));
}
function watch(page, label) {
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const where = msg.location() && msg.location().url ? msg.location().url : '';
    const entry = `${label}: console error: ${msg.text()} (${where || 'no location'})`;
    if (where && isAllowedConsoleError(where, msg.text())) {
      allowed.push(entry);
    } else {
      problems.push(entry);
    }
  });
  page.on('pageerror', (err) => problems.push(`${label}: uncaught exception: ${err.message}`));
  page.on('requestfailed', (req) => {
    const entry = `${label}: request failed: ${req.method()} ${req.url()}: ${req.failure()?.errorText}`;
    // The probe's 400 body may still be arriving when the script submits the form: the navigation
    // cancels it (ERR_ABORTED), or not, depending on timing.
    if (isProbe(req.url(), req.method()) && req.failure()?.errorText === 'net::ERR_ABORTED') {
      allowed.push(entry);
    } else {
      problems.push(entry);
    }
  });
  page.on('response', (resp) => {
    if (resp.status() < 400) return;
    const req = resp.request();
    const entry = `${label}: HTTP ${resp.status()} for ${req.method()} ${resp.url()}`;
    if (isProbe(resp.url(), req.method()) && resp.status() === 400 && (req.postData() || '') === '') {
      allowed.push(entry);
    } else {
      problems.push(entry);
    }
  });
}
function assertNoProblems(when) {
  check(problems.length === 0, `${when}: the pages reported problems:\n  ${problems.join('\n  ')}`);
  check(cspViolations.length === 0, `${when}: Content-Security-Policy violations:\n  ${cspViolations.join('\n  ')}`);
}

// CSP violations are reported to the test through a binding; the listener is installed before any page
// script runs (an init script is not subject to the page's CSP).
async function reportCspViolations(context, sink) {
  await context.exposeBinding('__errdexCspViolation', (source, v) => {
    sink.push(`${source.page ? source.page.url() : '?'}: ${v.directive} blocked ${v.blocked || '(inline)'} ` +
              `at ${v.source || '?'}:${v.line || 0}`);
  });
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__errdexCspViolation({directive: e.violatedDirective, blocked: e.blockedURI, source: e.sourceFile,
                                   line: e.lineNumber});
    }, true);
  });
}

async function visible(locator, what) {
  const n = await locator.count();
  check(n > 0, `${what}: not in the page`);
  check(await locator.first().isVisible(), `${what}: in the page but not visible`);
}

async function noHorizontalOverflow(page, what) {
  const m = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [];
    for (const el of document.querySelectorAll('header.top, main, article, section, footer, h1, h2, p, form, textarea')) {
      const r = el.getBoundingClientRect();
      if (r.width > 0 && (r.left < -0.5 || r.right > width + 0.5)) {
        wide.push(`<${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className ? '.' + el.className : ''}> ` +
                  `${Math.round(r.left)}..${Math.round(r.right)}`);
      }
    }
    return {width, inner: window.innerWidth, scroll: document.documentElement.scrollWidth,
            body: document.body.scrollWidth, wide};
  });
  check(m.scroll <= m.width && m.body <= m.width,
        `${what}: the page scrolls sideways (scrollWidth ${m.scroll}, body ${m.body}, viewport ${m.width})`);
  check(m.wide.length === 0, `${what}: elements wider than the ${m.width}px viewport: ${m.wide.join(', ')}`);
  return m;
}

const background = (page) => page.evaluate(() => {
  const s = getComputedStyle(document.body);
  return {bg: s.backgroundColor, fg: s.color};
});

// The error page: the sections present are visible and say what the catalog says.
async function checkErrorPage(page, what) {
  const title = page.locator('article.error p.title-line');
  await visible(title, `${what}: title line`);
  const titleText = (await title.innerText()).replace(/\s+/g, ' ').trim();
  check(titleText === `${E.repo} · error · ${E.type}`,
        `${what}: title line is "${titleText}", expected "${E.repo} · error · ${E.type}"`);
  const headline = page.locator('article.error h1.headline');
  await visible(headline, `${what}: headline`);
  const h1 = await headline.innerText();
  check(E.template.startsWith(h1.replace(/…$/, '')),
        `${what}: headline "${h1}" is not the start of the message "${E.template}"`);

  // Every heading the page has is visible, and the two every error page has are there.
  const headings = await page.locator('main h2, main h3, footer h2').evaluateAll(
    (els) => els.map((e) => e.textContent.trim()));
  for (let i = 0; i < headings.length; i++) {
    check(await page.locator('main h2, main h3, footer h2').nth(i).isVisible(),
          `${what}: heading "${headings[i]}" is not visible`);
  }
  for (const needed of ['Error message', 'Source']) {
    check(headings.includes(needed), `${what}: no "${needed}" heading (headings: ${headings.join(' | ')})`);
  }
  const message = page.locator('section#message p.template');
  await visible(message, `${what}: message template`);
  check((await message.innerText()).trim() === E.template,
        `${what}: message "${await message.innerText()}" differs from the catalog's "${E.template}"`);

  const thrown = page.locator('section#source p.thrown');
  await visible(thrown, `${what}: "Thrown at" line`);
  const thrownText = (await thrown.innerText()).replace(/\s+/g, ' ').trim();
  check(thrownText === `Thrown at ${E.path}:${E.line} in ${E.function}`,
        `${what}: "${thrownText}", expected "Thrown at ${E.path}:${E.line} in ${E.function}"`);
  const marked = page.locator('section#source pre.code .l.hit');
  await visible(marked, `${what}: the marked raise line`);
  const firstMarked = (await marked.first().innerText()).replace(/\s+/g, ' ').trim();
  check(new RegExp(`^${E.line}\\s*▶\\s*raise RuntimeError\\(`).test(firstMarked),
        `${what}: first marked line is "${firstMarked}", expected line ${E.line} with "raise RuntimeError("`);
  check(await page.locator('section#source .mark[title="raised here"]').first().isVisible(),
        `${what}: the ▶ raise marker is not visible`);

  // A local repository (indexed without --url) has no forge link, and its locations are not links.
  check(await page.getByText(/^View on /).count() === 0, `${what}: a "View on ..." link for a repository without URL`);
  check(await page.locator('section#source p.permalink').count() === 0, `${what}: a permalink paragraph`);
  check(await page.locator('section#source p.thrown a').count() === 0, `${what}: "Thrown at" links somewhere`);

  const footer = page.locator('footer.error-footer');
  await visible(footer, `${what}: footer`);
  const json = footer.getByRole('link', {name: `/api/errors/${E.id}`});
  await visible(json, `${what}: footer link "Data as JSON: /api/errors/${E.id}"`);
  check((await footer.innerText()).includes(`Data as JSON: /api/errors/${E.id}`), `${what}: footer text "Data as JSON"`);
  await visible(footer.getByRole('link', {name: E.repo, exact: true}), `${what}: footer repository link`);
  return {headings, jsonHref: await json.getAttribute('href')};
}

const browser = await chromium.launch({
  executablePath: cfg.chromium,
  headless: true,
  // Chromium refuses to start its sandbox as root ("Running as root without --no-sandbox is not
  // supported"), as in containers and CI jobs; as any other user the sandbox stays on.
  chromiumSandbox: process.getuid() !== 0,
  timeout: 30000,
});
step(`Chromium ${browser.version()} started (${cfg.chromium}, sandbox ${process.getuid() !== 0 ? 'on' : 'off: root'})`);
try {
  fs.mkdirSync(cfg.out, {recursive: true});
  const shots = [];
  const errorUrl = `${base}/errors/${E.id}`;

  // --- Desktop, light, then dark -------------------------------------------------------------------
  const desktop = await browser.newContext({viewport: {width: 1280, height: 900}, colorScheme: 'light',
                                            reducedMotion: 'reduce'});
  await reportCspViolations(desktop, cspViolations);
  const page = await desktop.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  watch(page, 'desktop');

  let resp = await page.goto(`${base}/`, {waitUntil: 'load'});
  check(resp && resp.status() === 200, `GET / answered ${resp && resp.status()}`);
  check(/default-src 'none'/.test(resp.headers()['content-security-policy'] || ''), 'GET / has no strict CSP header');
  await visible(page.locator('form#search-form textarea#q'), 'home: search box');
  await visible(page.getByText('Paste an error, a traceback or a log'), 'home: search box label');
  await visible(page.getByRole('button', {name: 'Find where it comes from'}), 'home: search button');
  await visible(page.getByRole('heading', {name: 'Indexed repositories'}), 'home: repository list heading');
  await visible(page.locator('table.repos').getByRole('link', {name: E.repo, exact: true}), `home: repository ${E.repo}`);
  step('home page: search box and repository list visible');

  resp = await page.goto(errorUrl, {waitUntil: 'load'});
  check(resp && resp.status() === 200, `GET /errors/${E.id} answered ${resp && resp.status()}`);
  const desktopPage = await checkErrorPage(page, 'desktop error page');
  step(`error page ${E.id}: visible sections ${desktopPage.headings.join(' | ')}`);
  await noHorizontalOverflow(page, 'desktop error page');

  // "Data as JSON" leads to the error's JSON.
  const data = await page.request.get(new URL(desktopPage.jsonHref, page.url()).href);
  check(data.status() === 200, `${desktopPage.jsonHref}: HTTP ${data.status()}`);
  const report = await data.json();
  check(report.id === E.id && report.template === E.template, `${desktopPage.jsonHref}: not this error's JSON`);

  const light = await background(page);
  shots.push(path.join(cfg.out, 'error-page-desktop.png'));
  await page.screenshot({path: shots.at(-1), fullPage: true, animations: 'disabled'});
  await page.emulateMedia({colorScheme: 'dark'});
  const dark = await background(page);
  check(light.bg !== dark.bg, `dark colour scheme: the background stays ${light.bg}`);
  check(light.fg !== dark.fg, `dark colour scheme: the text colour stays ${light.fg}`);
  check(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), 'dark scheme not emulated');
  await visible(page.locator('section#source pre.code .l.hit'), 'dark error page: the marked raise line');
  shots.push(path.join(cfg.out, 'error-page-desktop-dark.png'));
  await page.screenshot({path: shots.at(-1), fullPage: true, animations: 'disabled'});
  await page.emulateMedia({colorScheme: 'light'});
  step(`colour schemes: light background ${light.bg}, dark ${dark.bg}`);

  // --- Phone: 390 px wide ----------------------------------------------------------------------------
  const phone = await browser.newContext({viewport: {width: 390, height: 844}, deviceScaleFactor: 2, isMobile: true,
                                          hasTouch: true, colorScheme: 'light', reducedMotion: 'reduce'});
  await reportCspViolations(phone, cspViolations);
  const phonePage = await phone.newPage();
  phonePage.setDefaultTimeout(STEP_TIMEOUT_MS);
  watch(phonePage, 'phone');
  resp = await phonePage.goto(errorUrl, {waitUntil: 'load'});
  check(resp && resp.status() === 200, `phone: GET /errors/${E.id} answered ${resp && resp.status()}`);
  await checkErrorPage(phonePage, 'phone error page');
  const m = await noHorizontalOverflow(phonePage, 'phone error page');
  check(m.width === 390, `phone: the layout viewport is ${m.width}px wide, expected 390 (meta viewport)`);
  shots.push(path.join(cfg.out, 'error-page-phone.png'));
  await phonePage.screenshot({path: shots.at(-1), fullPage: true, animations: 'disabled'});
  resp = await phonePage.goto(`${base}/`, {waitUntil: 'load'});
  await visible(phonePage.locator('textarea#q'), 'phone home: search box');
  await noHorizontalOverflow(phonePage, 'phone home page');
  step('phone (390 px): no horizontal overflow on the error page and the home page');
  await phone.close();
  for (const shot of shots) console.log(`screenshot: ${shot}`);

  // --- Search: paste a traceback, submit, follow the first result ------------------------------------
  await desktop.grantPermissions(['clipboard-read', 'clipboard-write'], {origin: base});
  await page.goto(`${base}/`, {waitUntil: 'load'});
  await page.evaluate((text) => navigator.clipboard.writeText(text), cfg.traceback);
  const box = page.locator('textarea#q');
  await box.click();
  await page.keyboard.press('Control+V');
  const pasted = await box.inputValue();
  check(pasted === cfg.traceback,
        `the pasted traceback is not in the search box (it holds ${JSON.stringify(pasted.slice(0, 200))})`);
  step(`pasted a ${cfg.traceback.split('\n').length}-line traceback into the search box`);
  await Promise.all([
    page.waitForURL((u) => u.pathname === '/search', {waitUntil: 'load'}),
    page.getByRole('button', {name: 'Find where it comes from'}).click(),
  ]);
  const resultsHeading = (await page.locator('main h2').first().innerText()).trim();
  check(/^\d+ match(es)?$/.test(resultsHeading), `search: heading "${resultsHeading}", expected "N match(es)"`);
  const first = page.locator('ol.matches > li.match:not(.closest) .match-head a').first();
  await visible(first, 'search: first result link');
  const href = await first.getAttribute('href');
  check(href === `./errors/${E.id}.html`, `search: the first result links to ${href}, expected ./errors/${E.id}.html`);
  await Promise.all([page.waitForURL((u) => u.pathname === `/errors/${E.id}.html`, {waitUntil: 'load'}), first.click()]);
  await checkErrorPage(page, 'error page reached from the search');
  step(`search: "${resultsHeading}", the first result leads to /errors/${E.id}.html`);
  assertNoProblems('after all pages');

  // --- The CSP check itself works: an inline style is refused and reported --------------------------
  const canaryViolations = [];
  const canary = await browser.newContext();
  await reportCspViolations(canary, canaryViolations);
  const canaryPage = await canary.newPage();
  await canaryPage.goto(errorUrl, {waitUntil: 'load'});
  await canaryPage.evaluate(() => {
    const s = document.createElement('style');
    s.textContent = 'body { background: rgb(1, 2, 3) }';
    document.head.appendChild(s);
  });
  // The violation event is delivered asynchronously: wait up to 5 s for it.
  for (let i = 0; i < 50 && canaryViolations.length === 0; i++) await canaryPage.waitForTimeout(100);
  check(canaryViolations.length > 0, 'an inline <style> was not reported as a CSP violation: the check is blind');
  check((await background(canaryPage)).bg !== 'rgb(1, 2, 3)', 'an inline <style> was applied: the CSP is not enforced');
  await canary.close();
  await desktop.close();
  assertNoProblems('at the end');

  for (const a of allowed) step(`allowed (see the comment above watch()): ${a}`);
  step(`ok: ${checks} checks`);
} finally {
  await browser.close();
}
