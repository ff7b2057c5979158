/** The site's one stylesheet, inlined into every page (no external asset). */
export const STYLE = `
:root{--fg:#1d2329;--muted:#5d6770;--line:#d8dee4;--bg:#fff;--soft:#f5f7f9;--pass:#1a7f37;--fail:#cf222e;--skip:#8c959f;--err:#bc4c00;--link:#0550ae}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
header{background:#24292f;color:#fff;padding:.5rem 1rem;display:flex;gap:1.5rem;align-items:baseline;flex-wrap:wrap}
header .site{font-weight:600}
header a{color:#cfe3ff;margin-right:1rem}
main{padding:1rem 1.5rem;max-width:1400px}
footer{color:var(--muted);font-size:12px;padding:1rem 1.5rem;border-top:1px solid var(--line)}
h1{font-size:1.5rem;margin:.3rem 0 1rem}
h2{font-size:1.2rem;margin:1.6rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
h3{font-size:1rem;margin:1.2rem 0 .4rem}
a{color:var(--link);text-decoration:none}
a:hover{text-decoration:underline}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
code{background:var(--soft);padding:0 .2em;border-radius:3px}
table{border-collapse:collapse;margin:.4rem 0 1rem}
th,td{border:1px solid var(--line);padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:var(--soft);font-weight:600}
td.num,th.num{text-align:right}
.muted{color:var(--muted)}
.badge{display:inline-block;padding:0 .45em;border-radius:9px;font-size:12px;font-weight:600;color:#fff;background:var(--skip);white-space:nowrap}
.o-passed,.o-conforms{background:var(--pass)}
.o-failed,.o-violated{background:var(--fail)}
.o-errored{background:var(--err)}
.o-skipped,.o-not-claimed,.o-not-run,.o-not-testable,.o-absent{background:var(--skip)}
.counts span{display:inline-block;min-width:2.8em;text-align:right;font-variant-numeric:tabular-nums}
.counts .p{color:var(--pass)}.counts .f{color:var(--fail);font-weight:600}.counts .s{color:var(--skip)}.counts .e{color:var(--err);font-weight:600}
.counts .z{color:#c9d1d9;font-weight:400}
.only{display:inline-block;margin-left:.3em;padding:0 .35em;border-radius:3px;background:#fff8c5;border:1px solid #d4a72c;color:#7d4e00;font-size:11px;font-weight:600}
.matrix td.cell{white-space:nowrap}
.matrix tr.doc th{background:#eaeef2;text-align:left}
.matrix.clauses td.clause{width:40%;min-width:22rem}
.matrix td.clause .para{color:var(--muted);font-size:12px;display:block}
.gherkin{background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.6rem .8rem;margin:.4rem 0 .8rem;overflow-x:auto}
.gherkin .kw{color:#8250df;font-weight:600}
.gherkin .tag{color:#6e7781;font-size:12px}
.gherkin .step{margin:.1rem 0 .1rem 1.2rem}
.gherkin table{margin:.2rem 0 .3rem 2.4rem;background:#fff}
.gherkin pre{margin:.2rem 0 .3rem 2.4rem;background:#fff;border:1px solid var(--line);padding:.3rem}
.scenario{border-left:3px solid var(--line);padding-left:.8rem;margin:1rem 0 1.4rem}
.prose{max-width:60rem}
.gherkin .prose{white-space:pre-line}
.kv th{width:12rem}
.msg{white-space:pre-wrap;font-family:ui-monospace,monospace;font-size:12px;margin:0}
.cls{display:inline-block;padding:0 .35em;border-radius:3px;border:1px solid #8c959f;font-size:11px;margin-right:.3em}
.caps code{display:inline-block;margin:0 .2em .3em 0}
ul.compact{margin:.2rem 0;padding-left:1.2rem}
.legend{color:var(--muted);font-size:12px;margin:.2rem 0 .6rem}
`;
