/**
 * The explorer's one HTML page: the script draws every view from the URL (`/explorer/<network>/block/<id>`, ...).
 * The meta (networks, ABIs) rides in the page as a JSON data block (not run: the CSP allows no inline script),
 * which saves the first view a round trip.
 */
const HTML = (META: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>devgate explorer</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/explorer/assets/app.css">
<script type="module" src="/explorer/assets/app.js"></script>
</head>
<body>
<header><a class="brand" href="/explorer">devgate</a><nav id="nets"></nav><form id="search" role="search"><input class="q" name="q" placeholder="block number or hash, tx hash, address" autocomplete="off"><button class="go">Search</button></form><span id="live" title="live over WebSocket">○</span></header>
<script type="application/json" id="meta">${META}</script>
<main id="main"><p class="muted">loading…</p></main>
</body>
</html>
`;

/** The page with the meta's JSON in it; `<` is escaped so that no value can end the data block. */
export function pageHtml(metaJson: string): string {
  return HTML(metaJson.replace(/</g, '\\u003c'));
}
