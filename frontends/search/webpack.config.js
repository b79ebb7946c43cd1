const { createConfig } = require('@lsp/frontend-kit/webpack');

module.exports = createConfig({ name: 'search', dir: __dirname, host: false, title: 'Loan search' });
