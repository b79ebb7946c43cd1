const { createConfig } = require('@lsp/frontend-kit/webpack');

module.exports = createConfig({
  name: 'shell',
  dir: __dirname,
  host: true,
  title: 'LoanSearch UK — property finance search',
});
