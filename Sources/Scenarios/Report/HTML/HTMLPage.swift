/// The HTML report's page around its data: markup, style sheet (screen and print) and script, all inline.
enum HTMLPage {
    static let head = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>sut-launch report</title>
        <style>
        """ + HTMLStyle.css + """
            </style>
            </head>
            <body>
            <header id="header"><h1>sut-launch report</h1><p id="verdict" role="status">Loading…</p>
            <dl id="facts"></dl><div id="counts" role="group" aria-label="Filter by status"></div></header>
            <nav id="controls" aria-label="Filters">
            <label>Search <input id="search" type="search" placeholder="name, step, output… ( / )" autocomplete="off"></label>
            <label>Tag <select id="tag"><option value="">any tag</option></select></label>
            <span id="shown" aria-live="polite"></span>
            <button id="expand" type="button">Expand all shown</button>
            </nav>
            <main id="list"></main>
            <button id="more" type="button" hidden>Show more</button>
            <noscript><p>This report needs JavaScript to show its scenarios.</p></noscript>
            <script type="application/json" id="data">
            """

    static let tail = """

        </script>
        <script>
        """ + HTMLScript.js + """
            </script>
            </body>
            </html>

            """
}

/// The report's style sheet: readable contrast (WCAG AA on white), visible focus, a print layout.
enum HTMLStyle {
    static let css = """
        :root{--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--bg:#fff;--panel:#f6f8fa;--passed:#1a7f37;--failed:#cf222e;--error:#9a3412;
        --undefined:#8250df;--notRun:#59636e;--unknown:#59636e;--flaky:#9a6700;--quarantined:#9a6700}
        *{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
        header,nav,main,#more{margin:0 auto;max-width:1200px;padding:8px 16px}h1{font-size:20px;margin:8px 0}
        #facts{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 8px}#facts dt{color:var(--muted)}#facts dd{margin:0;word-break:break-all}
        #counts button,.badge{border:1px solid var(--line);border-radius:12px;padding:2px 10px;background:var(--panel);color:var(--fg);font:inherit;cursor:pointer}
        #counts button[aria-pressed=true]{background:var(--fg);color:#fff}
        nav{display:flex;flex-wrap:wrap;gap:12px;align-items:center;position:sticky;top:0;background:var(--bg);border-bottom:1px solid var(--line);z-index:1}
        input,select,button{font:inherit}input[type=search]{width:22em}
        :focus-visible{outline:3px solid #0969da;outline-offset:2px}
        details.sc{border:1px solid var(--line);border-left:6px solid var(--muted);border-radius:6px;margin:6px 0;background:var(--bg)}
        details.sc>summary{padding:6px 10px;cursor:pointer;display:flex;flex-wrap:wrap;gap:8px;align-items:baseline}
        .st{font-weight:600;min-width:6em}.loc{color:#0550ae}.feat,.dur,.tags{color:var(--muted)}.tag{margin-right:4px}
        .s-passed{border-left-color:var(--passed)!important}.s-passed .st{color:var(--passed)}
        .s-failed{border-left-color:var(--failed)!important}.s-failed .st{color:var(--failed)}
        .s-error{border-left-color:var(--error)!important}.s-error .st{color:var(--error)}
        .s-undefined{border-left-color:var(--undefined)!important}.s-undefined .st{color:var(--undefined)}
        .s-notRun .st,.s-unknown .st{color:var(--notRun)}.s-quarantined .st{color:var(--quarantined)}.flaky{color:var(--flaky);font-weight:600}
        .body{padding:4px 12px 12px;border-top:1px solid var(--line)}h3{font-size:14px;margin:12px 0 4px}
        table.steps{border-collapse:collapse;width:100%}table.steps td{padding:2px 6px;vertical-align:top;border-bottom:1px solid var(--panel)}
        td.k-PASSED{color:var(--passed)}td.k-FAILED{color:var(--failed);font-weight:600}td.k-UNDEFINED{color:var(--undefined);font-weight:600}
        td.k-SKIPPED,td.k-UNKNOWN{color:var(--muted)}td.ms{text-align:right;color:var(--muted);white-space:nowrap}
        pre{margin:4px 0;padding:8px;background:var(--panel);border:1px solid var(--line);border-radius:6px;overflow:auto;max-height:40em;white-space:pre-wrap;word-break:break-word}
        pre.term{background:#0d1117;color:#e6edf3}.del{background:#ffebe9;color:#82071e}.ins{background:#dafbe1;color:#116329}
        .b{font-weight:700}.i{font-style:italic}.u{text-decoration:underline}.dim{opacity:.75}
        .f0{color:#6e7681}.f1{color:#ff7b72}.f2{color:#3fb950}.f3{color:#d29922}.f4{color:#58a6ff}.f5{color:#bc8cff}.f6{color:#39c5cf}.f7{color:#e6edf3}
        .f8{color:#8b949e}.f9{color:#ffa198}.f10{color:#56d364}.f11{color:#e3b341}.f12{color:#79c0ff}.f13{color:#d2a8ff}.f14{color:#56d4dd}.f15{color:#fff}
        .g0{background:#484f58}.g1{background:#8e1519}.g2{background:#116329}.g3{background:#7d4e00}.g4{background:#0a3069}.g5{background:#512a97}.g6{background:#0c4a52}.g7{background:#6e7681}
        ul.journal li{margin:2px 0;white-space:pre-wrap;font-family:ui-monospace,monospace}.near{color:var(--error)}.warn{color:var(--failed);font-weight:600}.attempt{border-top:1px dashed var(--line);margin-top:8px}
        @media print{nav,#counts,#more{display:none}details.sc{break-inside:avoid}pre{max-height:none;overflow:visible}pre.term{background:#fff;color:#000}body{font-size:11px}}
        """
}
