/** A page of the service's own (the home page, the API reference): the same head everywhere, then `head` and `body`. */
export const htmlPage = (title: string, head: string, body: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  ${head}
</head>
<body>
${body}
</body>
</html>
`;
