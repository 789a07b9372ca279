/**
 * The browser client: one esbuild bundle (app.js + app.css, uPlot included) and a static HTML shell. Untrusted
 * text (test ids, messages, issue titles) only ever reaches the page as text nodes; the Content-Security-Policy
 * allows scripts from the site itself and nothing inline, as a second wall.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** The page's policy, as the meta tag carries it (static hosting sends no headers of ours). */
const PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'";

/** The server's header adds what only a header can say (browsers ignore frame-ancestors in a meta tag). */
export const CSP = `${PAGE_CSP}; frame-ancestors 'none'`;

export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>opgate dashboards</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
<script type="module" src="app.js"></script>
</head>
<body>
<header><strong>opgate</strong><nav id="nav"></nav></header>
<main id="view" aria-live="polite"></main>
</body>
</html>
`;

export interface ClientBundle {
  readonly js: string;
  readonly css: string;
}

let cached: Promise<ClientBundle> | null = null;

/** Bundles the client once per process (about 100 ms). */
export function clientBundle(): Promise<ClientBundle> {
  cached ??= build({
    entryPoints: [fileURLToPath(new URL('./client/main.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format: 'esm',
    target: 'es2022',
    write: false,
    outdir: 'out',
    logLevel: 'silent',
  }).then((r) => {
    const out = (ext: string) => r.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
    return { js: out('.js'), css: out('.css') };
  });
  return cached;
}
