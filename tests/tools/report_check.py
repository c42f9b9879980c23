#!/usr/bin/python3
"""Checks of stackbench's HTML report (python3 stdlib + Debian's html5lib).

  report_check.py static PAGE.html
      HTML5 parse in strict mode (html5lib: any parse error fails) and the
      structure: lang, charset, title, unique ids, every <th> with scope,
      every <table> with a <caption>, no external reference of any kind
      (src/href/xlink:href/url()/@import/<link>/<script src>).

  report_check.py expect [--pdf] COMPARE.md OUT.json RESULTS...
      What a page must show, from compare's Markdown table (same options)
      and the results files; --pdf: also print it to an A4 PDF.

  report_check.py browser --chromium BIN --out DIR --case NAME=PAGE=EXPECT.json ...
                          [--control NAME=PAGE]
      Loads each PAGE in headless Chromium through the DevTools protocol on
      a pipe (--remote-debugging-pipe: no port, no websocket), logs every
      request the page makes (and fails every one that is not the page
      itself, so nothing can reach a network), takes a screenshot of the
      first screen (DIR/NAME.png), reads the DOM and checks it against
      EXPECT (what the table must hold, which charts must be there), checks
      that the print layout fits an A4 page width, and clicks a header to
      see the table sort. A --control page MUST be caught making requests:
      that proves the request check can fail.

Exit status 0 when every check passes; each failure is printed as a line
starting with FAIL.
"""
import base64
import json
import os
import re
import select
import subprocess
import sys
import tempfile
import time

FAILS = []


def fail(msg):
    FAILS.append(msg)
    print("FAIL: " + msg, flush=True)


# ---------------------------------------------------------------- static

def check_static(path):
    import html5lib
    from xml.etree import ElementTree as ET

    data = open(path, "rb").read()
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        doc = parser.parse(data)
    except Exception as e:  # html5lib.html5parser.ParseError
        line, col = parser.errors[0][0] if parser.errors else ("?", "?")
        fail(f"{path}: not valid HTML5 at line {line} col {col}: {e}")
        return
    if not data.startswith(b"<!DOCTYPE html>"):
        fail(f"{path}: does not start with <!DOCTYPE html>")
    root = doc if doc.tag == "html" else doc.find(".//html")
    if root is None or not root.get("lang"):
        fail(f"{path}: <html> without lang")
    if doc.find(".//head/meta[@charset]") is None:
        fail(f"{path}: no <meta charset>")
    if not (doc.findtext(".//head/title") or "").strip():
        fail(f"{path}: empty <title>")
    ids = {}
    for el in doc.iter():
        i = el.get("id")
        if i is not None:
            ids[i] = ids.get(i, 0) + 1
    dup = [i for i, n in ids.items() if n > 1]
    if dup:
        fail(f"{path}: duplicate ids: {dup[:5]}")
    for el in doc.iter():
        tag = el.tag.split("}")[-1] if isinstance(el.tag, str) else ""
        for k, v in el.attrib.items():
            k = k.split("}")[-1]
            if k in ("href", "src", "srcset", "action", "data", "poster") and not v.startswith("#"):
                fail(f"{path}: <{tag} {k}={v!r}>: a reference that leaves the page")
            if "url(" in v and not re.fullmatch(r".*url\(#[^)]*\).*", v):
                fail(f"{path}: <{tag} {k}={v!r}>: url() that leaves the page")
            if k == "href" and v.startswith("#") and v[1:] not in ids:
                fail(f"{path}: link to #{v[1:]} which no element has")
        if tag in ("link", "img", "iframe", "object", "embed", "video", "audio", "source"):
            fail(f"{path}: <{tag}> element: the page must be self-contained")
        if tag == "th" and el.get("scope") not in ("col", "row", "colgroup", "rowgroup"):
            fail(f"{path}: <th> without scope: {''.join(el.itertext())[:40]!r}")
        if tag == "table" and el.find("caption") is None:
            fail(f"{path}: <table> without <caption> (id={el.get('id')})")
        if tag == "style" and re.search(r"@import|url\((?!#)", el.text or ""):
            fail(f"{path}: stylesheet imports or loads something")
        if tag == "svg" and el.get("aria-hidden") != "true" and el.get("class") != "sw":
            t = next((c for c in el if isinstance(c.tag, str) and c.tag.split("}")[-1] == "title"), None)
            if el.get("role") != "img" or t is None or not (t.text or "").strip():
                fail(f"{path}: chart <svg> without role=img and a <title>")
    text = data.decode("utf-8")
    for m in re.finditer(r"(?i)\b(?:https?|ftp|wss?):", text):
        fail(f"{path}: a network URL in the page: {text[m.start():m.start() + 60]!r}")
        break
    print(f"static: {path}: HTML5 strict parse ok, {len(ids)} ids, {len(data)} bytes"
          + ("" if not FAILS else f", {len(FAILS)} problem(s)"))


