const { createConfig } = require('@lsp/frontend-kit/webpack');

module.exports = createConfig({ name: 'dashboard', dir: __dirname, host: false, title: 'Dashboard' });
