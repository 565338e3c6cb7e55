/** The HTML the example serves at `/`: an empty root, the styles and the bundled script. */

const STYLES = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f6f6f4; color: #1d1d1b; }
main { max-width: 44rem; margin: 0 auto; padding: 1rem; }
.message { background: #fff; border-radius: .5rem; padding: .5rem .75rem; margin: .5rem 0; }
.message.user { background: #e4efff; }
.role { font-size: .8rem; font-weight: 600; text-transform: uppercase; color: #555; }
.tool { border-left: 3px solid #999; padding-left: .5rem; margin: .5rem 0; }
.tool pre { white-space: pre-wrap; margin: .25rem 0; }
.notice { color: #7a4b00; }
.error { color: #a00000; }
.usage { color: #666; }
form { display: flex; gap: .5rem; }
form input { flex: 1; padding: .5rem; font: inherit; }
button { font: inherit; padding: .4rem .8rem; }
`;

/** The page shell; the script (`/page.js`) renders the chat into `#root`. */
export const PAGE_SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>fino chat example</title>
<style>${STYLES}</style>
</head>
<body>
<div id="root"></div>
<script type="module" src="/page.js"></script>
</body>
</html>
`;

/** What the page may load: its own script and the API, nothing from elsewhere. */
export const PAGE_CSP =
  "default-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'";