# ---------------------------------------------------------------- DevTools on a pipe

class Browser:
    def __init__(self, chromium, profile):
        to_r, self.to_w = os.pipe()
        self.from_r, from_w = os.pipe()
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
                 f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"]
        # Chromium reads commands on fd 3 and writes replies on fd 4; move
        # the pipe ends out of the way first so no redirection clobbers one.
        hi_r, hi_w = 200, 201
        os.dup2(to_r, hi_r)
        os.dup2(from_w, hi_w)
        os.close(to_r)
        os.close(from_w)
        def fds():  # in the child, before exec; pass_fds keeps 3 and 4 open
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)
        self.proc = subprocess.Popen([chromium] + flags, pass_fds=(3, 4), preexec_fn=fds,
                                     stdout=subprocess.DEVNULL,
                                     stderr=open(os.environ.get("SB_CHROMIUM_LOG", os.devnull), "w"))
        os.close(hi_r)
        os.close(hi_w)
        self.buf = b""
        self.next_id = 0
        self.events = []
        self.replies = {}
        self.session = None

    def _read_msg(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.time()
            if left <= 0:
                raise TimeoutError("no reply from chromium")
            r, _, _ = select.select([self.from_r], [], [], left)
            if r:
                chunk = os.read(self.from_r, 1 << 20)
                if not chunk:
                    raise EOFError("chromium closed the pipe")
                self.buf += chunk
        msg, self.buf = self.buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method, params=None, session=True, timeout=30):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.to_w, json.dumps(msg).encode() + b"\0")
        my_id = self.next_id
        deadline = time.time() + timeout
        # Replies can arrive while an event handler sends its own command
        # (Fetch.requestPaused -> continueRequest): keep them all by id.
        while my_id not in self.replies:
            self.dispatch(self._read_msg(deadline))
        m = self.replies.pop(my_id)
        if "error" in m:
            raise RuntimeError(f"{method}: {m['error']}")
        return m.get("result", {})

    def dispatch(self, m):
        if "id" in m:
            self.replies[m["id"]] = m
        else:
            self.on_event(m)

    def pump(self, seconds):
        deadline = time.time() + seconds
        try:
            while True:
                self.dispatch(self._read_msg(deadline))
        except TimeoutError:
            pass

    def on_event(self, m):
        self.events.append(m)
        if m.get("method") == "Fetch.requestPaused":
            p = m["params"]
            url = p["request"]["url"]
            if url == self.page_url:
                self.send("Fetch.continueRequest", {"requestId": p["requestId"]})
            else:
                self.send("Fetch.failRequest", {"requestId": p["requestId"], "errorReason": "BlockedByClient"})

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def open(self, url, width=1280, height=1000):
        self.page_url = url
        self.events = []
        if self.session is None:
            t = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
            self.session = self.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True},
                                     session=False)["sessionId"]
            for m in ("Page.enable", "Network.enable", "Runtime.enable"):
                self.send(m)
            self.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        self.send("Emulation.setEmulatedMedia", {"media": "screen"})
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.navigate", {"url": url})
        deadline = time.time() + 30
        while not any(e.get("method") == "Page.loadEventFired" for e in self.events):
            self.dispatch(self._read_msg(deadline))
        self.pump(1.0)  # anything the page would fetch late

    def requests(self):
        """Every request the page started, other than the page itself."""
        urls = []
        for e in self.events:
            if e.get("method") in ("Network.requestWillBeSent", "Fetch.requestPaused",
                                   "Network.webSocketCreated"):
                u = e["params"].get("request", {}).get("url") or e["params"].get("url")
                if u and u != self.page_url and u not in urls:
                    urls.append(u)
        return urls

    def eval(self, expr):
        r = self.send("Runtime.evaluate", {"expression": expr, "returnByValue": True, "awaitPromise": True})
        if "exceptionDetails" in r:
            raise RuntimeError(f"page script failed: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, path):
        data = self.send("Page.captureScreenshot", {"format": "png"})["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))


DOM_FACTS = r"""
(() => {
  const txt = e => e.textContent.replace(/\s+/g, ' ').trim();
  const t = document.querySelector('table#comparison');
  const out = {};
  if (!t) return JSON.stringify({error: 'no table#comparison'});
  out.headers = Array.from(t.tHead.rows[0].cells).map(txt);
  out.header_scopes = Array.from(t.querySelectorAll('th')).map(th => th.getAttribute('scope'));
  // cell text with its footnote mark: the page marks a machine-bound figure
  // with the same " \u2020" as compare's text formats
  const marked = c => txt(c);
  // elsewhere (the per-layer table) without them: the results file has none
  const bare = c => { const k = c.cloneNode(true); k.querySelectorAll('sup').forEach(s => s.remove()); return txt(k); };
  out.rows = Array.from(t.tBodies[0].rows).map(r => Array.from(r.cells).map(marked));
  out.bound_marks = t.querySelectorAll('sup a[href="#fn-bound"]').length;
  out.row_links = Array.from(t.tBodies[0].rows).map(r => {
    const a = r.cells[0].querySelector('a'); const id = a && a.getAttribute('href').slice(1);
    const sec = id && document.getElementById(id);
    return sec ? Array.from(sec.querySelectorAll('a[href^="#src-"]')).map(x => {
      const li = document.getElementById(x.getAttribute('href').slice(1)); return li ? txt(li.querySelector('code')) : null; }) : null;
  });
  out.charts = Array.from(document.querySelectorAll('figure.chart')).map(f => {
    const svg = f.querySelector('svg'); const b = svg.getBoundingClientRect();
    return {id: f.id, bars: svg.querySelectorAll('rect[fill^="url(#sbp-"]:not([fill="url(#sbp-drop)"])').length,
            whiskers: svg.querySelectorAll('path.whisker').length,
            fills: Array.from(svg.querySelectorAll('g')).filter(g => g.querySelector('rect') && g.querySelector('text'))
              .map(g => [g.querySelector('text').textContent, g.querySelector('rect').getAttribute('fill')]),
            width: b.width, height: b.height, labels: Array.from(svg.querySelectorAll('text')).map(txt),
            caption: f.querySelector('figcaption') ? txt(f.querySelector('figcaption')) : ''};
  });
  out.heat_tables = document.querySelectorAll('table.heat').length;
  const lt = document.querySelector('table.layers');
  out.layer_rows = lt ? Array.from(lt.tBodies[0].rows).map(r => Array.from(r.cells).map(bare)) : [];
  out.layer_tables = document.querySelectorAll('table.layers').length;
  out.stack_sections = Array.from(document.querySelectorAll('section.stack')).map(s => s.id);
  out.sources = Array.from(document.querySelectorAll('#sources li code')).map(txt);
  out.reproduce = Array.from(document.querySelectorAll('section.stack pre code')).map(txt);
  out.scroll_width = document.documentElement.scrollWidth;
  return JSON.stringify(out);
})()
"""

SORT_CHECK = r"""
(() => {
  const t = document.querySelector('table#comparison');
  const hs = Array.from(t.tHead.rows[0].cells);
  const i = hs.findIndex(th => th.classList.contains('num'));
  if (i < 0) return JSON.stringify({skipped: true});
  const btn = hs[i].querySelector('button');
  if (!btn) return JSON.stringify({error: 'no sort button: the script did not run'});
  const vals = () => Array.from(t.tBodies[0].rows).map(r => r.cells[i].getAttribute('data-v'))
                       .filter(v => v !== '').map(parseFloat);
  btn.click(); const asc = vals(); const sorted_asc = asc.every((v, k) => k == 0 || asc[k-1] <= v);
  btn.click(); const desc = vals(); const sorted_desc = desc.every((v, k) => k == 0 || desc[k-1] >= v);
  return JSON.stringify({column: hs[i].textContent.trim(), asc: sorted_asc, desc: sorted_desc,
                         aria: hs[i].getAttribute('aria-sort'), n: asc.length});
})()
"""

WIDEST = r"""
JSON.stringify(Array.from(document.querySelectorAll('body *')).filter(e => e.getBoundingClientRect().right > %d + 1)
  .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right <= %d + 1 || e.parentElement === document.body)
  .slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id + ' ' + Math.round(e.getBoundingClientRect().right) + 'px'))
"""

A4_CSS_PX = 186 / 25.4 * 96  # A4 is 210 mm wide; minus 2 x 12 mm margins (Letter is wider)


def check_case(br, name, page, expect, outdir):
    url = "file://" + os.path.abspath(page)
    br.open(url)
    shot = os.path.join(outdir, name + ".png")
    br.screenshot(shot)
    print(f"{name}: screenshot of the first screen in {shot}")
    reqs = br.requests()
    if reqs:
        fail(f"{name}: requests left the page: {reqs[:5]}")
    facts = json.loads(br.eval(DOM_FACTS))
    if "error" in facts:
        fail(f"{name}: {facts['error']}")
        return
    if facts["headers"] != expect["headers"]:
        fail(f"{name}: table headers {facts['headers']} != {expect['headers']}")
    if len(facts["rows"]) != len(expect["rows"]):
        fail(f"{name}: {len(facts['rows'])} table rows, expected {len(expect['rows'])}")
    for k, (got, want) in enumerate(zip(facts["rows"], expect["rows"])):
        if got != want:
            fail(f"{name}: row {k + 1} reads {got}, compare printed {want}")
    if any(s not in ("col", "row") for s in facts["header_scopes"]):
        fail(f"{name}: comparison table headers without scope: {facts['header_scopes']}")
    for k, files in enumerate(facts["row_links"]):
        if not files or any(f not in expect["files"] for f in files):
            fail(f"{name}: row {k + 1} does not lead to a named results file ({files})")
    if sorted(facts["sources"]) != sorted(expect["files"]):
        fail(f"{name}: results files named {facts['sources']} != {expect['files']}")
    got_charts = {c["id"]: c for c in facts["charts"]}
    for cid, nbars in expect["charts"].items():
        c = got_charts.get(cid)
        if not c:
            fail(f"{name}: chart {cid} missing (have {list(got_charts)})")
            continue
        if c["bars"] != nbars:
            fail(f"{name}: chart {cid} has {c['bars']} bars, expected {nbars}")
        if c["width"] < 300 or c["height"] < 50:
            fail(f"{name}: chart {cid} is not drawn ({c['width']}x{c['height']} px)")
        for s in expect["stacks"]:
            if not cid.startswith("waterfall") and s[:28] not in c["labels"]:
                fail(f"{name}: chart {cid} has no text label for stack {s} (readable without colour)")
    for cid, n in expect.get("whiskers", {}).items():
        if cid in got_charts and got_charts[cid]["whiskers"] != n:
            fail(f"{name}: chart {cid} has {got_charts[cid]['whiskers']} min-max whiskers, expected {n}")
    fill_of = {}
    for c in facts["charts"]:
        if c["id"].startswith("waterfall"):
            continue
        for stack, fill in c["fills"]:
            fill_of.setdefault(stack, set()).add(fill)
    if any(len(f) != 1 for f in fill_of.values()):
        fail(f"{name}: a stack changes its fill between charts: {fill_of}")
    fills = [next(iter(f)) for f in fill_of.values()]
    if len(set(fills)) != len(fills):
        fail(f"{name}: two stacks share a fill: {fill_of}")
    extra = [c for c in got_charts if c not in expect["charts"]]
    if extra:
        fail(f"{name}: unexpected charts {extra}")
    for k, (got, want) in enumerate(zip(facts["layer_rows"], expect.get("layer_rows", []))):
        if got != want:
            fail(f"{name}: per-layer row {k + 1} reads {got}, the results file says {want}")
    if len(facts["layer_rows"]) != len(expect.get("layer_rows", [])):
        fail(f"{name}: {len(facts['layer_rows'])} per-layer rows, expected {len(expect.get('layer_rows', []))}")
    if facts["heat_tables"] != expect["heat_tables"]:
        fail(f"{name}: {facts['heat_tables']} device heat tables, expected {expect['heat_tables']}")
    if facts["layer_tables"] != expect["layer_tables"]:
        fail(f"{name}: {facts['layer_tables']} per-layer tables, expected {expect['layer_tables']}")
    if len(facts["stack_sections"]) != len(expect["stacks"]):
        fail(f"{name}: {len(facts['stack_sections'])} stack sections, expected {len(expect['stacks'])}")
    if not all("stackbench" in r and "build-and-test" in r for r in facts["reproduce"]) or \
       len(facts["reproduce"]) != len(expect["stacks"]):
        fail(f"{name}: a stack without its command line: {facts['reproduce'][:2]}")
    srt = json.loads(br.eval(SORT_CHECK))
    if not srt.get("skipped") and not (srt.get("asc") and srt.get("desc") and srt.get("aria") == "descending"):
        fail(f"{name}: sorting by a numeric column does not work: {srt}")
    # print layout at the width of an A4 page (narrower than Letter)
    br.send("Emulation.setEmulatedMedia", {"media": "print"})
    br.send("Emulation.setDeviceMetricsOverride",
            {"width": int(A4_CSS_PX), "height": 1000, "deviceScaleFactor": 1, "mobile": False})
    sw = br.eval("document.documentElement.scrollWidth")
    if sw > int(A4_CSS_PX) + 1:
        wide = br.eval(WIDEST % (int(A4_CSS_PX), int(A4_CSS_PX)))
        fail(f"{name}: printed, the page is {sw} px wide: wider than A4's {int(A4_CSS_PX)} px text width; "
             f"too wide: {wide}")
    if not expect.get("pdf"):
        print(f"{name}: {len(facts['rows'])} rows, charts {sorted(got_charts)}, {facts['heat_tables']} heat "
              f"tables, {facts['layer_tables']} per-layer tables, sort {srt}, print width {sw} px, "
              f"{len(reqs)} requests")
        return
    pdf = base64.b64decode(br.send("Page.printToPDF", {"paperWidth": 8.27, "paperHeight": 11.69,
                                                        "marginTop": 0, "marginBottom": 0,
                                                        "marginLeft": 0, "marginRight": 0,
                                                        "preferCSSPageSize": True}, timeout=180)["data"])
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    print(f"{name}: {len(facts['rows'])} rows, charts {sorted(got_charts)}, {facts['heat_tables']} heat "
          f"tables, {facts['layer_tables']} per-layer tables, sort {srt}, print width {sw} px, "
          f"A4 PDF {pages} pages, {len(reqs)} requests")


def browser_main(args):
    chromium, outdir, cases, controls = None, None, [], []
    it = iter(args)
    for a in it:
        if a == "--chromium":
            chromium = next(it)
        elif a == "--out":
            outdir = next(it)
        elif a == "--case":
            cases.append(next(it).split("=", 2))
        elif a == "--control":
            controls.append(next(it).split("=", 1))
        else:
            sys.exit(f"unknown argument {a}")
    with tempfile.TemporaryDirectory(prefix="sb-chromium.") as prof:
        br = Browser(chromium, prof)
        try:
            for name, page in controls:
                br.open("file://" + os.path.abspath(page))
                reqs = br.requests()
                if len(reqs) < 2:
                    fail(f"control {name}: the request log caught {reqs}; it must catch the page's "
                         f"<img> and <link> to the network, or the check cannot fail")
                else:
                    print(f"control {name}: requests caught as they must be: {reqs}")
            for name, page, exp in cases:
                check_case(br, name, page, json.load(open(exp)), outdir)
        finally:
            br.close()


# ---------------------------------------------------------------- expectations

RATE = {"B/s", "kB/s", "KB/s", "MB/s", "GB/s", "KiB/s", "MiB/s", "GiB/s"}


def pct_present(job, p):
    for d in ("read", "write"):
        x = job.get(d) or {}
        pc = (x.get("clat_ns") or {}).get("percentile") or {}
        if (x.get("io_bytes") or 0) > 0 and any(abs(float(k) - p) < 1e-6 for k in pc):
            return True
    return False


def fig_value(v):
    """A per-layer figure: a number, or {"value": x, "bound_by_machine": ...}."""
    return v.get("value") if isinstance(v, dict) else v


def num(v, suffix=""):
    """A number as the tables print it (sb_num_format)."""
    if not isinstance(v, (int, float)):
        return "-"
    return ("%.0f" % v if abs(v) >= 10 or v == 0 else "%.3g" % v) + suffix


def layer_rows(pl):
    keys = ("seq_write_mbs", "seq_read_mbs", "randread_4k_iops")
    rows = []
    for e in sorted(pl, key=lambda e: e.get("order", 0)):
        f = {k: fig_value((e.get("figures") or {}).get(k)) for k in keys}
        x = {k: (e.get("expected") or {}).get(k) for k in keys}
        rows.append([e.get("layer") or "?", e.get("device") or "-"] + [num(f[k]) for k in keys]
                    + [num((e.get("pct_of_below") or {}).get(k), " %") for k in keys]
                    + [num(x[k]) for k in keys]
                    + [num(f[k] / x[k] * 100, " %") if isinstance(f[k], (int, float)) and
                       isinstance(x[k], (int, float)) and x[k] > 0 else "-" for k in keys])
    return rows


def expect_main(args):
    """expect MARKDOWN OUT RESULTS...: what the page must show, worked out
    from compare's Markdown table and the results files themselves."""
    pdf = args[0] == "--pdf"
    if pdf:
        args = args[1:]
    md, out, files = args[0], args[1], args[2:]
    lines = [l.strip() for l in open(md) if l.startswith("|")]
    split = lambda l: [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", l)[1:-1]]
    headers, rows = split(lines[0]), [split(l) for l in lines[2:]]
    # compare's verdict columns ("vs BASE, 95 % CI", with --baseline and
    # repetitions) are the page's Verdicts section, not its main table
    keep = [i for i, h in enumerate(headers) if not re.match(r"vs .*, 95 % CI$", h)]
    headers, rows = [headers[i] for i in keep], [[r[i] for i in keep if i < len(r)] for r in rows]
    res = []
    for f in files:
        if os.path.isdir(f):
            res += [(os.path.join(f, n), json.load(open(os.path.join(f, n))))
                    for n in sorted(os.listdir(f)) if n.endswith(".json") and not n.startswith(".")]
        else:
            res.append((f, json.load(open(f))))
    stacks = []
    for _, r in res:
        if r["stack"]["name"] not in stacks:
            stacks.append(r["stack"]["name"])
    cells = {"chart-throughput": set(), "chart-iops": set(), "chart-latency": set()}
    samples = {}
    for _, r in res:
        st = r["stack"]["name"]
        for su in r["suites"]:
            for fig, v in su["figures"].items():
                if not isinstance(v, dict) or not isinstance(v.get("value"), (int, float)):
                    continue
                g = "chart-throughput" if v.get("unit") in RATE else "chart-iops" if v.get("unit") == "/s" else None
                if g:
                    cells[g].add((st, su["suite"], fig))
                    samples[(g, st, su["suite"], fig)] = samples.get((g, st, su["suite"], fig), 0) + 1
            jobs = su.get("jobs") or []
            names = [j.get("jobname", j.get("name")) for j in jobs]
            for j in jobs:
                n = j.get("jobname", j.get("name"))
                if n and names.count(n) == 1:
                    for p in (50, 99, 99.9):
                        if pct_present(j, p):
                            cells["chart-latency"].add((st, su["suite"], n, p))
                            k = ("chart-latency", st, su["suite"], n, p)
                            samples[k] = samples.get(k, 0) + 1
    charts = {k: len(v) for k, v in cells.items() if v}
    whiskers = {g: sum(1 for k, n in samples.items() if k[0] == g and n > 1) for g in charts}
    heat = sum(1 for _, r in res if any(su.get("disk_util") for su in r["suites"]))
    layers, first_layers = 0, []
    for i, (_, r) in enumerate(res):
        pl = r.get("per_layer") or []
        if pl:
            layers += 1
            first_layers = first_layers or layer_rows(pl)
            charts[f"waterfall-{i + 1}"] = sum(
                1 for e in pl for k in ("seq_write_mbs", "seq_read_mbs")
                if isinstance(fig_value((e.get("figures") or {}).get(k)), (int, float)))
    json.dump({"headers": headers, "rows": rows, "files": [f for f, _ in res], "stacks": stacks,
               "charts": charts, "heat_tables": heat, "layer_tables": layers, "pdf": pdf,
               "layer_rows": first_layers, "whiskers": whiskers},
              open(out, "w"), indent=1)
    print(f"expect: {len(rows)} rows, charts {charts}, {heat} heat tables, {layers} per-layer tables")


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "static":
        for p in sys.argv[2:]:
            check_static(p)
    elif len(sys.argv) >= 5 and sys.argv[1] == "expect":
        expect_main(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "browser":
        browser_main(sys.argv[2:])
    else:
        sys.exit(__doc__)
    sys.exit(1 if FAILS else 0)
