/**
 * The explorer's one HTML page: the script draws every view from the URL (`/explorer/<network>/block/<id>`, ...).
 * The meta (networks, ABIs) and the first view's data (first.ts) ride in the page as JSON data blocks (not run: the
 * CSP allows no inline script), so the first view is drawn without a round trip.
 */
const HTML = (META: string, FIRST: string, JS: string, CSS: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>devgate explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CSS}">
<script type="module" src="${JS}"></script>
</head>
<body>
<header><a class="brand" href="/explorer">devgate</a><nav id="nets"></nav><form id="search" role="search"><input class="q" name="q" placeholder="block number or hash, tx hash, address" autocomplete="off"><button class="go">Search</button></form><span id="live" title="live over WebSocket">○</span></header>
<script type="application/json" id="meta">${META}</script>
<script type="application/json" id="first">${FIRST}</script>
<main id="main"><p class="muted">loading…</p></main>
</body>
</html>
`;

/** `<` escaped (it is only ever inside a JSON string), so that no value can end the data block. */
const inert = (json: string): string => json.replace(/</g, '\\u003c');

/** The page with the meta's and the first view's JSON in it, and the script's and style's paths. */
export function pageHtml(metaJson: string, firstJson: string, jsPath: string, cssPath: string): string {
  return HTML(inert(metaJson), inert(firstJson), jsPath, cssPath);
}
